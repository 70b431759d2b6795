CREATE TABLE "promo_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_kopecks" integer,
	"min_basket_kopecks" integer DEFAULT 0 NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"total_limit" integer,
	"per_customer_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"exclude_sale" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "promo_codes_percent" CHECK ("promo_codes"."kind" <> 'percent' or ("promo_codes"."percent" between 1 and 100)),
	CONSTRAINT "promo_codes_amount" CHECK ("promo_codes"."kind" <> 'fixed' or "promo_codes"."amount_kopecks" > 0),
	CONSTRAINT "promo_codes_used" CHECK ("promo_codes"."used_count" >= 0 and ("promo_codes"."total_limit" is null or "promo_codes"."used_count" <= "promo_codes"."total_limit"))
);
--> statement-breakpoint
CREATE TABLE "waiting_list" (
	"id" serial PRIMARY KEY NOT NULL,
	"offer_id" integer NOT NULL,
	"phone" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "offers" DROP CONSTRAINT "offers_price_positive";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_price_positive";--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_order_id_offer_id_pk";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_offer_id_is_preorder_pk" PRIMARY KEY("order_id","offer_id","is_preorder");--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "old_price_kopecks" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount_kopecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "is_gift" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'checkout' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_kopecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_list" ADD CONSTRAINT "waiting_list_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_open_uq" ON "waiting_list" USING btree ("offer_id","phone") WHERE "waiting_list"."notified_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key_uq" ON "orders" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_promo_code_idx" ON "orders" USING btree ("promo_code");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_price_nonnegative" CHECK ("offers"."price_kopecks" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_nonnegative" CHECK ("products"."price_kopecks" >= 0);