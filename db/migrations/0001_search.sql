-- Full-text search shared by PGlite and PostgreSQL: English stemming, accent folding, and an unstemmed
-- ("simple") copy of every word so that the last word of a query can be matched as a prefix of the original
-- word ("constitutio" finds "constitution" even though the stem is "constitut").
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION almanac (COPY = english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION almanac ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION almanac_simple (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION almanac_simple ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, hword, hword_part, word WITH unaccent, simple;
--> statement-breakpoint
CREATE FUNCTION almanac_weighted_vector(body text, weight "char") RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT setweight(to_tsvector('almanac', coalesce(body, '')) || to_tsvector('almanac_simple', coalesce(body, '')), weight) $$;
--> statement-breakpoint
CREATE FUNCTION knowledge_bases_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  publisher_name text;
BEGIN
  SELECT name INTO publisher_name FROM publishers WHERE id = NEW.publisher_id;
  NEW.search_vector :=
    almanac_weighted_vector(NEW.title, 'A') ||
    almanac_weighted_vector(publisher_name || ' ' || array_to_string(NEW.tags, ' '), 'B') ||
    almanac_weighted_vector(NEW.summary, 'C') ||
    almanac_weighted_vector(NEW.description, 'D');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER knowledge_bases_search_vector_trigger
  BEFORE INSERT OR UPDATE OF title, summary, description, tags, publisher_id ON knowledge_bases
  FOR EACH ROW EXECUTE FUNCTION knowledge_bases_search_vector();
--> statement-breakpoint
CREATE FUNCTION publishers_rename_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Re-run the knowledge-base trigger so the publisher's new name is searchable.
  UPDATE knowledge_bases SET publisher_id = publisher_id WHERE publisher_id = NEW.id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER publishers_rename_search_trigger
  AFTER UPDATE OF name ON publishers
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION publishers_rename_search();
