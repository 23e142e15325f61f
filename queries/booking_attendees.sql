-- name: BookingAttendeeInsert :exec
INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id, email)
VALUES (@organization_id, @booking_id, @position, @type, @user_id, @email);

-- name: BookingHasAttendee :one
SELECT EXISTS (
    SELECT 1 FROM booking_attendees
    WHERE organization_id = @organization_id AND booking_id = @booking_id AND user_id = @user_id::uuid);
