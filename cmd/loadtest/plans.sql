-- The plans and execution times of the queries that read bookings for a listing, a status or the sweep,
-- as the service runs them (queries/bookings.sql), on a seeded database:
--
--   psql -X -q "$DATABASE_URL" -f cmd/loadtest/plans.sql
--
-- Each query runs under EXPLAIN ANALYZE once per sample (15 pending bookings of the next two days, spread
-- over the organizations: their organization, resource, organizer, floor and end); the table gives each
-- query's median and slowest execution time and the indexes its plans used. The sweep's updates are rolled
-- back. Nothing else is changed.
CREATE TEMP TABLE samples AS
SELECT organization_id AS org, resource_id AS res, organizer_id AS usr, floor_id AS fl, end_date AS e
FROM bookings WHERE status = 'PENDING' AND start_date > now() AND start_date < now() + interval '2 days'
ORDER BY hashtext(id::text) LIMIT 15;
CREATE TEMP TABLE timings (q text, ms float8, idx text);
CREATE OR REPLACE FUNCTION pg_temp.indexes(p json) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(DISTINCT coalesce(m[1], ''), ',') FROM regexp_matches(p::text, '"Index Name": "([^"]*)"', 'g') m
$$;
CREATE OR REPLACE PROCEDURE pg_temp.tm(label text, tmpl text, rollback_after bool DEFAULT false) LANGUAGE plpgsql AS $$
DECLARE s record; plan json;
BEGIN
  FOR s IN SELECT * FROM samples LOOP
    BEGIN
      EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || format(tmpl, s.org, s.res, s.usr, s.fl, s.e) INTO plan;
      IF rollback_after THEN RAISE EXCEPTION 'undo'; END IF;
    EXCEPTION WHEN raise_exception THEN NULL;
    END;
    INSERT INTO timings VALUES (label, (plan->0->>'Execution Time')::float8, pg_temp.indexes(plan));
  END LOOP;
END $$;
CALL pg_temp.tm('status BookingsBlockingAfter', $q$SELECT * FROM bookings WHERE organization_id = %1$L AND resource_id = %2$L
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND start_date > now() - interval '25 hours' AND start_date < now() + interval '12 hours'
  AND end_date > now() ORDER BY start_date LIMIT 1$q$);
CALL pg_temp.tm('kiosk BookingsOfUserAfter', $q$SELECT * FROM bookings WHERE organization_id = %1$L AND resource_id = %2$L AND organizer_id = %3$L
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND start_date > now() - interval '25 hours' AND start_date < now() + interval '2 days'
  AND end_date > now() ORDER BY start_date LIMIT 1$q$);
CALL pg_temp.tm('kiosk BookingsToCheckIn', $q$SELECT * FROM bookings
  WHERE organization_id = %1$L AND resource_id = %2$L AND organizer_id = %3$L AND start_date > now() - interval '25 hours'
  AND ((status = 'PENDING' AND check_in_opens_at <= now() AND now() < check_in_closes_at) OR (status = 'ACTIVE' AND now() < end_date))
  ORDER BY status = 'PENDING' DESC, start_date, id LIMIT 1$q$);
CALL pg_temp.tm('kiosk BookingsRunEnd', $q$WITH RECURSIVE run (end_date) AS (SELECT %5$L::timestamptz UNION
  SELECT bk.end_date FROM bookings bk JOIN run ON bk.start_date = run.end_date WHERE bk.organization_id = %1$L AND bk.resource_id = %2$L
  AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')) SELECT max(end_date)::timestamptz FROM run$q$);
CALL pg_temp.tm('my bookings BookingsOfUser', $q$SELECT bk.* FROM bookings bk WHERE bk.organization_id = %1$L AND bk.id IN (
  (SELECT o.id FROM bookings o WHERE o.organization_id = %1$L AND o.organizer_id = %3$L ORDER BY o.start_date DESC, o.id DESC LIMIT 51)
  UNION ALL SELECT a.booking_id FROM booking_attendees a WHERE a.organization_id = %1$L AND a.user_id = %3$L)
  ORDER BY bk.start_date DESC, bk.id DESC LIMIT 51$q$);
CALL pg_temp.tm('my bookings BookingsOfUser (a week, PENDING/ACTIVE)', $q$SELECT bk.* FROM bookings bk WHERE bk.organization_id = %1$L AND bk.id IN (
  (SELECT o.id FROM bookings o WHERE o.organization_id = %1$L AND o.organizer_id = %3$L AND o.end_date > now() AND o.start_date < now() + interval '7 days'
   AND o.status = ANY ('{PENDING,ACTIVE}') ORDER BY o.start_date DESC, o.id DESC LIMIT 51)
  UNION ALL SELECT a.booking_id FROM booking_attendees a WHERE a.organization_id = %1$L AND a.user_id = %3$L)
  AND bk.end_date > now() AND bk.start_date < now() + interval '7 days' AND bk.status = ANY ('{PENDING,ACTIVE}')
  ORDER BY bk.start_date DESC, bk.id DESC LIMIT 51$q$);
CALL pg_temp.tm('approvals BookingsWaitingApproval', $q$SELECT * FROM bookings WHERE organization_id = %1$L AND status = 'WAITING_APPROVAL'
  ORDER BY start_date, id LIMIT 51$q$);
CALL pg_temp.tm('availability BookingsBusy', $q$SELECT resource_id, start_date, end_date FROM bookings WHERE organization_id = %1$L AND floor_id = %4$L
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND start_date > date_trunc('day', %5$L::timestamptz) - interval '25 hours'
  AND start_date < date_trunc('day', %5$L::timestamptz) + interval '1 day' AND end_date > date_trunc('day', %5$L::timestamptz)
  ORDER BY resource_id, start_date$q$);
CALL pg_temp.tm('free ResourcesBusyDuring', $q$SELECT DISTINCT resource_id FROM bookings WHERE organization_id = %1$L AND floor_id = %4$L
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND start_date > date_trunc('day', %5$L::timestamptz) + interval '9 hours' - interval '25 hours' AND start_date < date_trunc('day', %5$L::timestamptz) + interval '17 hours'
  AND tstzrange(start_date, end_date, '[)') && tstzmultirange(tstzrange(date_trunc('day', %5$L::timestamptz) + interval '9 hours', date_trunc('day', %5$L::timestamptz) + interval '17 hours'))$q$);
CALL pg_temp.tm('search BookingWorkstationHeld', $q$WITH mine AS MATERIALIZED (SELECT * FROM bookings
  WHERE organization_id = %1$L AND organizer_id = %3$L AND start_date > now() - interval '25 hours' AND start_date < now() + interval '1 day 10 hours')
  SELECT bk.id FROM mine bk WHERE bk.resource_type = 'WORKSTATION' AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND EXISTS (SELECT FROM generate_subscripts(ARRAY[now(), now() + interval '1 day'], 1) AS i
    WHERE bk.start_date < (ARRAY[now() + interval '10 hours', now() + interval '1 day 10 hours'])[i] AND (ARRAY[now(), now() + interval '1 day'])[i] < bk.end_date)
  ORDER BY bk.start_date, bk.id LIMIT 1$q$);
CALL pg_temp.tm('sweep BookingsExpireNoShows', $q$UPDATE bookings b SET status = 'EXPIRED', updated_at = now()
  WHERE (b.organization_id, b.id) IN (SELECT d.organization_id, d.id FROM bookings d
    WHERE d.status IN ('PENDING', 'WAITING_APPROVAL') AND d.check_in_closes_at <= coalesce(NULL::timestamptz, now())
    ORDER BY d.check_in_closes_at LIMIT 1000)
  AND b.status IN ('PENDING', 'WAITING_APPROVAL') AND b.check_in_closes_at <= coalesce(NULL::timestamptz, now()) RETURNING b.organization_id, b.id$q$, true);
CALL pg_temp.tm('sweep BookingsFinishEnded', $q$UPDATE bookings b SET status = 'FINISHED', updated_at = now()
  WHERE (b.organization_id, b.id) IN (SELECT d.organization_id, d.id FROM bookings d
    WHERE d.status = 'ACTIVE' AND d.end_date <= coalesce(NULL::timestamptz, now()) ORDER BY d.end_date LIMIT 1000)
  AND b.status = 'ACTIVE' AND b.end_date <= coalesce(NULL::timestamptz, now()) RETURNING b.organization_id, b.id$q$, true);
SELECT q, count(*) AS n, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 3) AS median_ms,
       round(max(ms)::numeric, 3) AS max_ms, string_agg(DISTINCT idx, ' ') AS indexes
FROM timings GROUP BY q ORDER BY min(ctid);
