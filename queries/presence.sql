-- name: PresenceBetween :many
-- Lists who is in the office between two instants: the bookings that are or were kept (waiting for
-- approval, pending, active or finished) overlapping [from_date, to_date), in one building or in all, of
-- organizers who let the viewer see them. A person always sees their own. Others choose who sees theirs
-- (users.bookings_visible_to, else the organization's default): ORGANIZATION everyone in it; TEAM the
-- members of their teams and the colleagues they starred; NOBODY nobody. Bookings of a subcategory that
-- hides its bookings, and of deactivated people, are never listed. team says whether the organizer shares a
-- team with the viewer, favourite whether the viewer starred the organizer.
SELECT b.id, b.organizer_id, b.start_date, b.end_date, b.status, b.resource_type,
       u.name AS person_name, u.surname AS person_surname,
       r.id AS resource_id, r.name AS resource_name,
       r.top_left_x, r.top_left_y, r.bottom_right_x, r.bottom_right_y,
       f.id AS floor_id, f.name AS floor_name, f.floor_number,
       bl.id AS building_id, bl.name AS building_name, bl.timezone,
       EXISTS (SELECT 1 FROM team_members mine
               JOIN team_members theirs ON theirs.organization_id = mine.organization_id
                                       AND theirs.team_id = mine.team_id
               WHERE mine.organization_id = @organization_id AND mine.user_id = @viewer_id
                 AND theirs.user_id = b.organizer_id)::boolean AS team,
       EXISTS (SELECT 1 FROM favourite_people fp
               WHERE fp.organization_id = @organization_id AND fp.user_id = @viewer_id
                 AND fp.person_id = b.organizer_id)::boolean AS favourite
FROM bookings b
JOIN users u ON u.organization_id = b.organization_id AND u.id = b.organizer_id
JOIN resources r ON r.organization_id = b.organization_id AND r.id = b.resource_id
JOIN subcategories sc ON sc.organization_id = r.organization_id AND sc.id = r.subcategory_id
JOIN floors f ON f.organization_id = b.organization_id AND f.id = b.floor_id
JOIN buildings bl ON bl.organization_id = f.organization_id AND bl.id = f.building_id
JOIN organizations o ON o.id = b.organization_id
WHERE b.organization_id = @organization_id
  AND (sqlc.narg(building_id)::uuid IS NULL OR f.building_id = sqlc.narg(building_id)::uuid)
  AND b.start_date < @to_date AND b.end_date > @from_date
  AND b.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE', 'FINISHED')
  AND NOT sc.hide_bookings
  AND u.active
  AND (b.organizer_id = @viewer_id
       OR CASE coalesce(u.bookings_visible_to, o.bookings_visible_to)
              WHEN 'ORGANIZATION' THEN true
              WHEN 'TEAM' THEN
                  EXISTS (SELECT 1 FROM team_members theirs
                          JOIN team_members mine ON mine.organization_id = theirs.organization_id
                                                AND mine.team_id = theirs.team_id
                          WHERE theirs.organization_id = @organization_id AND theirs.user_id = b.organizer_id
                            AND mine.user_id = @viewer_id)
                  OR EXISTS (SELECT 1 FROM favourite_people fp
                             WHERE fp.organization_id = @organization_id AND fp.user_id = b.organizer_id
                               AND fp.person_id = @viewer_id)
              ELSE false
          END)
ORDER BY b.start_date, bl.name, f.floor_number, u.name, u.surname, b.id
LIMIT @max_rows;

-- name: FavouriteResources :many
SELECT resource_id FROM favourite_resources
WHERE organization_id = @organization_id AND user_id = @user_id
ORDER BY created_at, resource_id;

-- name: FavouritePeople :many
SELECT person_id FROM favourite_people
WHERE organization_id = @organization_id AND user_id = @user_id
ORDER BY created_at, person_id;

-- name: FavouriteResourceAdd :execrows
-- Stars a resource for a user, when they have fewer than max_count starred. It counts 0 rows when the
-- resource was starred already or the user has max_count.
INSERT INTO favourite_resources (organization_id, user_id, resource_id)
SELECT @organization_id, @user_id, @resource_id
WHERE (SELECT count(*) FROM favourite_resources
       WHERE organization_id = @organization_id AND user_id = @user_id) < @max_count::int
ON CONFLICT DO NOTHING;

-- name: FavouriteResourceRemove :execrows
DELETE FROM favourite_resources
WHERE organization_id = @organization_id AND user_id = @user_id AND resource_id = @resource_id;

-- name: FavouritePersonAdd :execrows
-- Stars a colleague for a user, as FavouriteResourceAdd does.
INSERT INTO favourite_people (organization_id, user_id, person_id)
SELECT @organization_id, @user_id, @person_id
WHERE (SELECT count(*) FROM favourite_people
       WHERE organization_id = @organization_id AND user_id = @user_id) < @max_count::int
ON CONFLICT DO NOTHING;

-- name: FavouritePersonRemove :execrows
DELETE FROM favourite_people
WHERE organization_id = @organization_id AND user_id = @user_id AND person_id = @person_id;

-- name: UserSetBookingsVisibleTo :execrows
-- Sets who may see a user's bookings; NULL gives them the organization's default.
UPDATE users SET bookings_visible_to = sqlc.narg(visible_to)
WHERE organization_id = @organization_id AND id = @user_id;

-- name: UserBookingsVisibleTo :one
-- Returns a user's own choice of who may see their bookings (NULL when they have none) and the
-- organization's default.
SELECT u.bookings_visible_to AS own, o.bookings_visible_to AS organization_default
FROM users u JOIN organizations o ON o.id = u.organization_id
WHERE u.organization_id = @organization_id AND u.id = @user_id;

-- name: OrganizationSetBookingsVisibleTo :execrows
UPDATE organizations SET bookings_visible_to = @visible_to WHERE id = @organization_id;

-- name: UsualDesk :many
-- Returns the desk a user booked most often since a moment (ties: the most recent), among desks that
-- are still active and visible.
SELECT b.resource_id
FROM bookings b
JOIN resources r ON r.organization_id = b.organization_id AND r.id = b.resource_id
WHERE b.organization_id = @organization_id AND b.organizer_id = @user_id
  AND b.start_date >= @since AND b.resource_type = 'WORKSTATION'
  AND b.status NOT IN ('CANCELLED', 'REJECTED')
  AND r.status = 'ACTIVATED' AND r.visible
GROUP BY b.resource_id
ORDER BY count(*) DESC, max(b.start_date) DESC, b.resource_id
LIMIT 1;
