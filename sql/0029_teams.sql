-- Teams, neighbourhoods, favourites and who may see a person's bookings: what the week view and
-- "Who's in" are built on.

-- A team is a group of people who plan their office days together. An admin makes it by hand, or ties it
-- to a group of the identity provider: a value of the groups claim read at each sign-in (idp_group), or a
-- SCIM group (scim_group_id). A tied team's members follow that group; a team made by hand has the
-- members an admin gives it. team_members holds the members of every team.
CREATE TABLE teams (
    organization_id uuid        NOT NULL,
    id              uuid        NOT NULL,
    name            text        NOT NULL,
    idp_group       text,
    scim_group_id   uuid,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT teams_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT teams_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT teams_scim_group_fkey FOREIGN KEY (organization_id, scim_group_id)
        REFERENCES scim_groups (organization_id, id) ON DELETE SET NULL (scim_group_id),
    CONSTRAINT teams_name_check CHECK (char_length(name) BETWEEN 1 AND 100),
    CONSTRAINT teams_idp_group_check CHECK (idp_group IS NULL OR char_length(idp_group) BETWEEN 1 AND 256),
    CONSTRAINT teams_one_source_check CHECK (idp_group IS NULL OR scim_group_id IS NULL)
);
CREATE UNIQUE INDEX teams_name_key ON teams (organization_id, lower(name));
CREATE UNIQUE INDEX teams_idp_group_key ON teams (organization_id, idp_group) WHERE idp_group IS NOT NULL;
CREATE UNIQUE INDEX teams_scim_group_key ON teams (organization_id, scim_group_id) WHERE scim_group_id IS NOT NULL;
CREATE TRIGGER teams_touch_updated_at BEFORE UPDATE ON teams
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION touch_updated_at();

CREATE TABLE team_members (
    organization_id uuid NOT NULL,
    team_id         uuid NOT NULL,
    user_id         uuid NOT NULL,
    CONSTRAINT team_members_pkey PRIMARY KEY (organization_id, team_id, user_id),
    CONSTRAINT team_members_team_fkey FOREIGN KEY (organization_id, team_id)
        REFERENCES teams (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT team_members_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX team_members_user_idx ON team_members (organization_id, user_id);

-- A neighbourhood is a zone of a floor given to a team, a rectangle in the floor plan's coordinates (as a
-- resource's). A resource whose centre lies in it belongs to it. With team_only, only the team's members
-- may book its resources.
CREATE TABLE neighbourhoods (
    organization_id uuid        NOT NULL,
    id              uuid        NOT NULL,
    floor_id        uuid        NOT NULL,
    team_id         uuid        NOT NULL,
    name            text        NOT NULL,
    top_left_x      integer     NOT NULL,
    top_left_y      integer     NOT NULL,
    bottom_right_x  integer     NOT NULL,
    bottom_right_y  integer     NOT NULL,
    team_only       boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT neighbourhoods_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT neighbourhoods_floor_fkey FOREIGN KEY (organization_id, floor_id)
        REFERENCES floors (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT neighbourhoods_team_fkey FOREIGN KEY (organization_id, team_id)
        REFERENCES teams (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT neighbourhoods_name_check CHECK (char_length(name) BETWEEN 1 AND 100),
    CONSTRAINT neighbourhoods_rectangle_check
        CHECK (top_left_x >= 0 AND top_left_y >= 0 AND bottom_right_x > top_left_x AND bottom_right_y > top_left_y)
);
CREATE INDEX neighbourhoods_floor_idx ON neighbourhoods (organization_id, floor_id);
CREATE INDEX neighbourhoods_team_idx ON neighbourhoods (organization_id, team_id);
CREATE TRIGGER neighbourhoods_touch_updated_at BEFORE UPDATE ON neighbourhoods
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION touch_updated_at();

-- Each person's starred resources and colleagues.
CREATE TABLE favourite_resources (
    organization_id uuid        NOT NULL,
    user_id         uuid        NOT NULL,
    resource_id     uuid        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT favourite_resources_pkey PRIMARY KEY (organization_id, user_id, resource_id),
    CONSTRAINT favourite_resources_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT favourite_resources_resource_fkey FOREIGN KEY (organization_id, resource_id)
        REFERENCES resources (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE favourite_people (
    organization_id uuid        NOT NULL,
    user_id         uuid        NOT NULL,
    person_id       uuid        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT favourite_people_pkey PRIMARY KEY (organization_id, user_id, person_id),
    CONSTRAINT favourite_people_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT favourite_people_person_fkey FOREIGN KEY (organization_id, person_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT favourite_people_self_check CHECK (user_id <> person_id)
);
-- "Who starred me": a person's bookings are shown to the colleagues they starred.
CREATE INDEX favourite_people_person_idx ON favourite_people (organization_id, person_id);

-- Who may see a person's bookings in the week view and "Who's in": NOBODY, TEAM (their teams' members
-- and the colleagues they starred) or ORGANIZATION. A person without a choice of their own
-- (bookings_visible_to NULL) has the organization's default.
ALTER TABLE organizations ADD COLUMN bookings_visible_to text NOT NULL DEFAULT 'TEAM'
    CHECK (bookings_visible_to IN ('NOBODY', 'TEAM', 'ORGANIZATION'));
ALTER TABLE users ADD COLUMN bookings_visible_to text
    CHECK (bookings_visible_to IN ('NOBODY', 'TEAM', 'ORGANIZATION'));
