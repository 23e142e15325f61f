-- Bookings at busy hours, for measuring what an insert costs PostgreSQL when it lands among other
-- bookings (docs/performance.md, "Exclusion keys"). The booking script of `make bench` (ceiling.sql) books
-- empty evenings, which no seeded booking touches; this one books what people book: a random resource of the
-- standard data set, as a random person, for 15 minutes to 2 hours starting on the quarter hour between
-- 07:00 and 17:00 UTC, on one of the next 30 days. About a quarter of the attempts overlap a booking of the
-- resource or a desk of the person; ON CONFLICT DO NOTHING skips those, after the same search the service's
-- insert makes. `make bench` runs it after the booking script and reports what a booking cost
-- (docs/benchmarks.md). By hand, with pgbench on a seeded database:
--
--   pgbench -n -c 8 -j 2 -t 5000 -M prepared --random-seed=1 -f cmd/loadtest/busyhours.sql \
--     -D org=5eed0000-0001-8000-8000-000000000000 -D layout=LAYOUT_VERSION -D epoch=MIDNIGHT_UTC_TODAY \
--     -D resources=10000 -D perfloor=200 -D roomsperfloor=20 -D floorsperbuilding=5 -D users=5000 booking_bench
--
-- Each floor's first roomsperfloor resources are its rooms, as the seed makes them.
\set r random(0, :resources - 1)
\set floor :r / :perfloor
\set room case when :r % :perfloor < :roomsperfloor then 1 else 0 end
\set building :floor / :floorsperbuilding
\set user random(0, :users - 1)
\set start :epoch + random(1, 30) * 86400 + 7 * 3600 + random(0, 39) * 900
\set length random(1, 8) * 900
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, all_day,
                      check_in_opens_at, check_in_closes_at, series_id)
SELECT :org::uuid, (lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid, ('5eed0000-000b-8000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid, ('5eed0000-0006-8000-8000-' || lpad(to_hex(:floor::bigint), 12, '0'))::uuid, ('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid,
       ('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid, to_timestamp(:start::bigint)::timestamptz, to_timestamp(:start::bigint + :length)::timestamptz,
       'PENDING'::text, 'ANY'::text, 'pgbench busy hours'::text,
       ''::text, 'TEXT'::text, 'LOW'::text,
       (CASE :room::int WHEN 1 THEN 'SPACE' ELSE 'WORKSTATION' END)::text, 'PENDING'::text,
       false::boolean, ''::text,
       false::boolean, to_timestamp(:start::bigint - 900)::timestamptz, to_timestamp(:start::bigint + 900)::timestamptz,
       NULL::uuid
WHERE booking_may_insert(:org::uuid, :layout::bigint,
                         ('5eed0000-0005-8000-8000-' || lpad(to_hex(:building::bigint), 12, '0'))::uuid, ('5eed0000-000b-8000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid)
ON CONFLICT DO NOTHING;
