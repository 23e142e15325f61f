-- name: MailSentInsert :exec
-- Records that the mail server accepted the message with this Message-ID.
INSERT INTO mail_sent (message_id, organization_id, event_id, recipient)
VALUES (@message_id, @organization_id, @event_id, @recipient)
ON CONFLICT (message_id) DO NOTHING;

-- name: MailSentExists :one
SELECT EXISTS (SELECT FROM mail_sent WHERE message_id = @message_id);

-- name: MailSentDeleteBefore :execrows
DELETE FROM mail_sent WHERE sent_at < @before;

-- name: NotifyAdmins :many
-- The active admins of an organization, who decide on bookings waiting for approval.
SELECT id, name, surname, email, user_language FROM users
WHERE organization_id = @organization_id AND role = 'ADMIN' AND active
ORDER BY email
LIMIT 50;

-- name: NotifyOutboxCounts :many
-- How many outbox jobs are in each state, and when the oldest of each state was written. The events not
-- yet moved to River count as available.
SELECT state::text AS state, count(*) AS jobs, min(created_at)::timestamptz AS oldest
FROM river_job GROUP BY state
UNION ALL
SELECT 'available', count(*), coalesce(min(recorded_at), now())::timestamptz FROM outbox_events;

-- name: NotifyReservables :many
-- The services with the given ids, for telling their providers of a cancelled order.
SELECT id, name, email FROM reservables
WHERE organization_id = @organization_id AND id = ANY (@ids::uuid[]);

-- name: NotifyUserLanguages :many
-- The languages of the given people of an organization, so that each reads their e-mails in their own.
SELECT id, user_language FROM users
WHERE organization_id = @organization_id AND id = ANY (@ids::uuid[]);
