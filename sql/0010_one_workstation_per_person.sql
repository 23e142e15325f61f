-- A person holds at most one workstation at any moment, whoever books it for them; rooms are exempt.
-- As with overlapping bookings of one resource, an exclusion constraint enforces this, over the organizer
-- and the time of blocking workstation bookings. bookings.resource_type is the category of the booked
-- resource, written with the booking (as floor_id is); a check limits it to the two categories.
ALTER TABLE bookings ADD CONSTRAINT bookings_resource_type_check CHECK (resource_type IN ('WORKSTATION', 'SPACE'));

-- Bookings made before this rule may break it. The migration walks each person's clashing workstation
-- bookings, checked-in (ACTIVE) ones first, then in the order they were made. It keeps each booking
-- unless it overlaps one already kept, and cancels it otherwise. So it cancels as few as possible: of
-- A 09-12, B 11-14 and C 13-16, made in that order, only B is cancelled. A notice reports how many.
DO $$
DECLARE
    bk record;
    cancelled bigint := 0;
BEGIN
    FOR bk IN
        SELECT b.organization_id, b.id, b.organizer_id, b.start_date, b.end_date, b.status = 'ACTIVE' AS active, b.created_at
        FROM bookings b
        WHERE b.resource_type = 'WORKSTATION' AND b.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
          AND EXISTS (
              SELECT 1 FROM bookings o
              WHERE o.organization_id = b.organization_id AND o.organizer_id = b.organizer_id AND o.id <> b.id
                AND o.resource_type = 'WORKSTATION' AND o.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
                AND tstzrange(o.start_date, o.end_date, '[)') && tstzrange(b.start_date, b.end_date, '[)'))
        ORDER BY b.organization_id, b.organizer_id, b.status = 'ACTIVE' DESC, b.created_at, b.id
    LOOP
        -- The bookings kept so far are the still-blocking ones that come earlier in the walk.
        UPDATE bookings b SET status = 'CANCELLED', updated_at = now()
        WHERE b.organization_id = bk.organization_id AND b.id = bk.id
          AND EXISTS (
              SELECT 1 FROM bookings o
              WHERE o.organization_id = bk.organization_id AND o.organizer_id = bk.organizer_id AND o.id <> bk.id
                AND o.resource_type = 'WORKSTATION' AND o.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
                AND tstzrange(o.start_date, o.end_date, '[)') && tstzrange(bk.start_date, bk.end_date, '[)')
                AND ((o.status = 'ACTIVE') > bk.active
                     OR ((o.status = 'ACTIVE') = bk.active AND (o.created_at, o.id) < (bk.created_at, bk.id))));
        IF FOUND THEN
            cancelled := cancelled + 1;
        END IF;
    END LOOP;
    RAISE NOTICE 'cancelled % workstation bookings that overlapped another workstation booking of the same person', cancelled;
END $$;

ALTER TABLE bookings ADD CONSTRAINT bookings_one_workstation_per_person EXCLUDE USING gist (
    organization_id WITH =,
    organizer_id WITH =,
    tstzrange(start_date, end_date, '[)') WITH &&
) WHERE (resource_type = 'WORKSTATION' AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE'));
