/** Per-language stemming (docs/api.md §8.1): a knowledge base and its questions are stemmed by one text-search configuration. */
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

export function searchLanguage(tag: string | null | undefined): SearchLanguage {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return primary in SEARCH_CONFIGS ? (primary as SearchLanguage) : 'en';
}

export function searchConfigFor(tag: string | null | undefined): SearchConfig {
  return SEARCH_CONFIGS[searchLanguage(tag)].config;
}

/** Checked against the closed list: it reaches SQL as a ::regconfig cast. */
export function checkedSearchConfig(name: string | null | undefined): SearchConfig {
  return BY_CONFIG.has(name ?? '') ? (name as SearchConfig) : 'almanac';
}

export function stopWordConfig(config: SearchConfig): string {
  return BY_CONFIG.get(config)?.stopWords ?? 'english';
}

export function languageOfConfig(config: SearchConfig): SearchLanguage {
  return BY_CONFIG.get(config)?.language ?? 'en';
}

/** Question words the Snowball stop lists keep ("quel", "wann"): retrieval and the relevance gate ignore them. */
export const QUESTION_WORDS: Record<SearchLanguage, ReadonlySet<string>> = {
  en: new Set(),
  es: new Set(['que', 'cual', 'cuales', 'como', 'cuando', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'donde', 'quien', 'quienes', 'porque']),
  de: new Set(['wann', 'warum', 'wer', 'wieso', 'weshalb', 'wozu', 'woher', 'wohin', 'welch']),
  fr: new Set(['quel', 'quels', 'quelle', 'quelles', 'les', 'comment', 'combien', 'pourquoi', 'quand', 'ou', 'lequel', 'laquelle', 'lesquels']),
};
