-- name: NoticeSettingsGet :one
SELECT * FROM notice_settings WHERE organization_id = @organization_id AND user_id = @user_id;

-- name: NoticeSettingsOfUsers :many
-- The settings of the given people who have any.
SELECT * FROM notice_settings WHERE organization_id = @organization_id AND user_id = ANY (@user_ids::uuid[]);

-- name: NoticeSettingsByFeedSecret :one
SELECT * FROM notice_settings WHERE feed_secret = @feed_secret;

-- name: NoticeSettingsByUnsubscribeSecret :one
SELECT * FROM notice_settings WHERE unsubscribe_secret = @unsubscribe_secret;

-- name: NoticeSettingsSetMailOff :one
UPDATE notice_settings SET mail_off = @mail_off, updated_at = now()
WHERE organization_id = @organization_id AND user_id = @user_id
RETURNING *;

-- name: NoticeSettingsSetFeedSecret :one
UPDATE notice_settings SET feed_secret = @feed_secret, updated_at = now()
WHERE organization_id = @organization_id AND user_id = @user_id
RETURNING *;

-- name: NoticeSettingsCreateMany :exec
-- Makes the settings of the given people of the organization, unless they exist already: the n-th of
-- user_ids gets the n-th of feed_secrets and of unsubscribe_secrets. Ids that name nobody of the
-- organization are skipped.
INSERT INTO notice_settings (organization_id, user_id, feed_secret, unsubscribe_secret)
SELECT u.organization_id, u.id, (@feed_secrets::text[])[s.n], (@unsubscribe_secrets::text[])[s.n]
FROM unnest(@user_ids::uuid[]) WITH ORDINALITY AS s (user_id, n)
JOIN users u ON u.organization_id = @organization_id AND u.id = s.user_id
ON CONFLICT (organization_id, user_id) DO NOTHING;

-- name: NoticeSettingsMailOffAdd :one
-- Turns off one more kind of e-mail for the person with the unsubscribe secret, unless it is off already.
UPDATE notice_settings SET mail_off = array_append(mail_off, @kind::text), updated_at = now()
WHERE unsubscribe_secret = @unsubscribe_secret AND NOT (@kind::text = ANY (mail_off))
RETURNING *;
