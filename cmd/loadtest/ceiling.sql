-- One booking, as the service makes it: the insert of queries/bookings.sql (BookingInsert), its arguments
-- computed here from pgbench's variables (ceiling.go sets them). Transaction k of the run books the k-th
-- evening quarter in the order of the book scenario: rooms and desks in proportion to their numbers,
-- spread evenly (transaction k takes a room when k × rooms / (rooms + desks) passes a whole number), each
-- kind resource after resource, then quarter after quarter, then day after day, from a day past every
-- seeded booking: no two overlap, and no person holds two desks at once (desk j is always booked for
-- person j), so every insert succeeds.
\set n :n + 1
\set k :n * :clients + :client_id
\set r0 (:k * :rooms) / (:rooms + :desks)
\set room ((:k + 1) * :rooms) / (:rooms + :desks) - :r0
\set i :room * :r0 + (1 - :room) * (:k - :r0)
\set list :room * :rooms + (1 - :room) * :desks
\set j :i % :list
\set q :i / :list
\set floor :room * (:j / :roomsperfloor) + (1 - :room) * (:j / (:perfloor - :roomsperfloor))
\set r :floor * :perfloor + :room * (:j % :roomsperfloor) + (1 - :room) * (:roomsperfloor + :j % (:perfloor - :roomsperfloor))
\set building :floor / :floorsperbuilding
\set user :room * random(0, :users - 1) + (1 - :room) * :j
\set start :epoch + (:firstday + :q / 8) * 86400 + (19 * 60 + (:q % 8) * 15) * 60
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, all_day,
                      check_in_opens_at, check_in_closes_at, series_id)
SELECT :org::uuid, (lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid, ('5eed0000-000b-8000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid, ('5eed0000-0006-8000-8000-' || lpad(to_hex(:floor::bigint), 12, '0'))::uuid, ('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid,
       ('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid, to_timestamp(:start::bigint)::timestamptz, to_timestamp(:start::bigint + 900)::timestamptz,
       'PENDING'::text, 'ANY'::text, 'pgbench ceiling'::text,
       ''::text, 'TEXT'::text, 'LOW'::text,
       (CASE :room::int WHEN 1 THEN 'SPACE' ELSE 'WORKSTATION' END)::text, 'PENDING'::text,
       false::boolean, ''::text,
       false::boolean, to_timestamp(:start::bigint - 900)::timestamptz, to_timestamp(:start::bigint + 900)::timestamptz,
       NULL::uuid
WHERE booking_may_insert(:org::uuid, :layout::bigint,
                         ('5eed0000-0005-8000-8000-' || lpad(to_hex(:building::bigint), 12, '0'))::uuid, ('5eed0000-000b-8000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid);
