-- Each user's access token from the identity provider (the API's user-access-token header, or the token
-- from a browser sign-in) is now stored once per user instead of in every booking. It is encrypted with
-- AES-GCM (nonce followed by ciphertext) and kept until it expires. The copies stored with bookings are
-- dropped: they were in plain text, and the next request or sign-in brings a fresh token.
CREATE TABLE user_access_tokens (
    organization_id uuid        NOT NULL,
    user_id         uuid        NOT NULL,
    sealed          bytea       NOT NULL,
    expires_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT user_access_tokens_pkey PRIMARY KEY (organization_id, user_id),
    CONSTRAINT user_access_tokens_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX user_access_tokens_expires_idx ON user_access_tokens (expires_at);

-- The key that encrypts those tokens when TOKEN_ENCRYPTION_KEY is not set. It is created on first use.
CREATE TABLE token_encryption_keys (
    id  smallint NOT NULL,
    key bytea    NOT NULL,
    CONSTRAINT token_encryption_keys_pkey PRIMARY KEY (id),
    CONSTRAINT token_encryption_keys_one CHECK (id = 1),
    CONSTRAINT token_encryption_keys_length CHECK (length(key) = 32)
);

ALTER TABLE bookings DROP COLUMN user_access_token;

-- The service refuses its own bearer tokens for this user if they were issued before this moment
-- (see `booking token revoke`).
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;
