-- What each person chose about being told. feed_secret names their private calendar feed
-- (/ical/{feed_secret}.ics); unsubscribe_secret names the one-click unsubscribe links of their optional
-- e-mails; mail_off lists the optional kinds of e-mail they turned off. Both secrets are 32 random bytes
-- (base64url) and can be rotated. A row is made the first time it is needed.
CREATE TABLE notice_settings (
    organization_id    uuid        NOT NULL,
    user_id            uuid        NOT NULL,
    feed_secret        text        NOT NULL,
    unsubscribe_secret text        NOT NULL,
    mail_off           text[]      NOT NULL DEFAULT '{}',
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT notice_settings_pkey PRIMARY KEY (organization_id, user_id),
    CONSTRAINT notice_settings_user_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id),
    CONSTRAINT notice_settings_feed_secret_key UNIQUE (feed_secret),
    CONSTRAINT notice_settings_unsubscribe_secret_key UNIQUE (unsubscribe_secret),
    CONSTRAINT notice_settings_mail_off_check
        CHECK (mail_off <@ ARRAY['confirmation', 'invitation', 'reminder', 'approval']::text[])
);
