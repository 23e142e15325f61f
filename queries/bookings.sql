-- name: BookingInsert :exec
INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, user_access_token)
VALUES (@organization_id, @id, @resource_id, @creator_id, @organizer_id, @start_date, @end_date, @status,
        @access_control_type, @subject, @body_content, @body_type, @importance, @resource_type,
        @building_access_status, @create_online_meeting, @sip_address, @user_access_token);

-- name: BookingUpsert :execrows
-- Loads a booking from a layout document; its resource type follows from the resource, and nothing is
-- written when the resource does not exist.
INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address)
SELECT @organization_id, @id, r.id, @creator_id, @organizer_id, @start_date, @end_date, @status,
       rr.access_control_type, @subject, @body_content, @body_type, @importance, s.category,
       @building_access_status, @create_online_meeting, @sip_address
FROM resources r
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
WHERE r.organization_id = @organization_id AND r.id = @resource_id
ON CONFLICT (organization_id, id) DO UPDATE SET
    resource_id = EXCLUDED.resource_id, creator_id = EXCLUDED.creator_id, organizer_id = EXCLUDED.organizer_id,
    start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, status = EXCLUDED.status,
    access_control_type = EXCLUDED.access_control_type, subject = EXCLUDED.subject,
    body_content = EXCLUDED.body_content, body_type = EXCLUDED.body_type, importance = EXCLUDED.importance,
    resource_type = EXCLUDED.resource_type, building_access_status = EXCLUDED.building_access_status,
    create_online_meeting = EXCLUDED.create_online_meeting, sip_address = EXCLUDED.sip_address,
    updated_at = now();

-- name: BookingGet :one
SELECT * FROM bookings WHERE organization_id = @organization_id AND id = @id;

-- name: BookingGetForUpdate :one
SELECT * FROM bookings WHERE organization_id = @organization_id AND id = @id FOR NO KEY UPDATE;

-- name: BookingsBlockingAfter :many
-- Blocking bookings of a resource that end after a moment, earliest first: the one covering the moment
-- (if any) comes first.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND resource_id = @resource_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND tstzrange(start_date, end_date, '[)') && tstzrange(@after::timestamptz, @until::timestamptz, '[)')
ORDER BY start_date
LIMIT 2;

-- name: BookingCount :one
SELECT count(*) FROM bookings WHERE organization_id = @organization_id;
