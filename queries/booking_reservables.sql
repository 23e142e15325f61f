-- name: BookingReservablesOfBookings :many
SELECT sqlc.embed(br), sqlc.embed(rv)
FROM booking_reservables br
JOIN reservables rv ON rv.organization_id = br.organization_id AND rv.id = br.reservable_id
WHERE br.organization_id = @organization_id AND br.booking_id = ANY (@booking_ids::uuid[])
ORDER BY br.booking_id, rv.name COLLATE natural_names, rv.id;

-- name: BookingReservablesDelete :exec
DELETE FROM booking_reservables WHERE organization_id = @organization_id AND booking_id = @booking_id;

-- name: BookingReservableInsert :exec
INSERT INTO booking_reservables (organization_id, booking_id, reservable_id, delivery_time_ms, quantity, comment)
VALUES (@organization_id, @booking_id, @reservable_id, @delivery_time_ms, @quantity, @comment);
