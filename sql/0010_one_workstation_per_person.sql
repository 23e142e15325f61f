-- A person holds at most one workstation at any moment, whoever books it for them; rooms are exempt.
-- Like the resource overlap, it is enforced by an exclusion constraint, over the organizer and the time of
-- the blocking bookings of workstations. bookings.resource_type is the category of the booked resource,
-- written with the booking (as floor_id is); the check keeps it to the two categories.
ALTER TABLE bookings ADD CONSTRAINT bookings_resource_type_check CHECK (resource_type IN ('WORKSTATION', 'SPACE'));

-- Bookings made before the rule may break it: of the workstation bookings of one person that overlap,
-- the one made first is kept and the later ones are cancelled, so that the constraint can be added.
UPDATE bookings bk SET status = 'CANCELLED', updated_at = now()
WHERE bk.resource_type = 'WORKSTATION' AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND EXISTS (
      SELECT 1 FROM bookings o
      WHERE o.organization_id = bk.organization_id AND o.organizer_id = bk.organizer_id
        AND o.resource_type = 'WORKSTATION' AND o.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
        AND tstzrange(o.start_date, o.end_date, '[)') && tstzrange(bk.start_date, bk.end_date, '[)')
        AND (o.created_at, o.id) < (bk.created_at, bk.id));

ALTER TABLE bookings ADD CONSTRAINT bookings_one_workstation_per_person EXCLUDE USING gist (
    organization_id WITH =,
    organizer_id WITH =,
    tstzrange(start_date, end_date, '[)') WITH &&
) WHERE (resource_type = 'WORKSTATION' AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE'));
