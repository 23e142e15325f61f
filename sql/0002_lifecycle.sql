-- The booking lifecycle: check-in windows, set when a booking is made or moved; all-day bookings; and
-- the indexes that the expiry sweep, the listings and the approval queue use.

ALTER TABLE bookings
    ADD COLUMN all_day            boolean     NOT NULL DEFAULT false,
    ADD COLUMN check_in_opens_at  timestamptz,
    ADD COLUMN check_in_closes_at timestamptz,
    ADD COLUMN checked_in_at      timestamptz;

UPDATE bookings bk
SET check_in_opens_at  = bk.start_date - rr.advance_check_in * interval '1 millisecond',
    -- Same as booking.ResourceRule.CheckInWindow: a zero margin means no deadline (check-in stays open until the end).
    check_in_closes_at = CASE WHEN rr.expiration_margin = 0 THEN bk.end_date
                              ELSE LEAST(bk.end_date, bk.start_date + rr.expiration_margin * interval '1 millisecond') END
FROM resources r
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
WHERE r.organization_id = bk.organization_id AND r.id = bk.resource_id;

ALTER TABLE bookings
    ALTER COLUMN check_in_opens_at SET NOT NULL,
    ALTER COLUMN check_in_closes_at SET NOT NULL,
    ADD CONSTRAINT bookings_check_in_check CHECK (check_in_opens_at <= check_in_closes_at);

-- For the expiry sweep: no-shows and undecided requests past their check-in deadline, and checked-in
-- bookings past their end.
CREATE INDEX bookings_check_in_deadline_idx ON bookings (check_in_closes_at)
    WHERE status IN ('PENDING', 'WAITING_APPROVAL');
CREATE INDEX bookings_active_end_idx ON bookings (end_date) WHERE status = 'ACTIVE';
-- For an organization's approval queue, earliest first.
CREATE INDEX bookings_waiting_approval_idx ON bookings (organization_id, start_date, id)
    WHERE status = 'WAITING_APPROVAL';
-- For a user's bookings as organizer, newest first. Bookings they attend use booking_attendees_user_idx.
DROP INDEX bookings_organizer_idx;
CREATE INDEX bookings_organizer_idx ON bookings (organization_id, organizer_id, start_date DESC, id DESC);
