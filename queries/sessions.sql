-- name: SessionsDeleteExpired :execrows
-- Deletes browser sessions (stored by the web layer through scs) that have expired.
DELETE FROM sessions WHERE expiry < now();
