-- River's job table comes with GIN indexes on args and metadata, for searching jobs by their
-- contents in River's own UI. The service never searches jobs that way, and each job is written three
-- times (inserted, taken, finished): the two indexes made every booking's outbox jobs write about six
-- times the WAL of the booking itself. postgres.Migrate drops them after River's migrations.
DROP INDEX IF EXISTS river_job_args_index;
DROP INDEX IF EXISTS river_job_metadata_index;
