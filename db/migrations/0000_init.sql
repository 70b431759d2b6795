CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"second_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"size_type" text NOT NULL,
	"size" text NOT NULL,
	"intl_size" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"price_kopecks" integer NOT NULL,
	"old_price_kopecks" integer,
	"quantity" integer DEFAULT 0 NOT NULL,
	"preorder" boolean DEFAULT false NOT NULL,
	CONSTRAINT "offers_quantity_nonnegative" CHECK ("offers"."quantity" >= 0),
	CONSTRAINT "offers_price_positive" CHECK ("offers"."price_kopecks" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"order_id" integer NOT NULL,
	"offer_id" integer NOT NULL,
	"title" text NOT NULL,
	"size" text NOT NULL,
	"color" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"price_kopecks" integer NOT NULL,
	"quantity" integer NOT NULL,
	"is_preorder" boolean DEFAULT false NOT NULL,
	CONSTRAINT "order_items_order_id_offer_id_pk" PRIMARY KEY("order_id","offer_id"),
	CONSTRAINT "order_items_quantity_positive" CHECK ("order_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"status" text NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"items_total_kopecks" integer NOT NULL,
	"delivery_cost_kopecks" integer DEFAULT 0 NOT NULL,
	"total_kopecks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_meta" (
	"path" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"keywords" text NOT NULL,
	"seo_bottom" text,
	"seo_description" text
);
--> statement-breakpoint
CREATE TABLE "product_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	"path" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"art" jsonb
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"section_id" integer NOT NULL,
	"kind" text NOT NULL,
	"color_name" text NOT NULL,
	"color_code" text NOT NULL,
	"color_hex" text NOT NULL,
	"group_key" text NOT NULL,
	"is_new" boolean DEFAULT false NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"price_kopecks" integer NOT NULL,
	"old_price_kopecks" integer,
	"article" text NOT NULL,
	"properties" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_positive" CHECK ("products"."price_kopecks" > 0),
	CONSTRAINT "products_old_price" CHECK ("products"."old_price_kopecks" is null or "products"."old_price_kopecks" > "products"."price_kopecks")
);
--> statement-breakpoint
CREATE TABLE "redirects" (
	"from_path" text PRIMARY KEY NOT NULL,
	"to_url" text NOT NULL,
	"status" integer DEFAULT 301 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"parent_id" integer,
	"sort" integer DEFAULT 500 NOT NULL,
	"kind" text DEFAULT 'category' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_photos" ADD CONSTRAINT "product_photos_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_phone_uq" ON "customers" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_product_size_uq" ON "offers" USING btree ("product_id","size");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_photos_product_pos_uq" ON "product_photos" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_photos_path_uq" ON "product_photos" USING btree ("path");--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_uq" ON "products" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "products_section_idx" ON "products" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "products_group_idx" ON "products" USING btree ("group_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sections_code_uq" ON "sections" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "sections_url_uq" ON "sections" USING btree ("url");