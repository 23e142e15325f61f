-- The listings read the busy intervals of a floor's resources for a day. Read by resource, that takes one
-- lookup in bookings_busy_idx per resource, some 200 for a floor. With the floor stored on each booking,
-- it is one short range of the index below.
--
-- bookings.floor_id is the floor of the booking's resource, and only the database maintains it. A
-- trigger sets it whenever a booking is written with a resource. The foreign key on (resource, floor)
-- checks that it is right, and updates it when an import moves a resource to another floor (ON UPDATE
-- CASCADE). A booking written while its resource moves fails that key, rather than keep the old floor,
-- and is retried.
ALTER TABLE resources ADD CONSTRAINT resources_floor_key UNIQUE (organization_id, id, floor_id);

ALTER TABLE bookings ADD COLUMN floor_id uuid;
UPDATE bookings b SET floor_id = r.floor_id
FROM resources r
WHERE r.organization_id = b.organization_id AND r.id = b.resource_id;
ALTER TABLE bookings ALTER COLUMN floor_id SET NOT NULL;

ALTER TABLE bookings DROP CONSTRAINT bookings_resource_fkey;
ALTER TABLE bookings ADD CONSTRAINT bookings_resource_fkey FOREIGN KEY (organization_id, resource_id, floor_id)
    REFERENCES resources (organization_id, id, floor_id) ON UPDATE CASCADE;

CREATE FUNCTION bookings_set_floor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT r.floor_id INTO NEW.floor_id
    FROM resources r
    WHERE r.organization_id = NEW.organization_id AND r.id = NEW.resource_id;
    RETURN NEW;
END
$$;
CREATE TRIGGER bookings_set_floor BEFORE INSERT OR UPDATE OF resource_id ON bookings
    FOR EACH ROW EXECUTE FUNCTION bookings_set_floor();

CREATE INDEX bookings_floor_busy_idx ON bookings (organization_id, floor_id, start_date) INCLUDE (resource_id, end_date)
    WHERE status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE');
