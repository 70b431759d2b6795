-- Flag-built sections say what they are built from (core/catalog-scope.ts), instead of code checks.
UPDATE "sections" SET "kind" = 'new' WHERE "code" = 'new-collection';--> statement-breakpoint
UPDATE "sections" SET "kind" = 'sale' WHERE "code" = 'promo';--> statement-breakpoint
UPDATE "sections" SET "kind" = 'category' WHERE "kind" NOT IN ('category', 'new', 'sale');
