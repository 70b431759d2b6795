-- The products' GIN indexes flush their pending list when it reaches gin_pending_list_limit (4 MB
-- by default), inside whichever write crosses it: a 1C import step or a stock change that sold a
-- size out then took 0.2-0.3 s more (held PGlite, and every guest, that long). 256 kB flushes
-- more often, each a sixteenth of the work.
ALTER INDEX "products_search_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "products_name_search_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "products_article_trgm_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "products_name_trgm_idx" SET (gin_pending_list_limit = 256);
