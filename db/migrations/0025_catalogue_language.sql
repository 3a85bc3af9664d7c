ALTER TABLE "catalog_search" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
CREATE INDEX "catalog_search_language_idx" ON "catalog_search" USING btree ("language");
--> statement-breakpoint
-- The catalogue's language filter (issue 32): the projection carries the primary subtag of the knowledge base's
-- language, lower-case, so that `language=pt` finds `pt` and `pt-BR` through an index like the other filters.
CREATE OR REPLACE FUNCTION catalog_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  publisher_name text;
  primary_language text := split_part(lower(NEW.language), '-', 1);
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
       AND NEW.query_volume = OLD.query_volume AND NEW.created_at = OLD.created_at AND NEW.updated_at = OLD.updated_at
       AND NEW.language = OLD.language THEN
      RETURN NULL;
    END IF;
    UPDATE catalog_search
       SET category = NEW.category, subscribers_count = NEW.subscribers_count, query_volume = NEW.query_volume,
           created_at = NEW.created_at, updated_at = NEW.updated_at, language = primary_language
     WHERE kb_id = NEW.id;
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  SELECT name INTO publisher_name FROM publishers WHERE id = NEW.publisher_id;
  PERFORM catalog_words_add(concat_ws(' ', NEW.title, publisher_name, array_to_string(NEW.tags, ' '), NEW.summary, NEW.description));
  INSERT INTO catalog_search (kb_id, category, tags, subscribers_count, query_volume, created_at, updated_at, search_vector, title_vector, language)
  VALUES (NEW.id, NEW.category, NEW.tags, NEW.subscribers_count, NEW.query_volume, NEW.created_at, NEW.updated_at,
          almanac_catalog_vector(NEW.title, publisher_name, NEW.tags, NEW.summary, NEW.description), almanac_text_vector(NEW.title),
          primary_language)
  ON CONFLICT (kb_id) DO UPDATE
    SET category = EXCLUDED.category, tags = EXCLUDED.tags, subscribers_count = EXCLUDED.subscribers_count,
        query_volume = EXCLUDED.query_volume, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
        search_vector = EXCLUDED.search_vector, title_vector = EXCLUDED.title_vector, language = EXCLUDED.language;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER catalog_search_sync_trigger ON knowledge_bases;
--> statement-breakpoint
CREATE TRIGGER catalog_search_sync_trigger
  AFTER INSERT OR UPDATE OF status, title, summary, description, tags, publisher_id, category, subscribers_count,
    query_volume, created_at, updated_at, language ON knowledge_bases
  FOR EACH ROW EXECUTE FUNCTION catalog_search_sync();
--> statement-breakpoint
UPDATE catalog_search s SET language = split_part(lower(k.language), '-', 1) FROM knowledge_bases k WHERE s.kb_id = k.id;
