ALTER TABLE "exchange_sale_exports" ADD COLUMN "reset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_photos" ADD COLUMN "source_hash" text;