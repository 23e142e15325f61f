-- Poster codes are unique within an organization, ignoring case, so that a code typed or scanned as
-- nyc-1-d05 finds NYC-1-D05 and no other resource. If an organization already has two codes that differ
-- only in case, the migration stops with a message naming them: rename one, then migrate again.
DO $$
DECLARE
    dup record;
BEGIN
    SELECT organization_id, lower(poster_code) AS code, string_agg(poster_code, ', ') AS codes INTO dup
    FROM resources GROUP BY organization_id, lower(poster_code) HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'poster codes % of organization % differ only in case: give them different codes, then migrate again',
            dup.codes, dup.organization_id;
    END IF;
END $$;

ALTER TABLE resources DROP CONSTRAINT resources_poster_code_key;
CREATE UNIQUE INDEX resources_poster_code_key ON resources (organization_id, lower(poster_code));
