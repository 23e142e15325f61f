-- name: NeighbourhoodsOfFloor :many
-- Lists a floor's neighbourhoods by name, each with its team's name.
SELECT n.*, t.name AS team_name
FROM neighbourhoods n JOIN teams t ON t.organization_id = n.organization_id AND t.id = n.team_id
WHERE n.organization_id = @organization_id AND n.floor_id = @floor_id
ORDER BY lower(n.name), n.id;

-- name: NeighbourhoodCount :one
SELECT count(*) FROM neighbourhoods WHERE organization_id = @organization_id AND floor_id = @floor_id;

-- name: NeighbourhoodGetForUpdate :one
SELECT * FROM neighbourhoods WHERE organization_id = @organization_id AND id = @id FOR UPDATE;

-- name: NeighbourhoodCreate :exec
INSERT INTO neighbourhoods (organization_id, id, floor_id, team_id, name, top_left_x, top_left_y, bottom_right_x, bottom_right_y, team_only)
VALUES (@organization_id, @id, @floor_id, @team_id, @name, @top_left_x, @top_left_y, @bottom_right_x, @bottom_right_y, @team_only);

-- name: NeighbourhoodUpdate :exec
UPDATE neighbourhoods SET team_id = @team_id, name = @name, top_left_x = @top_left_x, top_left_y = @top_left_y,
    bottom_right_x = @bottom_right_x, bottom_right_y = @bottom_right_y, team_only = @team_only
WHERE organization_id = @organization_id AND id = @id;

-- name: NeighbourhoodDelete :exec
DELETE FROM neighbourhoods WHERE organization_id = @organization_id AND id = @id;

-- name: NeighbourhoodTeamOnlyResources :many
-- Lists the organization's resources whose centre lies in a neighbourhood for its team only.
SELECT DISTINCT r.id
FROM resources r JOIN neighbourhoods n ON n.organization_id = r.organization_id AND n.floor_id = r.floor_id AND n.team_only
WHERE r.organization_id = @organization_id
  AND r.top_left_x + r.bottom_right_x BETWEEN 2 * n.top_left_x AND 2 * n.bottom_right_x
  AND r.top_left_y + r.bottom_right_y BETWEEN 2 * n.top_left_y AND 2 * n.bottom_right_y;

-- name: NeighbourhoodsBarring :many
-- Lists the neighbourhoods for their team only that hold the resource's centre, with their teams' names,
-- when the person is a member of none of their teams: who may not organize a booking of the resource.
WITH zones AS (
    SELECT n.name, n.team_id, t.name AS team_name
    FROM resources r
    JOIN neighbourhoods n ON n.organization_id = r.organization_id AND n.floor_id = r.floor_id AND n.team_only
    JOIN teams t ON t.organization_id = n.organization_id AND t.id = n.team_id
    WHERE r.organization_id = @organization_id AND r.id = @resource_id
      AND r.top_left_x + r.bottom_right_x BETWEEN 2 * n.top_left_x AND 2 * n.bottom_right_x
      AND r.top_left_y + r.bottom_right_y BETWEEN 2 * n.top_left_y AND 2 * n.bottom_right_y
)
SELECT z.name, z.team_name FROM zones z
WHERE NOT EXISTS (
    SELECT 1 FROM zones y JOIN team_members m ON m.organization_id = @organization_id AND m.team_id = y.team_id AND m.user_id = @user_id
)
ORDER BY z.name;

-- name: NeighbourhoodsOfTeamsOf :many
-- Lists the ids of the teams a person is a member of.
SELECT team_id FROM team_members WHERE organization_id = @organization_id AND user_id = @user_id;

-- name: NeighbourhoodTeamExists :one
SELECT EXISTS (SELECT 1 FROM teams WHERE organization_id = @organization_id AND id = @id);
