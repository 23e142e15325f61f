-- A booking request sent with an Idempotency-Key records on its key the bookings it made, in the
-- transaction that makes them. Its answer is kept only after that commit: should its instance stop in
-- between, the retry that takes the key over answers with those bookings instead of making them again.
ALTER TABLE idempotency_keys ADD COLUMN booking_ids uuid[] NOT NULL DEFAULT '{}';
