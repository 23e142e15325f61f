-- Recurring bookings. A series is a rule (weekdays, every N weeks, from a first date until a last date,
-- a start and end time of day in its building's time zone) that made one ordinary booking per day it
-- names: each occurrence is a row of bookings with series_id set, under the same constraints as any
-- other booking. The series keeps what a calendar's RRULE needs; booking_series_days keeps the days the
-- rule names that have no booking (refused when made, or skipped afterwards): a calendar's EXDATEs.
CREATE TABLE booking_series (
    organization_id uuid        NOT NULL,
    id              uuid        NOT NULL,
    organizer_id    uuid        NOT NULL,
    creator_id      uuid        NOT NULL,
    resource_id     uuid        NOT NULL,
    -- The days of the week, one bit each: 1 << 0 is Sunday ... 1 << 6 is Saturday (Go's time.Weekday).
    weekdays        smallint    NOT NULL,
    every_weeks     smallint    NOT NULL,
    first_date      date        NOT NULL,
    until_date      date        NOT NULL,
    -- Times of day in minutes after local midnight in timezone; 1440 is the midnight that ends the day.
    start_minute    smallint    NOT NULL,
    end_minute      smallint    NOT NULL,
    -- The IANA zone of the resource's building when the series was made: the TZID of its RRULE.
    timezone        text        NOT NULL,
    subject         text        NOT NULL DEFAULT '',
    mode            text        NOT NULL,
    status          text        NOT NULL DEFAULT 'ACTIVE',
    -- Grows by one with every change of the series: its calendar invitation's SEQUENCE.
    revision        integer     NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT booking_series_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT booking_series_organizer_fkey FOREIGN KEY (organization_id, organizer_id)
        REFERENCES users (organization_id, id),
    CONSTRAINT booking_series_creator_fkey FOREIGN KEY (organization_id, creator_id)
        REFERENCES users (organization_id, id),
    CONSTRAINT booking_series_resource_fkey FOREIGN KEY (organization_id, resource_id)
        REFERENCES resources (organization_id, id),
    CONSTRAINT booking_series_weekdays_check CHECK (weekdays BETWEEN 1 AND 127),
    CONSTRAINT booking_series_every_weeks_check CHECK (every_weeks BETWEEN 1 AND 4),
    CONSTRAINT booking_series_dates_check
        CHECK (until_date >= first_date AND until_date <= first_date + interval '6 months'),
    CONSTRAINT booking_series_times_check CHECK (0 <= start_minute AND start_minute < end_minute AND end_minute <= 1440),
    CONSTRAINT booking_series_subject_check CHECK (char_length(subject) <= 255),
    CONSTRAINT booking_series_mode_check CHECK (mode IN ('ALL', 'FREE')),
    CONSTRAINT booking_series_status_check CHECK (status IN ('ACTIVE', 'CANCELLED'))
);
CREATE INDEX booking_series_organizer_idx ON booking_series (organization_id, organizer_id, first_date);
CREATE TRIGGER booking_series_touch_updated_at BEFORE UPDATE ON booking_series
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION touch_updated_at();

ALTER TABLE bookings ADD COLUMN series_id uuid;
ALTER TABLE bookings ADD CONSTRAINT bookings_series_fkey FOREIGN KEY (organization_id, series_id)
    REFERENCES booking_series (organization_id, id);
CREATE INDEX bookings_series_idx ON bookings (organization_id, series_id, start_date) WHERE series_id IS NOT NULL;

-- The days a series names that have no booking of it: REFUSED when the series was made or changed (code
-- is the refusal's code and detail its words), SKIPPED when its occurrence was cancelled on its own.
CREATE TABLE booking_series_days (
    organization_id uuid        NOT NULL,
    series_id       uuid        NOT NULL,
    day             date        NOT NULL,
    kind            text        NOT NULL,
    code            integer,
    detail          text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT booking_series_days_pkey PRIMARY KEY (organization_id, series_id, day),
    CONSTRAINT booking_series_days_series_fkey FOREIGN KEY (organization_id, series_id)
        REFERENCES booking_series (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT booking_series_days_kind_check CHECK (kind IN ('REFUSED', 'SKIPPED')),
    CONSTRAINT booking_series_days_code_check CHECK ((kind = 'REFUSED') = (code IS NOT NULL)),
    CONSTRAINT booking_series_days_detail_check CHECK (char_length(detail) <= 1000)
);
