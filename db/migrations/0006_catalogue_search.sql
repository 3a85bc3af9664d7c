-- The catalogue's search moves to a narrow projection, catalog_search (see db/schema.ts for why), filled by a
-- trigger on knowledge_bases. Its vector holds English stems only (the unstemmed copy doubled every vector); the
-- prefix match of a partly typed last word longer than its stem uses catalog_words instead (lib/search-query.ts).
DROP TRIGGER knowledge_bases_search_vector_trigger ON knowledge_bases;
--> statement-breakpoint
DROP FUNCTION knowledge_bases_search_vector();
--> statement-breakpoint
DROP FUNCTION almanac_weighted_vector(text, "char");
--> statement-breakpoint
CREATE TABLE "catalog_search" (
	"kb_id" text PRIMARY KEY NOT NULL,
	"category" "category" NOT NULL,
	"tags" text[] NOT NULL,
	"subscribers_count" integer NOT NULL,
	"query_volume" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_words" (
	"word" text NOT NULL,
	"lexeme" text NOT NULL,
	CONSTRAINT "catalog_words_word_lexeme_pk" PRIMARY KEY("word","lexeme")
);
--> statement-breakpoint
DROP INDEX "knowledge_bases_search_idx";--> statement-breakpoint
DROP INDEX "knowledge_bases_tags_idx";--> statement-breakpoint
DROP INDEX "knowledge_bases_popular_idx";--> statement-breakpoint
DROP INDEX "knowledge_bases_new_idx";--> statement-breakpoint
DROP INDEX "knowledge_bases_updated_idx";--> statement-breakpoint
DROP INDEX "knowledge_bases_category_idx";--> statement-breakpoint
ALTER TABLE "catalog_search" ADD CONSTRAINT "catalog_search_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_search_vector_idx" ON "catalog_search" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "catalog_search_tags_idx" ON "catalog_search" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "catalog_search_category_idx" ON "catalog_search" USING btree ("category");--> statement-breakpoint
CREATE INDEX "catalog_search_popular_idx" ON "catalog_search" USING btree ("subscribers_count" DESC NULLS LAST,"query_volume" DESC NULLS LAST,"kb_id");--> statement-breakpoint
CREATE INDEX "catalog_search_new_idx" ON "catalog_search" USING btree ("created_at" DESC NULLS LAST,"kb_id");--> statement-breakpoint
CREATE INDEX "catalog_search_updated_idx" ON "catalog_search" USING btree ("updated_at" DESC NULLS LAST,"kb_id");--> statement-breakpoint
CREATE INDEX "catalog_words_prefix_idx" ON "catalog_words" USING btree ("word" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "knowledge_bases" DROP COLUMN "search_vector";
--> statement-breakpoint
CREATE FUNCTION almanac_catalog_vector(title text, publisher_name text, tags text[], summary text, description text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT strip(to_tsvector('almanac', concat_ws(' ', title, publisher_name, array_to_string(tags, ' '), summary, description))) $$;
--> statement-breakpoint
-- Records each plain word of the text whose stem differs from it. Words are inserted in one order so that two
-- transactions adding the same new words cannot deadlock. Hyphenated words, e-mail addresses, hosts and paths are
-- left out: a typed search word is only letters and digits, and their parts are words of their own.
CREATE FUNCTION catalog_words_add(body text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO catalog_words (word, lexeme)
  SELECT DISTINCT w.word, s.lexeme
  FROM unnest(tsvector_to_array(to_tsvector('almanac_simple', body))) AS w(word)
  CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('almanac', w.word))) AS s(lexeme)
  WHERE w.word ~ '^[a-z0-9]+$' AND s.lexeme <> w.word
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING
$$;
--> statement-breakpoint
CREATE FUNCTION catalog_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  publisher_name text;
BEGIN
  IF NEW.status <> 'published' THEN
    DELETE FROM catalog_search WHERE kb_id = NEW.id;
    RETURN NULL;
  END IF;
  -- Counters change far more often than text (every usage flush, every subscription): keep the vector then.
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
  INSERT INTO catalog_search (kb_id, category, tags, subscribers_count, query_volume, created_at, updated_at, search_vector)
  VALUES (NEW.id, NEW.category, NEW.tags, NEW.subscribers_count, NEW.query_volume, NEW.created_at, NEW.updated_at,
          almanac_catalog_vector(NEW.title, publisher_name, NEW.tags, NEW.summary, NEW.description))
  ON CONFLICT (kb_id) DO UPDATE
    SET category = EXCLUDED.category, tags = EXCLUDED.tags, subscribers_count = EXCLUDED.subscribers_count,
        query_volume = EXCLUDED.query_volume, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
        search_vector = EXCLUDED.search_vector;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER catalog_search_sync_trigger
  AFTER INSERT OR UPDATE OF status, title, summary, description, tags, publisher_id, category, subscribers_count,
    query_volume, created_at, updated_at ON knowledge_bases
  FOR EACH ROW EXECUTE FUNCTION catalog_search_sync();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION publishers_rename_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The publisher's new name becomes searchable in every one of its published knowledge bases.
  PERFORM catalog_words_add(NEW.name);
  UPDATE catalog_search s
     SET search_vector = almanac_catalog_vector(k.title, NEW.name, k.tags, k.summary, k.description)
    FROM knowledge_bases k
   WHERE k.publisher_id = NEW.id AND s.kb_id = k.id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
SELECT catalog_words_add(concat_ws(' ', k.title, p.name, array_to_string(k.tags, ' '), k.summary, k.description))
FROM knowledge_bases k JOIN publishers p ON p.id = k.publisher_id
WHERE k.status = 'published';
--> statement-breakpoint
INSERT INTO catalog_search (kb_id, category, tags, subscribers_count, query_volume, created_at, updated_at, search_vector)
SELECT k.id, k.category, k.tags, k.subscribers_count, k.query_volume, k.created_at, k.updated_at,
       almanac_catalog_vector(k.title, p.name, k.tags, k.summary, k.description)
FROM knowledge_bases k JOIN publishers p ON p.id = k.publisher_id
WHERE k.status = 'published';
