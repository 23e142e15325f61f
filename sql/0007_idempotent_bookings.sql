-- A booking request sent with an Idempotency-Key records the bookings it made on its key, in the same
-- transaction that creates them. Its response is stored only after that commit. If its instance stops in
-- between, the retry that takes over the key returns those bookings instead of creating them again.
ALTER TABLE idempotency_keys ADD COLUMN booking_ids uuid[] NOT NULL DEFAULT '{}';
