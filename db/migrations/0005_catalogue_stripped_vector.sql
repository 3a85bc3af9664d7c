-- The catalogue filters by full text but never ranks by it (its orders are popularity, creation and update), so the
-- knowledge-base vector needs neither positions nor weights. strip() roughly halves each row, which keeps the heap
-- of a large catalogue in shared buffers and makes exact search totals (a count over every matching row) cheaper.
CREATE OR REPLACE FUNCTION knowledge_bases_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  publisher_name text;
BEGIN
  SELECT name INTO publisher_name FROM publishers WHERE id = NEW.publisher_id;
  NEW.search_vector := strip(
    almanac_weighted_vector(NEW.title, 'A') ||
    almanac_weighted_vector(publisher_name || ' ' || array_to_string(NEW.tags, ' '), 'B') ||
    almanac_weighted_vector(NEW.summary, 'C') ||
    almanac_weighted_vector(NEW.description, 'D'));
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- Re-run the trigger for existing rows (the column list of the trigger includes publisher_id).
UPDATE knowledge_bases SET publisher_id = publisher_id;
