ALTER TABLE "kb_index_stats" ADD COLUMN "search_config" text DEFAULT 'almanac' NOT NULL;--> statement-breakpoint
-- Per-language stemming for hosted knowledge bases (issue 14): Spanish, German and French configurations built like
-- `almanac` (English): accents folded by unaccent, then the language's Snowball stemmer and stop words. PostgreSQL
-- and PGlite both ship these Snowball dictionaries.
CREATE TEXT SEARCH CONFIGURATION almanac_es (COPY = spanish);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION almanac_es ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION almanac_de (COPY = german);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION almanac_de ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION almanac_fr (COPY = french);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION almanac_fr ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;
