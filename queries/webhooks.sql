-- name: WebhookEndpointsOfOrganization :many
-- Lists an organization's webhook endpoints, oldest first.
SELECT * FROM webhook_endpoints
WHERE organization_id = @organization_id
ORDER BY created_at, id
LIMIT @max_rows;

-- name: WebhookEndpointCount :one
SELECT count(*) FROM webhook_endpoints WHERE organization_id = @organization_id;

-- name: WebhookEndpointGet :one
SELECT * FROM webhook_endpoints WHERE organization_id = @organization_id AND id = @id;

-- name: WebhookEndpointsForEvent :many
-- The enabled endpoints of an organization that asked for this kind of event.
SELECT * FROM webhook_endpoints
WHERE organization_id = @organization_id AND disabled_at IS NULL AND @event_type::text = ANY (event_types)
ORDER BY created_at, id;

-- name: WebhookEndpointInsert :one
-- A new endpoint; one made disabled is disabled by its admin.
INSERT INTO webhook_endpoints (organization_id, id, url, description, event_types, secret, created_at, updated_at,
    disabled_at, disabled_reason)
VALUES (@organization_id, @id, @url, @description, @event_types, @secret, @now::timestamptz, @now::timestamptz,
    CASE WHEN @enabled::boolean THEN NULL ELSE @now::timestamptz END,
    CASE WHEN @enabled::boolean THEN NULL ELSE 'admin' END)
RETURNING *;

-- name: WebhookEndpointUpdate :one
-- Changes what an admin set; a null leaves the field as it is now, so that a change made meanwhile (by
-- another admin, or a 410 disabling the endpoint) is not undone. Enabling clears the reason it was
-- disabled; disabling by an admin keeps the first reason.
UPDATE webhook_endpoints SET
    url = coalesce(sqlc.narg(url), url), description = coalesce(sqlc.narg(description), description),
    event_types = coalesce(sqlc.narg(event_types)::text[], event_types), updated_at = @now::timestamptz,
    disabled_at = CASE sqlc.narg(enabled)::boolean
        WHEN true THEN NULL WHEN false THEN coalesce(disabled_at, @now::timestamptz) ELSE disabled_at END,
    disabled_reason = CASE sqlc.narg(enabled)::boolean
        WHEN true THEN NULL WHEN false THEN coalesce(disabled_reason, 'admin') ELSE disabled_reason END
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: WebhookEndpointRotate :one
-- Makes secret the endpoint's secret; the one it replaces keeps signing until previous_until.
UPDATE webhook_endpoints SET
    previous_secret = secret, previous_secret_until = @previous_until::timestamptz, secret = @secret, updated_at = @now::timestamptz
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: WebhookEndpointDisableGone :execrows
-- Disables an endpoint that answered 410 Gone, unless it is disabled already.
UPDATE webhook_endpoints SET disabled_at = @now::timestamptz, disabled_reason = 'gone', updated_at = @now::timestamptz
WHERE organization_id = @organization_id AND id = @id AND disabled_at IS NULL;

-- name: WebhookEndpointDelete :execrows
DELETE FROM webhook_endpoints WHERE organization_id = @organization_id AND id = @id;

-- name: WebhookDeliveryInsert :exec
INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, event_id, event_type, attempt, status, outcome,
    error, answer, answer_truncated, duration_ms, body, attempted_at)
VALUES (@organization_id, @id, @endpoint_id, @event_id, @event_type, @attempt, @status, @outcome,
    @error, @answer, @answer_truncated, @duration_ms, @body, @attempted_at);

-- name: WebhookDeliveriesTrim :execrows
-- Deletes an endpoint's deliveries but the newest @keep.
DELETE FROM webhook_deliveries d
WHERE d.organization_id = @organization_id AND d.endpoint_id = @endpoint_id
  AND d.id NOT IN (
    SELECT k.id FROM webhook_deliveries k
    WHERE k.organization_id = @organization_id AND k.endpoint_id = @endpoint_id
    ORDER BY k.attempted_at DESC, k.id DESC
    LIMIT @keep);

-- name: WebhookDeliveriesOfEndpoint :many
-- An endpoint's newest deliveries, without their bodies.
SELECT organization_id, id, endpoint_id, event_id, event_type, attempt, status, outcome, error, answer,
    answer_truncated, duration_ms, attempted_at
FROM webhook_deliveries
WHERE organization_id = @organization_id AND endpoint_id = @endpoint_id
ORDER BY attempted_at DESC, id DESC
LIMIT @max_rows;

-- name: WebhookDeliveryGet :one
SELECT * FROM webhook_deliveries WHERE organization_id = @organization_id AND endpoint_id = @endpoint_id AND id = @id;

-- name: WebhookJobsOfEndpoint :many
-- The webhook jobs of an endpoint that have yet to run, to cancel when it is disabled or deleted.
SELECT id FROM river_job
WHERE kind = 'webhook' AND state IN ('available', 'pending', 'retryable', 'scheduled')
  AND args ->> 'organizationId' = CAST(sqlc.arg(organization_id)::uuid AS text)
  AND args ->> 'endpointId' = CAST(sqlc.arg(endpoint_id)::uuid AS text)
LIMIT 1000;
