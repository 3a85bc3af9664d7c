CREATE TABLE "key_handoffs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"key_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"checkout_session_id" text,
	"key_ciphertext" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_handoffs" ADD CONSTRAINT "key_handoffs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_handoffs" ADD CONSTRAINT "key_handoffs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_handoffs" ADD CONSTRAINT "key_handoffs_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "key_handoffs_checkout_key" ON "key_handoffs" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "key_handoffs_user_idx" ON "key_handoffs" USING btree ("user_id");