-- name: BookingAttendeeInsert :exec
INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id, email)
VALUES (@organization_id, @booking_id, @position, @type, @user_id, @email);

-- name: BookingHasAttendee :one
SELECT EXISTS (
    SELECT 1 FROM booking_attendees
    WHERE organization_id = @organization_id AND booking_id = @booking_id AND user_id = @user_id::uuid);

-- name: BookingAttendeesGet :many
-- Lists a booking's attendees in the order they were invited, with the names of internal attendees.
SELECT a.type, a.user_id, a.email, coalesce(u.name, '')::text AS name, coalesce(u.surname, '')::text AS surname,
       coalesce(u.email, '')::text AS user_email
FROM booking_attendees a
LEFT JOIN users u ON u.organization_id = a.organization_id AND u.id = a.user_id
WHERE a.organization_id = @organization_id AND a.booking_id = @booking_id
ORDER BY a.position;
