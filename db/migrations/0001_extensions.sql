-- Trigram similarity for typo-tolerant search (pg_trgm is a trusted extension on PostgreSQL 13+).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
