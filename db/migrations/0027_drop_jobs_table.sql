-- The table of the hand-written job queue that pg-boss replaced (pg-boss keeps its jobs in the schema pgboss). Jobs
-- still waiting in it are not lost: prepareDatabase (lib/platform/db.ts) installs pg-boss and moves them there before
-- it applies migrations, under the same start-up lock (carryOverTableJobs, lib/platform/job-queues.ts).
DROP TABLE IF EXISTS "jobs" CASCADE;
