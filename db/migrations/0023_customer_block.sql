ALTER TABLE "customers" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
CREATE INDEX "orders_status_delivery_created_idx" ON "orders" USING btree ("status","delivery_id","created_at","id");