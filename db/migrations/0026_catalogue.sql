CREATE TABLE "product_sections" (
	"product_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	CONSTRAINT "product_sections_product_id_section_id_pk" PRIMARY KEY("product_id","section_id")
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "in_menu" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "product_sections" ADD CONSTRAINT "product_sections_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sections" ADD CONSTRAINT "product_sections_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_sections_section_idx" ON "product_sections" USING btree ("section_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_barcode_uq" ON "offers" USING btree ("barcode") WHERE "offers"."barcode" is not null;--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
-- The typo index (0003) becomes a table kept in step by whoever changes a product's name or colour
-- (models/search-terms.server.ts): a materialized view is refreshed whole, too slow per edit at 100 000 products.
CREATE TABLE "search_terms_new" ("term" text PRIMARY KEY NOT NULL);--> statement-breakpoint
INSERT INTO "search_terms_new" ("term") SELECT "term" FROM "search_terms" ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP MATERIALIZED VIEW "search_terms";--> statement-breakpoint
ALTER TABLE "search_terms_new" RENAME TO "search_terms";--> statement-breakpoint
ALTER TABLE "search_terms" RENAME CONSTRAINT "search_terms_new_pkey" TO "search_terms_pkey";--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);
