-- The part of River's job table that our queries read (the outbox metrics). River's own migrations
-- create and change the real table (postgres.Migrate runs them); this file only tells sqlc its columns.
-- It is not a migration: the migrations are the numbered files one folder up.
CREATE TYPE river_job_state AS ENUM (
    'available', 'cancelled', 'completed', 'discarded', 'pending', 'retryable', 'running', 'scheduled'
);

CREATE TABLE river_job (
    id           bigserial       PRIMARY KEY,
    state        river_job_state NOT NULL DEFAULT 'available',
    attempt      smallint        NOT NULL DEFAULT 0,
    max_attempts smallint        NOT NULL,
    attempted_at timestamptz,
    created_at   timestamptz     NOT NULL DEFAULT now(),
    finalized_at timestamptz,
    scheduled_at timestamptz     NOT NULL DEFAULT now(),
    priority     smallint        NOT NULL DEFAULT 1,
    args         jsonb           NOT NULL,
    kind         text            NOT NULL,
    queue        text            NOT NULL DEFAULT 'default'
);
