-- Tokens as people write them (docs/api.md §8.1): the text-search parser keeps a domain, an e-mail address, a URL or
-- a dotted number whole ("kraftrecipes.com"), while a question may name its parts ("kraftrecipes"). Every chunk's
-- vector also holds those parts; the question holds both the whole (retrieval's compound terms) and the parts.
CREATE OR REPLACE FUNCTION almanac_compound_parts(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(regexp_replace(m[1], '[^[:alnum:]]+', ' ', 'g'), ' '), '')
  FROM regexp_matches(t, '([[:alnum:]_-]+(?:[.@/:][[:alnum:]_-]+)+)', 'g') AS m
$$;
--> statement-breakpoint
UPDATE chunks c SET search_vector = c.search_vector || to_tsvector(s.search_config::regconfig, almanac_compound_parts(c.content))
FROM kb_index_stats s
WHERE s.kb_id = c.kb_id AND almanac_compound_parts(c.content) <> '';
--> statement-breakpoint
UPDATE chunks SET lexeme_count = (SELECT coalesce(sum(array_length(u.positions, 1)), 0) FROM unnest(search_vector) u)::int;
--> statement-breakpoint
DELETE FROM kb_terms;
--> statement-breakpoint
INSERT INTO kb_terms (kb_id, lexeme, doc_freq)
SELECT c.kb_id, lexeme, count(*)::int FROM chunks c, unnest(tsvector_to_array(c.search_vector)) lexeme GROUP BY c.kb_id, lexeme;
--> statement-breakpoint
UPDATE kb_index_stats s SET total_length = d.len, chunk_count = d.n, updated_at = now()
FROM (SELECT kb_id, count(*)::int AS n, coalesce(sum(lexeme_count), 0)::bigint AS len FROM chunks GROUP BY kb_id) d
WHERE d.kb_id = s.kb_id;
