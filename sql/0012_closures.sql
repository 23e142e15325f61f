-- A closure takes a building, a floor or a resource out of service from start_date to end_date, for a
-- reason that employees see ("closed: Christmas"). No blocking booking may overlap a closure of its
-- resource, floor or building, except the bookings listed in kept_booking_ids: those existed when the
-- closure was saved, and the admin chose to keep them rather than cancel them.
CREATE TABLE closures (
    organization_id  uuid        NOT NULL,
    id               uuid        NOT NULL,
    building_id      uuid,
    floor_id         uuid,
    resource_id      uuid,
    start_date       timestamptz NOT NULL,
    end_date         timestamptz NOT NULL,
    reason           text        NOT NULL,
    kept_booking_ids uuid[]      NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT closures_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT closures_building_fkey FOREIGN KEY (organization_id, building_id) REFERENCES buildings (organization_id, id),
    CONSTRAINT closures_floor_fkey FOREIGN KEY (organization_id, floor_id) REFERENCES floors (organization_id, id),
    CONSTRAINT closures_resource_fkey FOREIGN KEY (organization_id, resource_id) REFERENCES resources (organization_id, id),
    CONSTRAINT closures_target_check CHECK (num_nonnulls(building_id, floor_id, resource_id) = 1),
    CONSTRAINT closures_dates_check CHECK (end_date > start_date),
    CONSTRAINT closures_reason_check CHECK (char_length(btrim(reason)) BETWEEN 1 AND 200),
    CONSTRAINT closures_kept_check CHECK (cardinality(kept_booking_ids) <= 1000)
);

-- The closures of one building, floor or resource that have not ended by a given time.
CREATE INDEX closures_building_idx ON closures (organization_id, building_id, end_date) WHERE building_id IS NOT NULL;
CREATE INDEX closures_floor_idx ON closures (organization_id, floor_id, end_date) WHERE floor_id IS NOT NULL;
CREATE INDEX closures_resource_idx ON closures (organization_id, resource_id, end_date) WHERE resource_id IS NOT NULL;
-- The organization's closures that have not ended: the cached layout holds them.
CREATE INDEX closures_end_idx ON closures (organization_id, end_date);

-- A closure is part of the layout: changing one changes the layout version, so that a booking checked
-- against a layout without it is checked again.
CREATE TRIGGER closures_layout_changed AFTER INSERT OR UPDATE OR DELETE ON closures
    FOR EACH ROW EXECUTE FUNCTION organizations_layout_changed();

-- closure_lock_key is the advisory lock of a building's closures. Saving a closure takes it exclusively;
-- every statement that puts a booking into a time on a resource of the building takes it shared first.
CREATE FUNCTION closure_lock_key(building uuid) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hashtextextended('closures ' || building::text, 0)
$$;

-- booking_may_insert reports whether a booking of the resource, checked against version `version` of the
-- organization's layout, may be inserted. It first takes the building's closure lock (shared) and the
-- resource's lock, and only then reads the version. The function is VOLATILE, so in READ COMMITTED that
-- read has a snapshot of its own, taken after the locks were granted: a closure (or any layout change)
-- that committed while the insert waited for a lock is seen, and the insert writes nothing. The statement
-- that calls it took its snapshot before the locks, so it must not read the version itself.
-- The resource's lock queues overlapping inserts of one resource, instead of letting them wait for each
-- other on the exclusion constraint (a deadlock PostgreSQL breaks only after deadlock_timeout).
CREATE FUNCTION booking_may_insert(org uuid, version bigint, building uuid, resource uuid) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    current bigint;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(closure_lock_key(building));
    PERFORM pg_advisory_xact_lock(hashtextextended(resource::text, 0));
    SELECT o.layout_version INTO current FROM organizations o WHERE o.id = org;
    RETURN current = version;
END
$$;
