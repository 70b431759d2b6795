-- Double opt-in (issue #26). Rows written before it were subscribed in one step and were told so:
-- they count as confirmed and get a random token (two v4 UUIDs, 244 random bits) for the
-- unsubscribe link of the letters they will get.
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "token" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "newsletter_subscriptions" SET "status" = 'confirmed', "confirmed_at" = "created_at", "token" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ALTER COLUMN "token" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscriptions_token_uq" ON "newsletter_subscriptions" USING btree ("token");
