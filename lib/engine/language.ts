/**
 * Per-language stemming (migration 0010): each supported language has a text-search configuration that folds
 * accents and applies the language's Snowball stemmer and stop words. A knowledge base is indexed with the
 * configuration of its language (kb_index_stats.search_config, set when its index is first built or rebuilt) and
 * its questions are stemmed with the same one. Other languages use English, as before.
 */
export const SEARCH_CONFIGS = {
  en: { config: 'almanac', stopWords: 'english' },
  es: { config: 'almanac_es', stopWords: 'spanish' },
  de: { config: 'almanac_de', stopWords: 'german' },
  fr: { config: 'almanac_fr', stopWords: 'french' },
} as const;

export type SearchConfig = (typeof SEARCH_CONFIGS)[keyof typeof SEARCH_CONFIGS]['config'];
export type SearchLanguage = keyof typeof SEARCH_CONFIGS;

const BY_CONFIG = new Map<string, { language: SearchLanguage; stopWords: string }>(
  Object.entries(SEARCH_CONFIGS).map(([language, c]) => [c.config, { language: language as SearchLanguage, stopWords: c.stopWords }]),
);

/** The language of a BCP 47 tag (`es`, `es-MX`, `de-AT`…) that has its own stemming, else English. */
export function searchLanguage(tag: string | null | undefined): SearchLanguage {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return primary in SEARCH_CONFIGS ? (primary as SearchLanguage) : 'en';
}

export function searchConfigFor(tag: string | null | undefined): SearchConfig {
  return SEARCH_CONFIGS[searchLanguage(tag)].config;
}

/** A stored configuration name checked against the closed list (it reaches SQL as a ::regconfig cast). */
export function checkedSearchConfig(name: string | null | undefined): SearchConfig {
  return BY_CONFIG.has(name ?? '') ? (name as SearchConfig) : 'almanac';
}

/** The stock PostgreSQL configuration whose stop-word list applies to a question in this configuration. */
export function stopWordConfig(config: SearchConfig): string {
  return BY_CONFIG.get(config)?.stopWords ?? 'english';
}

export function languageOfConfig(config: SearchConfig): SearchLanguage {
  return BY_CONFIG.get(config)?.language ?? 'en';
}

/**
 * Question words the Snowball stop lists keep ("quel", "cómo", "wann", "combien"): they frame a question in the
 * knowledge base's language and name nothing in it, so retrieval and the relevance gate ignore them. Folded spelling.
 */
export const QUESTION_WORDS: Record<SearchLanguage, ReadonlySet<string>> = {
  en: new Set(),
  es: new Set(['que', 'cual', 'cuales', 'como', 'cuando', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'donde', 'quien', 'quienes', 'porque']),
  de: new Set(['wann', 'warum', 'wer', 'wieso', 'weshalb', 'wozu', 'woher', 'wohin', 'welch']),
  fr: new Set(['quel', 'quels', 'quelle', 'quelles', 'les', 'comment', 'combien', 'pourquoi', 'quand', 'ou', 'lequel', 'laquelle', 'lesquels']),
};
