CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "catalog_terms" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_search" ADD COLUMN "title_vector" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
CREATE INDEX "catalog_terms_trgm_idx" ON "catalog_terms" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
-- Text as people type it (issue 17): dotted abbreviations lose their dots ("U.S." → "US", "U.S.A." → "USA",
-- "e.g." → "eg"); PostgreSQL's parser read "U.S" as a file name, a lexeme no typed word could match.
-- lib/catalog/search-query.ts applies the same rule to what is typed.
CREATE FUNCTION almanac_search_text(body text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(coalesce(body, ''), '\m([[:alpha:]])\.(?=[[:alpha:]]\M)', '\1', 'g') $$;
--> statement-breakpoint
-- The stripped, stemmed vector of a text, plus the words written in capitals that English drops as stop words
-- ("WHO", "IT", "OR"), unstemmed: a search typed in capitals finds them (search-query.ts ORs the simple form in).
CREATE FUNCTION almanac_text_vector(body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT strip(to_tsvector('almanac', t) || to_tsvector('almanac_simple', coalesce(
          (SELECT string_agg(m[1], ' ') FROM regexp_matches(t, '\m([[:upper:]]{2,})\M', 'g') AS m
            WHERE to_tsvector('almanac', m[1]) = ''::tsvector), '')))
        FROM almanac_search_text(body) AS t $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION almanac_catalog_vector(title text, publisher_name text, tags text[], summary text, description text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT almanac_text_vector(concat_ws(' ', title, publisher_name, array_to_string(tags, ' '), summary, description)) $$;
--> statement-breakpoint
-- catalog_words as before; catalog_terms gets every plain word that is not a stop word (the "Did you mean" vocabulary).
CREATE OR REPLACE FUNCTION catalog_words_add(body text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO catalog_words (word, lexeme)
  SELECT DISTINCT w.word, s.lexeme
  FROM unnest(tsvector_to_array(to_tsvector('almanac_simple', body))) AS w(word)
  CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('almanac', w.word))) AS s(lexeme)
  WHERE w.word ~ '^[a-z0-9]+$' AND s.lexeme <> w.word
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  INSERT INTO catalog_terms (word)
  SELECT DISTINCT w.word
  FROM unnest(tsvector_to_array(to_tsvector('almanac_simple', almanac_search_text(body)))) AS w(word)
  WHERE w.word ~ '^[a-z]{3,32}$' AND to_tsvector('almanac', w.word) <> ''::tsvector
  ORDER BY 1
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  publisher_name text;
BEGIN
  IF NEW.status <> 'published' THEN
    DELETE FROM catalog_search WHERE kb_id = NEW.id;
    RETURN NULL;
  END IF;
  -- Counters change far more often than text (every usage flush, every subscription): keep the vectors then.
  IF TG_OP = 'UPDATE' AND OLD.status = 'published'
     AND NEW.title = OLD.title AND NEW.summary = OLD.summary AND NEW.description = OLD.description
     AND NEW.tags = OLD.tags AND NEW.publisher_id = OLD.publisher_id THEN
    IF NEW.category = OLD.category AND NEW.subscribers_count = OLD.subscribers_count
       AND NEW.query_volume = OLD.query_volume AND NEW.created_at = OLD.created_at AND NEW.updated_at = OLD.updated_at THEN
      RETURN NULL;
    END IF;
    UPDATE catalog_search
       SET category = NEW.category, subscribers_count = NEW.subscribers_count, query_volume = NEW.query_volume,
           created_at = NEW.created_at, updated_at = NEW.updated_at
     WHERE kb_id = NEW.id;
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  SELECT name INTO publisher_name FROM publishers WHERE id = NEW.publisher_id;
  PERFORM catalog_words_add(concat_ws(' ', NEW.title, publisher_name, array_to_string(NEW.tags, ' '), NEW.summary, NEW.description));
  INSERT INTO catalog_search (kb_id, category, tags, subscribers_count, query_volume, created_at, updated_at, search_vector, title_vector)
  VALUES (NEW.id, NEW.category, NEW.tags, NEW.subscribers_count, NEW.query_volume, NEW.created_at, NEW.updated_at,
          almanac_catalog_vector(NEW.title, publisher_name, NEW.tags, NEW.summary, NEW.description), almanac_text_vector(NEW.title))
  ON CONFLICT (kb_id) DO UPDATE
    SET category = EXCLUDED.category, tags = EXCLUDED.tags, subscribers_count = EXCLUDED.subscribers_count,
        query_volume = EXCLUDED.query_volume, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
        search_vector = EXCLUDED.search_vector, title_vector = EXCLUDED.title_vector;
  RETURN NULL;
END
$$;
--> statement-breakpoint
SELECT catalog_words_add(concat_ws(' ', k.title, p.name, array_to_string(k.tags, ' '), k.summary, k.description))
FROM knowledge_bases k JOIN publishers p ON p.id = k.publisher_id
WHERE k.status = 'published';
--> statement-breakpoint
UPDATE catalog_search s
   SET search_vector = almanac_catalog_vector(k.title, p.name, k.tags, k.summary, k.description),
       title_vector = almanac_text_vector(k.title)
  FROM knowledge_bases k JOIN publishers p ON p.id = k.publisher_id
 WHERE s.kb_id = k.id;
