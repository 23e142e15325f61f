-- name: SessionsDeleteExpired :execrows
-- Browser sessions (kept by the web layer through scs) past their expiry.
DELETE FROM sessions WHERE expiry < now();
