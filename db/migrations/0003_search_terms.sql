-- Every word of product names and colours, for correcting typos in search queries:
-- a misspelt word is replaced by its nearest term (pg_trgm similarity) before full-text search.
-- Refreshed after catalogue changes (the seed does it).
CREATE MATERIALIZED VIEW IF NOT EXISTS "search_terms" AS
  SELECT DISTINCT word AS term
  FROM "products", regexp_split_to_table(translate(lower("name" || ' ' || "color_name"), 'ё', 'е'), '[^а-яa-z0-9]+') AS word
  WHERE length(word) >= 3;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "search_terms_term_uq" ON "search_terms" ("term");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);
