-- Utilisation reports and the retention of person-level booking rows.
--
-- The reports read daily roll-ups, never the bookings themselves: a day is rolled up once it has closed
-- in its building's time zone, so a report over a past period keeps its figures after the sweep has
-- anonymised that period's bookings. A roll-up holds hours and counts of distinct people, never who.

-- report_threshold: a cell of a report built from fewer distinct people is hidden; at least 5.
-- retention_months: person-level booking rows whose end is older than this are anonymised.
ALTER TABLE organizations
    ADD COLUMN report_threshold integer NOT NULL DEFAULT 5
        CONSTRAINT organizations_report_threshold_check CHECK (report_threshold BETWEEN 5 AND 1000),
    ADD COLUMN retention_months integer NOT NULL DEFAULT 13
        CONSTRAINT organizations_retention_months_check CHECK (retention_months BETWEEN 1 AND 120);

-- booked_end_date keeps a booking's end as it was booked when a check-out ends it early: the difference
-- is the time released. anonymised_at says when the sweep took the person out of the row.
ALTER TABLE bookings
    ADD COLUMN booked_end_date timestamptz,
    ADD COLUMN anonymised_at   timestamptz;
-- The sweep's search for bookings past the retention that still name someone.
CREATE INDEX bookings_retention_idx ON bookings (organization_id, end_date) WHERE anonymised_at IS NULL;
-- A day's bookings in every status, for the roll-up of that day: without it each building-day reads the
-- whole table (3 s a building-day on 1,000,000 bookings).
CREATE INDEX bookings_start_idx ON bookings (organization_id, start_date);

-- One row per resource and closed day: its bookable time (the rule's window, minus closures) and the
-- time booked, checked in, not shown up for (EXPIRED without check-in) and released, in ms, with the
-- number of bookings and of distinct organizers. floor, subcategory and neighbourhood are the
-- resource's on that day.
CREATE TABLE utilisation_days (
    organization_id  uuid    NOT NULL,
    building_id      uuid    NOT NULL,
    day              date    NOT NULL,
    resource_id      uuid    NOT NULL,
    floor_id         uuid    NOT NULL,
    subcategory_id   uuid    NOT NULL,
    neighbourhood_id uuid,
    bookable_ms      bigint  NOT NULL,
    booked_ms        bigint  NOT NULL,
    checked_in_ms    bigint  NOT NULL,
    no_show_ms       bigint  NOT NULL,
    released_ms      bigint  NOT NULL,
    bookings         integer NOT NULL,
    people           integer NOT NULL,
    CONSTRAINT utilisation_days_pkey PRIMARY KEY (organization_id, building_id, day, resource_id)
);

-- One row per building, closed day and hour of the local day (0–23): the same measures, summed over
-- the building's resources.
CREATE TABLE utilisation_hours (
    organization_id uuid     NOT NULL,
    building_id     uuid     NOT NULL,
    day             date     NOT NULL,
    hour            smallint NOT NULL,
    bookable_ms     bigint   NOT NULL,
    booked_ms       bigint   NOT NULL,
    checked_in_ms   bigint   NOT NULL,
    no_show_ms      bigint   NOT NULL,
    released_ms     bigint   NOT NULL,
    people          integer  NOT NULL,
    CONSTRAINT utilisation_hours_pkey PRIMARY KEY (organization_id, building_id, day, hour),
    CONSTRAINT utilisation_hours_hour_check CHECK (hour BETWEEN 0 AND 23)
);

-- The distinct organizers of a closed day in each cell a report groups by: the building itself, each
-- floor, subcategory and neighbourhood. Distinct counts cannot be added over days, so a report over a
-- period uses the largest daily count, a lower bound of the true one: it only ever hides more.
-- A row with dimension BUILDING exists for every day rolled up, with or without bookings.
CREATE TABLE utilisation_people (
    organization_id uuid    NOT NULL,
    building_id     uuid    NOT NULL,
    day             date    NOT NULL,
    dimension       text    NOT NULL,
    cell            uuid    NOT NULL,
    people          integer NOT NULL,
    CONSTRAINT utilisation_people_pkey PRIMARY KEY (organization_id, building_id, day, dimension, cell),
    CONSTRAINT utilisation_people_dimension_check
        CHECK (dimension IN ('BUILDING', 'FLOOR', 'SUBCATEGORY', 'NEIGHBOURHOOD'))
);

-- The services ordered with a closed day's bookings (booking_reservables), per service.
CREATE TABLE utilisation_services (
    organization_id uuid    NOT NULL,
    building_id     uuid    NOT NULL,
    day             date    NOT NULL,
    reservable_id   uuid    NOT NULL,
    quantity        bigint  NOT NULL,
    bookings        integer NOT NULL,
    people          integer NOT NULL,
    CONSTRAINT utilisation_services_pkey PRIMARY KEY (organization_id, building_id, day, reservable_id)
);

-- utilisation_ms is the length of a range in ms; 0 for an empty one.
CREATE FUNCTION utilisation_ms(r tstzrange) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((extract(epoch FROM upper(r) - lower(r)) * 1000)::bigint, 0)
$$;

-- utilisation_resources lists a building's resources with their floor, subcategory, neighbourhood (the
-- first, by id, whose rectangle on the same floor holds the resource's centre) and, for day d, their
-- bookable window: the rule's daily window when the resource, its floor and building are ACTIVATED,
-- empty otherwise.
CREATE FUNCTION utilisation_resources(org uuid, bld uuid, d date)
RETURNS TABLE (resource_id uuid, floor_id uuid, subcategory_id uuid, neighbourhood_id uuid, bookable tstzrange)
LANGUAGE sql STABLE AS $$
    SELECT r.id, r.floor_id, r.subcategory_id, n.id,
           CASE WHEN r.status = 'ACTIVATED' AND f.status = 'ACTIVATED' AND b.status = 'ACTIVATED'
                THEN tstzrange((d + rr.start_time * interval '1 millisecond') AT TIME ZONE b.timezone,
                               (d + rr.end_time * interval '1 millisecond') AT TIME ZONE b.timezone)
                ELSE 'empty'::tstzrange END
    FROM resources r
    JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
    JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
    JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
    LEFT JOIN LATERAL (
        SELECT n.id FROM neighbourhoods n
        WHERE n.organization_id = r.organization_id AND n.floor_id = r.floor_id
          AND (r.top_left_x + r.bottom_right_x) / 2.0 BETWEEN n.top_left_x AND n.bottom_right_x
          AND (r.top_left_y + r.bottom_right_y) / 2.0 BETWEEN n.top_left_y AND n.bottom_right_y
        ORDER BY n.id LIMIT 1) n ON true
    WHERE r.organization_id = org AND b.id = bld
$$;

-- utilisation_closed is the part of range w that closures of the resource, its floor or building cover.
-- Overlapping closures count once each, so the result may exceed w; callers keep at least 0.
CREATE FUNCTION utilisation_closed(org uuid, bld uuid, flr uuid, res uuid, w tstzrange) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(utilisation_ms(w * tstzrange(c.start_date, c.end_date))), 0)::bigint
    FROM closures c
    WHERE c.organization_id = org AND c.start_date < upper(w) AND c.end_date > lower(w)
      AND (c.building_id = bld OR c.floor_id = flr OR c.resource_id = res)
$$;

-- utilisation_spans lists the bookings that start on local day d in building bld, with the time each
-- was booked (as booked, before any release), checked in, not shown up for and released. A booking
-- counts once it held its resource: PENDING, ACTIVE, FINISHED, EXPIRED, or CANCELLED after a check-in
-- (released before its start). Requests never approved and cancellations before a check-in do not.
CREATE FUNCTION utilisation_spans(org uuid, bld uuid, d date)
RETURNS TABLE (booking_id uuid, resource_id uuid, floor_id uuid, subcategory_id uuid, neighbourhood_id uuid,
               organizer_id uuid, booked tstzrange, checked_in tstzrange, no_show tstzrange, released tstzrange)
LANGUAGE sql STABLE AS $$
    SELECT bk.id, r.resource_id, r.floor_id, r.subcategory_id, r.neighbourhood_id, bk.organizer_id,
           tstzrange(bk.start_date, coalesce(bk.booked_end_date, bk.end_date)),
           CASE WHEN bk.status IN ('ACTIVE', 'FINISHED') AND bk.checked_in_at IS NOT NULL
                THEN tstzrange(bk.start_date, bk.end_date) ELSE 'empty' END,
           CASE WHEN bk.status = 'EXPIRED' AND bk.checked_in_at IS NULL
                THEN tstzrange(bk.start_date, coalesce(bk.booked_end_date, bk.end_date)) ELSE 'empty' END,
           CASE WHEN bk.status = 'CANCELLED' THEN tstzrange(bk.start_date, coalesce(bk.booked_end_date, bk.end_date))
                WHEN bk.status = 'FINISHED' AND bk.booked_end_date IS NOT NULL
                THEN tstzrange(bk.end_date, bk.booked_end_date) ELSE 'empty' END
    FROM utilisation_resources(org, bld, d) r
    JOIN bookings bk ON bk.organization_id = org AND bk.resource_id = r.resource_id
    -- The day's bounds as values, so that the index on start_date serves.
    WHERE bk.start_date >= (SELECT d::timestamp AT TIME ZONE b.timezone FROM buildings b WHERE b.organization_id = org AND b.id = bld)
      AND bk.start_date < (SELECT (d + 1)::timestamp AT TIME ZONE b.timezone FROM buildings b WHERE b.organization_id = org AND b.id = bld)
      AND (bk.status IN ('PENDING', 'ACTIVE', 'FINISHED', 'EXPIRED')
           OR (bk.status = 'CANCELLED' AND bk.checked_in_at IS NOT NULL))
$$;

-- utilisation_roll_up writes (again) the roll-ups of building bld for local day d.
CREATE FUNCTION utilisation_roll_up(org uuid, bld uuid, d date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    tz text;
BEGIN
    SELECT timezone INTO tz FROM buildings WHERE organization_id = org AND id = bld;
    IF tz IS NULL THEN
        RETURN;
    END IF;
    DELETE FROM utilisation_days WHERE organization_id = org AND building_id = bld AND day = d;
    DELETE FROM utilisation_hours WHERE organization_id = org AND building_id = bld AND day = d;
    DELETE FROM utilisation_people WHERE organization_id = org AND building_id = bld AND day = d;
    DELETE FROM utilisation_services WHERE organization_id = org AND building_id = bld AND day = d;

    INSERT INTO utilisation_days
    SELECT org, bld, d, r.resource_id, r.floor_id, r.subcategory_id, r.neighbourhood_id,
           greatest(utilisation_ms(r.bookable) - utilisation_closed(org, bld, r.floor_id, r.resource_id, r.bookable), 0),
           coalesce(sum(utilisation_ms(s.booked)), 0), coalesce(sum(utilisation_ms(s.checked_in)), 0),
           coalesce(sum(utilisation_ms(s.no_show)), 0), coalesce(sum(utilisation_ms(s.released)), 0),
           count(s.booking_id), count(DISTINCT s.organizer_id)
    FROM utilisation_resources(org, bld, d) r
    LEFT JOIN (SELECT * FROM utilisation_spans(org, bld, d)) s ON s.resource_id = r.resource_id
    GROUP BY r.resource_id, r.floor_id, r.subcategory_id, r.neighbourhood_id, r.bookable;

    INSERT INTO utilisation_hours
    WITH r AS (SELECT * FROM utilisation_resources(org, bld, d)),
         s AS (SELECT * FROM utilisation_spans(org, bld, d)),
         h AS (SELECT g::smallint AS hour,
                      tstzrange((d + g * interval '1 hour') AT TIME ZONE tz, (d + (g + 1) * interval '1 hour') AT TIME ZONE tz) AS slot
               FROM generate_series(0, 23) g),
         hb AS (SELECT h.hour, sum(greatest(utilisation_ms(r.bookable * h.slot)
                       - utilisation_closed(org, bld, r.floor_id, r.resource_id, r.bookable * h.slot), 0)) AS bookable_ms
                FROM h JOIN r ON r.bookable && h.slot GROUP BY h.hour),
         hs AS (SELECT h.hour, sum(utilisation_ms(s.booked * h.slot)) AS booked_ms,
                       sum(utilisation_ms(s.checked_in * h.slot)) AS checked_in_ms,
                       sum(utilisation_ms(s.no_show * h.slot)) AS no_show_ms,
                       sum(utilisation_ms(s.released * h.slot)) AS released_ms, count(DISTINCT s.organizer_id) AS people
                FROM h JOIN s ON s.booked && h.slot GROUP BY h.hour)
    SELECT org, bld, d, h.hour, coalesce(hb.bookable_ms, 0), coalesce(hs.booked_ms, 0), coalesce(hs.checked_in_ms, 0),
           coalesce(hs.no_show_ms, 0), coalesce(hs.released_ms, 0), coalesce(hs.people, 0)
    FROM h LEFT JOIN hb ON hb.hour = h.hour LEFT JOIN hs ON hs.hour = h.hour;

    INSERT INTO utilisation_people
    WITH s AS (SELECT * FROM utilisation_spans(org, bld, d))
    SELECT org, bld, d, 'BUILDING', bld, count(DISTINCT s.organizer_id) FROM s
    UNION ALL
    SELECT org, bld, d, 'FLOOR', s.floor_id, count(DISTINCT s.organizer_id) FROM s GROUP BY s.floor_id
    UNION ALL
    SELECT org, bld, d, 'SUBCATEGORY', s.subcategory_id, count(DISTINCT s.organizer_id) FROM s GROUP BY s.subcategory_id
    UNION ALL
    SELECT org, bld, d, 'NEIGHBOURHOOD', s.neighbourhood_id, count(DISTINCT s.organizer_id) FROM s
    WHERE s.neighbourhood_id IS NOT NULL GROUP BY s.neighbourhood_id;

    INSERT INTO utilisation_services
    SELECT org, bld, d, br.reservable_id, sum(br.quantity), count(DISTINCT s.booking_id), count(DISTINCT s.organizer_id)
    FROM utilisation_spans(org, bld, d) s
    JOIN booking_reservables br ON br.organization_id = org AND br.booking_id = s.booking_id
    GROUP BY br.reservable_id;
END
$$;

-- report_stand_in returns the id of the organization's stand-in: the user an anonymised booking names as
-- organizer and creator. It names nobody, cannot sign in and is never searched; it is made on first use.
CREATE FUNCTION report_stand_in(org uuid) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    stand_in uuid := md5('stand-in:' || org::text)::uuid;
BEGIN
    INSERT INTO users (organization_id, id, name, email, can_be_searched, active, deactivated_at, binds_by_email)
    VALUES (org, stand_in, '', 'stand-in@anonymised.invalid', false, false, now(), false)
    ON CONFLICT DO NOTHING;
    RETURN stand_in;
END
$$;
