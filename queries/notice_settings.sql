-- name: NoticeSettingsCreate :exec
-- Makes a person's settings with the given secrets, unless they exist already.
INSERT INTO notice_settings (organization_id, user_id, feed_secret, unsubscribe_secret)
VALUES (@organization_id, @user_id, @feed_secret, @unsubscribe_secret)
ON CONFLICT (organization_id, user_id) DO NOTHING;

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
