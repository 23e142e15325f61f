-- name: ResourceGetByPosterCode :one
-- Returns the resource with the poster code, ignoring case (the unique index is on lower(poster_code)).
SELECT sqlc.embed(r), sqlc.embed(f), sqlc.embed(b), sqlc.embed(s), sqlc.embed(rr)
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
WHERE r.organization_id = @organization_id AND lower(r.poster_code) = lower(@poster_code);

-- name: ResourceGet :batchone
-- Returns a resource with its floor, building, subcategory, rule and features (by name). It takes one id
-- per query, sent as a batch in one round trip: PostgreSQL then reuses one plan for every call, whereas an
-- array of ids made it plan each call again, which under load cost more than inserting a booking.
SELECT sqlc.embed(r), sqlc.embed(f), sqlc.embed(b), sqlc.embed(s), sqlc.embed(rr),
       COALESCE(fx.ids, '{}')::uuid[] AS feature_ids, COALESCE(fx.names, '{}')::text[] AS feature_names,
       COALESCE(fx.emails, '{}')::text[] AS feature_emails
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
CROSS JOIN LATERAL (
    SELECT array_agg(fe.id ORDER BY fe.name COLLATE natural_names, fe.id) AS ids, array_agg(fe.name ORDER BY fe.name COLLATE natural_names, fe.id) AS names,
           array_agg(fe.email ORDER BY fe.name COLLATE natural_names, fe.id) AS emails
    FROM resource_features rf
    JOIN features fe ON fe.organization_id = rf.organization_id AND fe.id = rf.feature_id
    WHERE rf.organization_id = r.organization_id AND rf.resource_id = r.id
) fx
WHERE r.organization_id = @organization_id AND r.id = @id;

-- name: ResourceUpsert :exec
INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code, image,
                       phone, top_left_x, top_left_y, bottom_right_x, bottom_right_y, approachable, visible,
                       status, capacity)
VALUES (@organization_id, @id, @floor_id, @subcategory_id, @resource_rule_id, @name, @poster_code, @image,
        @phone, @top_left_x, @top_left_y, @bottom_right_x, @bottom_right_y, @approachable, @visible,
        @status, @capacity)
ON CONFLICT (organization_id, id) DO UPDATE SET
    floor_id = EXCLUDED.floor_id, subcategory_id = EXCLUDED.subcategory_id,
    resource_rule_id = EXCLUDED.resource_rule_id, name = EXCLUDED.name, poster_code = EXCLUDED.poster_code,
    image = EXCLUDED.image, phone = EXCLUDED.phone, top_left_x = EXCLUDED.top_left_x,
    top_left_y = EXCLUDED.top_left_y, bottom_right_x = EXCLUDED.bottom_right_x,
    bottom_right_y = EXCLUDED.bottom_right_y, approachable = EXCLUDED.approachable, visible = EXCLUDED.visible,
    status = EXCLUDED.status, capacity = EXCLUDED.capacity;

-- name: ResourcesOfBuilding :many
-- Lists the bookable resources of a building, ordered by floor number and name, optionally narrowed by
-- floor, subcategory, category, features (all of them) and minimum capacity.
SELECT sqlc.embed(r), s.category
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
WHERE r.organization_id = @organization_id
  AND f.building_id = @building_id
  AND (sqlc.narg(floor_id)::uuid IS NULL OR r.floor_id = sqlc.narg(floor_id)::uuid)
  AND (sqlc.narg(subcategory_id)::uuid IS NULL OR r.subcategory_id = sqlc.narg(subcategory_id)::uuid)
  AND (sqlc.narg(category)::text IS NULL OR s.category = sqlc.narg(category)::text)
  AND r.visible AND r.status = 'ACTIVATED'
  AND f.visible AND f.status = 'ACTIVATED'
  AND b.visible AND b.status = 'ACTIVATED'
  AND (sqlc.narg(min_capacity)::integer IS NULL OR coalesce(r.capacity, 0) >= sqlc.narg(min_capacity)::integer)
  AND (SELECT count(*) FROM resource_features rf
       WHERE rf.organization_id = r.organization_id AND rf.resource_id = r.id
         AND rf.feature_id = ANY (@feature_ids::uuid[])) = cardinality(@feature_ids::uuid[])
ORDER BY f.floor_number, r.name COLLATE natural_names, r.id;

-- name: ResourcesBookableInBuilding :many
-- Lists the bookable resources of a building (the resource, its floor and the building all activated and
-- visible), ordered by floor number and name. Each comes with its category, its features, and whether its
-- rule allows all-day bookings.
SELECT sqlc.embed(r), s.category, rr.all_day_bookings,
       ARRAY(SELECT rf.feature_id FROM resource_features rf
             WHERE rf.organization_id = r.organization_id AND rf.resource_id = r.id)::uuid[] AS feature_ids
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
WHERE r.organization_id = @organization_id AND f.building_id = @building_id
  AND r.visible AND r.status = 'ACTIVATED'
  AND f.visible AND f.status = 'ACTIVATED'
  AND b.visible AND b.status = 'ACTIVATED'
ORDER BY f.floor_number, r.name COLLATE natural_names, r.id;

-- name: ResourcesOfOrganization :many
-- Lists every resource of the organization, bookable or not, with its floor, building, subcategory, rule
-- and features (by name).
SELECT sqlc.embed(r), sqlc.embed(f), sqlc.embed(b), sqlc.embed(s), sqlc.embed(rr),
       COALESCE(fx.ids, '{}')::uuid[] AS feature_ids, COALESCE(fx.names, '{}')::text[] AS feature_names,
       COALESCE(fx.emails, '{}')::text[] AS feature_emails
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
LEFT JOIN (
    SELECT rf.resource_id, array_agg(fe.id ORDER BY fe.name COLLATE natural_names, fe.id) AS ids,
           array_agg(fe.name ORDER BY fe.name COLLATE natural_names, fe.id) AS names, array_agg(fe.email ORDER BY fe.name COLLATE natural_names, fe.id) AS emails
    FROM resource_features rf
    JOIN features fe ON fe.organization_id = rf.organization_id AND fe.id = rf.feature_id
    WHERE rf.organization_id = @organization_id
    GROUP BY rf.resource_id
) fx ON fx.resource_id = r.id
WHERE r.organization_id = @organization_id;

-- name: ResourcesExport :many
-- Lists resources by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM resources
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: ResourceDelete :execrows
DELETE FROM resources WHERE organization_id = @organization_id AND id = @id;
