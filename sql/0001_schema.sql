-- The whole data model. Every tenant table has an organization_id column, and its primary key starts
-- with it. organization_id is the isolation boundary: composite foreign keys make a reference across
-- organizations impossible. It would also be the distribution column if the database were ever sharded
-- by organization.

CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE organizations (
    id                         uuid        NOT NULL,
    name                       text        NOT NULL,
    additional_services_active boolean     NOT NULL DEFAULT false,
    created_at                 timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT organizations_pkey PRIMARY KEY (id)
);

CREATE TABLE user_rules (
    organization_id uuid NOT NULL,
    id              uuid NOT NULL,
    name            text NOT NULL,
    CONSTRAINT user_rules_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT user_rules_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)
);

CREATE TABLE mobile_roles (
    organization_id uuid NOT NULL,
    id              uuid NOT NULL,
    name            text NOT NULL,
    CONSTRAINT mobile_roles_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT mobile_roles_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)
);

CREATE TABLE users (
    organization_id uuid    NOT NULL,
    id              uuid    NOT NULL,
    name            text    NOT NULL,
    surname         text    NOT NULL DEFAULT '',
    alias           text    NOT NULL DEFAULT '',
    email           text    NOT NULL,
    image           text    NOT NULL DEFAULT '',
    user_rule_id    uuid,
    mobile_role_id  uuid,
    can_be_searched boolean NOT NULL DEFAULT true,
    type            text    NOT NULL DEFAULT 'SERVICE_INTERNAL',
    user_language   text    NOT NULL DEFAULT 'en',
    role            text    NOT NULL DEFAULT 'EMPLOYEE',
    oidc_subject    text,
    CONSTRAINT users_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT users_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT users_user_rule_fkey FOREIGN KEY (organization_id, user_rule_id) REFERENCES user_rules (organization_id, id),
    CONSTRAINT users_mobile_role_fkey FOREIGN KEY (organization_id, mobile_role_id) REFERENCES mobile_roles (organization_id, id),
    CONSTRAINT users_email_key UNIQUE (organization_id, email),
    CONSTRAINT users_role_check CHECK (role IN ('EMPLOYEE', 'RECEPTIONIST', 'ADMIN'))
);
-- Bearer tokens name a user by id (the service's own tokens) or by the identity provider's subject.
CREATE INDEX users_id_idx ON users (id);
CREATE INDEX users_oidc_subject_idx ON users (oidc_subject) WHERE oidc_subject IS NOT NULL;
CREATE INDEX users_email_idx ON users (lower(email));

CREATE TABLE buildings (
    organization_id uuid    NOT NULL,
    id              uuid    NOT NULL,
    name            text    NOT NULL,
    country         text    NOT NULL DEFAULT '',
    city            text    NOT NULL DEFAULT '',
    address         text    NOT NULL DEFAULT '',
    latitude        double precision,
    longitude       double precision,
    timezone        text    NOT NULL,
    status          text    NOT NULL DEFAULT 'ACTIVATED',
    visible         boolean NOT NULL DEFAULT true,
    CONSTRAINT buildings_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT buildings_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT buildings_coordinates_check CHECK ((latitude IS NULL) = (longitude IS NULL))
);

CREATE TABLE floors (
    organization_id uuid    NOT NULL,
    id              uuid    NOT NULL,
    building_id     uuid    NOT NULL,
    name            text    NOT NULL,
    floor_number    integer NOT NULL DEFAULT 0,
    image           text    NOT NULL DEFAULT '',
    status          text    NOT NULL DEFAULT 'ACTIVATED',
    type            text    NOT NULL DEFAULT 'OFFICE',
    visible         boolean NOT NULL DEFAULT true,
    CONSTRAINT floors_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT floors_building_fkey FOREIGN KEY (organization_id, building_id) REFERENCES buildings (organization_id, id)
);

CREATE TABLE subcategories (
    organization_id  uuid    NOT NULL,
    id               uuid    NOT NULL,
    name             text    NOT NULL,
    category         text    NOT NULL,
    delete_historial boolean NOT NULL DEFAULT false,
    hide_bookings    boolean NOT NULL DEFAULT false,
    can_be_searched  boolean NOT NULL DEFAULT true,
    shifts           boolean NOT NULL DEFAULT false,
    CONSTRAINT subcategories_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT subcategories_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT subcategories_category_check CHECK (category IN ('WORKSTATION', 'SPACE'))
);

-- All durations and offsets are in milliseconds. start_time and end_time are offsets from local midnight.
CREATE TABLE resource_rules (
    organization_id               uuid    NOT NULL,
    id                            uuid    NOT NULL,
    name                          text    NOT NULL DEFAULT '',
    advance_check_in              bigint  NOT NULL DEFAULT 0,
    expiration_margin             bigint  NOT NULL DEFAULT 0,
    start_time                    bigint  NOT NULL DEFAULT 0,
    end_time                      bigint  NOT NULL DEFAULT 86400000,
    maximum_duration              bigint  NOT NULL DEFAULT 0,
    maximum_advance               bigint  NOT NULL DEFAULT 0,
    access_control_type           text    NOT NULL DEFAULT 'ANY',
    requires_approval             boolean NOT NULL DEFAULT false,
    all_day_bookings              boolean NOT NULL DEFAULT false,
    all_day_bookings_check_in_ms  bigint  NOT NULL DEFAULT 0,
    CONSTRAINT resource_rules_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT resource_rules_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT resource_rules_window_check CHECK (0 <= start_time AND start_time < end_time AND end_time <= 86400000),
    CONSTRAINT resource_rules_durations_check CHECK (
        advance_check_in >= 0 AND expiration_margin >= 0 AND maximum_duration >= 0 AND maximum_advance >= 0
        AND all_day_bookings_check_in_ms BETWEEN 0 AND 86400000)
);

CREATE TABLE features (
    organization_id uuid NOT NULL,
    id              uuid NOT NULL,
    name            text NOT NULL,
    email           text NOT NULL DEFAULT '',
    CONSTRAINT features_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT features_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)
);

CREATE TABLE resources (
    organization_id  uuid    NOT NULL,
    id               uuid    NOT NULL,
    floor_id         uuid    NOT NULL,
    subcategory_id   uuid    NOT NULL,
    resource_rule_id uuid    NOT NULL,
    name             text    NOT NULL,
    poster_code      text    NOT NULL,
    image            text    NOT NULL DEFAULT '',
    phone            text    NOT NULL DEFAULT '',
    top_left_x       integer NOT NULL DEFAULT 0,
    top_left_y       integer NOT NULL DEFAULT 0,
    bottom_right_x   integer NOT NULL DEFAULT 0,
    bottom_right_y   integer NOT NULL DEFAULT 0,
    approachable     boolean NOT NULL DEFAULT true,
    visible          boolean NOT NULL DEFAULT true,
    status           text    NOT NULL DEFAULT 'ACTIVATED',
    capacity         integer,
    CONSTRAINT resources_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT resources_floor_fkey FOREIGN KEY (organization_id, floor_id) REFERENCES floors (organization_id, id),
    CONSTRAINT resources_subcategory_fkey FOREIGN KEY (organization_id, subcategory_id) REFERENCES subcategories (organization_id, id),
    CONSTRAINT resources_resource_rule_fkey FOREIGN KEY (organization_id, resource_rule_id) REFERENCES resource_rules (organization_id, id),
    CONSTRAINT resources_poster_code_key UNIQUE (organization_id, poster_code),
    CONSTRAINT resources_capacity_check CHECK (capacity IS NULL OR capacity >= 0)
);
CREATE INDEX resources_floor_idx ON resources (organization_id, floor_id);
CREATE INDEX resources_subcategory_idx ON resources (organization_id, subcategory_id);

CREATE TABLE resource_features (
    organization_id uuid NOT NULL,
    resource_id     uuid NOT NULL,
    feature_id      uuid NOT NULL,
    CONSTRAINT resource_features_pkey PRIMARY KEY (organization_id, resource_id, feature_id),
    CONSTRAINT resource_features_resource_fkey FOREIGN KEY (organization_id, resource_id) REFERENCES resources (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT resource_features_feature_fkey FOREIGN KEY (organization_id, feature_id) REFERENCES features (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE reservables (
    organization_id           uuid    NOT NULL,
    id                        uuid    NOT NULL,
    name                      text    NOT NULL,
    type                      text    NOT NULL DEFAULT 'SERVICE',
    description               text    NOT NULL DEFAULT '',
    choose_quantity           boolean NOT NULL DEFAULT false,
    choose_delivery_time      boolean NOT NULL DEFAULT false,
    allow_comments            boolean NOT NULL DEFAULT false,
    minimum_cancellation_ms   bigint  NOT NULL DEFAULT 0,
    standard_delivery_time_ms bigint  NOT NULL DEFAULT 0,
    CONSTRAINT reservables_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT reservables_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT reservables_times_check CHECK (minimum_cancellation_ms >= 0 AND standard_delivery_time_ms >= 0)
);

CREATE TABLE resource_reservables (
    organization_id uuid NOT NULL,
    resource_id     uuid NOT NULL,
    reservable_id   uuid NOT NULL,
    CONSTRAINT resource_reservables_pkey PRIMARY KEY (organization_id, resource_id, reservable_id),
    CONSTRAINT resource_reservables_resource_fkey FOREIGN KEY (organization_id, resource_id) REFERENCES resources (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT resource_reservables_reservable_fkey FOREIGN KEY (organization_id, reservable_id) REFERENCES reservables (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE bookings (
    organization_id        uuid        NOT NULL,
    id                     uuid        NOT NULL,
    resource_id            uuid        NOT NULL,
    creator_id             uuid        NOT NULL,
    organizer_id           uuid        NOT NULL,
    start_date             timestamptz NOT NULL,
    end_date               timestamptz NOT NULL,
    status                 text        NOT NULL,
    access_control_type    text        NOT NULL DEFAULT 'ANY',
    subject                text        NOT NULL DEFAULT '',
    body_content           text        NOT NULL DEFAULT '',
    body_type              text        NOT NULL DEFAULT 'TEXT',
    importance             text        NOT NULL DEFAULT 'LOW',
    resource_type          text        NOT NULL,
    building_access_status text        NOT NULL DEFAULT 'PENDING',
    create_online_meeting  boolean     NOT NULL DEFAULT false,
    sip_address            text        NOT NULL DEFAULT '',
    user_access_token      text        NOT NULL DEFAULT '',
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bookings_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT bookings_resource_fkey FOREIGN KEY (organization_id, resource_id) REFERENCES resources (organization_id, id),
    CONSTRAINT bookings_creator_fkey FOREIGN KEY (organization_id, creator_id) REFERENCES users (organization_id, id),
    CONSTRAINT bookings_organizer_fkey FOREIGN KEY (organization_id, organizer_id) REFERENCES users (organization_id, id),
    CONSTRAINT bookings_dates_check CHECK (end_date > start_date),
    CONSTRAINT bookings_status_check CHECK (status IN
        ('WAITING_APPROVAL', 'PENDING', 'ACTIVE', 'FINISHED', 'EXPIRED', 'CANCELLED', 'REJECTED')),
    CONSTRAINT bookings_building_access_status_check CHECK (building_access_status IN ('PENDING', 'GRANTED', 'DENIED')),
    -- Double booking is impossible by construction: two blocking bookings of one resource never overlap.
    -- Intervals are half-open, so 10:00-11:00 and 11:00-12:00 both fit.
    CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        organization_id WITH =,
        resource_id WITH =,
        tstzrange(start_date, end_date, '[)') WITH &&
    ) WHERE (status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE'))
);
CREATE INDEX bookings_organizer_idx ON bookings (organization_id, organizer_id, start_date);

CREATE TABLE booking_attendees (
    organization_id uuid NOT NULL,
    booking_id      uuid NOT NULL,
    position        integer NOT NULL,
    type            text NOT NULL,
    user_id         uuid,
    email           text,
    CONSTRAINT booking_attendees_pkey PRIMARY KEY (organization_id, booking_id, position),
    CONSTRAINT booking_attendees_booking_fkey FOREIGN KEY (organization_id, booking_id) REFERENCES bookings (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT booking_attendees_user_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id),
    CONSTRAINT booking_attendees_type_check CHECK (type IN ('REQUIRED', 'OPTIONAL')),
    CONSTRAINT booking_attendees_who_check CHECK ((user_id IS NULL) <> (email IS NULL))
);
CREATE INDEX booking_attendees_user_idx ON booking_attendees (organization_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE booking_reservables (
    organization_id  uuid    NOT NULL,
    booking_id       uuid    NOT NULL,
    reservable_id    uuid    NOT NULL,
    delivery_time_ms bigint  NOT NULL,
    quantity         integer NOT NULL,
    comment          text    NOT NULL DEFAULT '',
    CONSTRAINT booking_reservables_pkey PRIMARY KEY (organization_id, booking_id, reservable_id),
    CONSTRAINT booking_reservables_booking_fkey FOREIGN KEY (organization_id, booking_id) REFERENCES bookings (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT booking_reservables_reservable_fkey FOREIGN KEY (organization_id, reservable_id) REFERENCES reservables (organization_id, id),
    CONSTRAINT booking_reservables_quantity_check CHECK (quantity >= 1),
    CONSTRAINT booking_reservables_delivery_check CHECK (delivery_time_ms >= 0)
);

-- Browser sessions, in the shape github.com/alexedwards/scs/pgxstore expects.
CREATE TABLE sessions (
    token  text        NOT NULL,
    data   bytea       NOT NULL,
    expiry timestamptz NOT NULL,
    CONSTRAINT sessions_pkey PRIMARY KEY (token)
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- ES256 keys the service signs its own bearer tokens with. The newest one signs; all verify.
CREATE TABLE signing_keys (
    id          uuid        NOT NULL,
    private_key bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT signing_keys_pkey PRIMARY KEY (id)
);
