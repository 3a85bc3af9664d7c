ALTER TABLE "stripe_events" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD COLUMN "outcome" text DEFAULT 'applied' NOT NULL;--> statement-breakpoint
CREATE INDEX "stripe_events_subscription_idx" ON "stripe_events" USING btree ("stripe_subscription_id","event_created_at");