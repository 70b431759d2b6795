ALTER TABLE "product_photos" ADD COLUMN "width" integer DEFAULT 1200 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_photos" ADD COLUMN "height" integer DEFAULT 1600 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sizes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('russian', translate(coalesce(name, ''), 'ёЁ', 'еЕ')), 'A') || setweight(to_tsvector('simple', coalesce(article, '')), 'A') || setweight(to_tsvector('russian', translate(coalesce(color_name, ''), 'ёЁ', 'еЕ')), 'B') || setweight(to_tsvector('russian', translate(coalesce(description, ''), 'ёЁ', 'еЕ')), 'D')) STORED;--> statement-breakpoint
CREATE INDEX "products_section_popular_idx" ON "products" USING btree ("section_id","popularity" desc,"id");--> statement-breakpoint
CREATE INDEX "products_section_price_idx" ON "products" USING btree ("section_id","price_kopecks","id");--> statement-breakpoint
CREATE INDEX "products_section_new_idx" ON "products" USING btree ("section_id","created_at" desc,"id");--> statement-breakpoint
CREATE INDEX "products_popular_idx" ON "products" USING btree ("popularity" desc,"id");--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("price_kopecks","id");--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at" desc,"id");--> statement-breakpoint
CREATE INDEX "products_new_popular_idx" ON "products" USING btree ("popularity" desc,"id") WHERE "products"."is_new";--> statement-breakpoint
CREATE INDEX "products_sale_popular_idx" ON "products" USING btree ("popularity" desc,"id") WHERE "products"."old_price_kopecks" is not null;--> statement-breakpoint
CREATE INDEX "products_sizes_idx" ON "products" USING gin ("sizes");--> statement-breakpoint
CREATE INDEX "products_color_idx" ON "products" USING btree ("color_code");--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_article_idx" ON "products" USING btree (lower("article") text_pattern_ops);