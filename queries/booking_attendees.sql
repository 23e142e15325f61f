-- name: BookingAttendeeInsert :exec
INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id, email)
VALUES (@organization_id, @booking_id, @position, @type, @user_id, @email);
