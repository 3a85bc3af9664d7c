-- Batches of the usage recorder already applied (lib/gateway/usage-recorder.ts): a flush whose commit reached the
-- server but whose reply was lost is retried under the same id and skipped, so no usage increment is added twice.
CREATE TABLE "usage_flushes" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
