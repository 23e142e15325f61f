-- Busy intervals are read by resource and start. No booking lasts more than 25 hours (a booking lies inside
-- the window of its start day, and a day lasts 25 hours at most, when clocks go back), so the blocking
-- bookings that overlap [from, to) are those of the resource that start in (from - 25 h, to) and end
-- after from: one short index range per resource, read from the index alone.
ALTER TABLE bookings ADD CONSTRAINT bookings_length_check CHECK (end_date <= start_date + interval '25 hours');
CREATE INDEX bookings_busy_idx ON bookings (organization_id, resource_id, start_date) INCLUDE (end_date)
    WHERE status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE');
