-- Busy intervals are read by resource and start. No booking lasts more than 25 hours: a booking lies
-- inside its start day's window, and the longest day, when clocks go back, has 25 hours. So the blocking
-- bookings that overlap [from, to) are the resource's bookings that start in (from - 25 h, to) and end
-- after from. That is one short range per resource, read from the index alone.
ALTER TABLE bookings ADD CONSTRAINT bookings_length_check CHECK (end_date <= start_date + interval '25 hours');
CREATE INDEX bookings_busy_idx ON bookings (organization_id, resource_id, start_date) INCLUDE (end_date)
    WHERE status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE');
