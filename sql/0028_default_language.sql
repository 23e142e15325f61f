-- The language of the people created at their first sign-in or by a SCIM client, until they choose their
-- own. The service checks that it speaks the language; the database only that it looks like a language
-- code, so that a new language needs no migration.
ALTER TABLE organizations ADD COLUMN default_language text NOT NULL DEFAULT 'en'
    CHECK (default_language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$');
