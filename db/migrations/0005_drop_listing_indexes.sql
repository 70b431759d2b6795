DROP INDEX "products_section_popular_idx";--> statement-breakpoint
DROP INDEX "products_section_price_idx";--> statement-breakpoint
DROP INDEX "products_section_new_idx";--> statement-breakpoint
DROP INDEX "products_price_idx";--> statement-breakpoint
DROP INDEX "products_created_idx";--> statement-breakpoint
DROP INDEX "products_new_popular_idx";--> statement-breakpoint
DROP INDEX "products_sale_popular_idx";--> statement-breakpoint
DROP INDEX "products_sizes_idx";--> statement-breakpoint
DROP INDEX "products_color_idx";