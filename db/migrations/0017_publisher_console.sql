ALTER TYPE "public"."kb_status" ADD VALUE IF NOT EXISTS 'unpublished' BEFORE 'suspended';--> statement-breakpoint
DROP INDEX "publishers_owner_idx";--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD COLUMN "status_before_suspension" "kb_status";--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD COLUMN "suspended_with_publisher" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "replaced_by_plan_id" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
CREATE INDEX "plans_replaced_by_idx" ON "plans" USING btree ("replaced_by_plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "publishers_owner_key" ON "publishers" USING btree ("owner_user_id");