/** Back matter ("References", "See also") and disclaimers answer nothing: searchable, but the reader and gate skip them. */
const BACK_MATTER =
  /^(references|notes|notes and references|citations|sources|bibliography|further reading|see also|external links|footnotes|works cited|referencias|notas|bibliograf[ií]a|enlaces externos|v[ée]ase tambi[ée]n|einzelnachweise|literatur|weblinks|anmerkungen|quellen|siehe auch|r[ée]f[ée]rences|notes et r[ée]f[ée]rences|bibliographie|liens externes|voir aussi)\s*[:.]?$/i;

export function isBackMatter(heading: string | null): boolean {
  if (!heading) return false;
  return heading.split(' > ').some((h) =>
    BACK_MATTER.test(
      h
        .replace(/^[\d.\s]+/, '')
        .replace(/\(\s*edit\s*\)/i, '')
        .trim(),
    ),
  );
}

const DISCLAIMER = [
  /\b(sample|example|demo|placeholder) content\b/i,
  /\bnot\s+((legal|medical|professional|financial|tax|clinical|individual|dietary|investment|personal)\s+(or\s+)?){0,3}advice\b/i,
  /\bnot an? (official|academic) (\w+ )?(document|text|source|publication)\b/i,
  /\bfor (general )?information(al)? (purposes )?only\b/i,
  /\b(marked|labell?ed) (as )?fictional\b/i,
  /\bkeine\b[^.;]{0,40}beratung\b/i,
  /\bBeispielinhalt\b/i,
  /\bno constituye\b[^.;]{0,40}\basesor/i,
  /\bcontenido de (ejemplo|muestra)\b/i,
  /\bne constitue pas\b[^.;]{0,40}\bconseil/i,
  /\bcontenu (d['’]exemple|fictif)\b/i,
];

const DISCLAIMER_MAX_WORDS = 30;

export function isDisclaimer(sentence: string): boolean {
  return sentence.split(/\s+/).length <= DISCLAIMER_MAX_WORDS && DISCLAIMER.some((rule) => rule.test(sentence));
}

/** So that back matter among the passages retrieved does not crowd out text. */
export const BACK_MATTER_SPARE = 3;

export function withoutBackMatter<T extends { heading: string | null }>(chunks: T[], limit: number): T[] {
  return chunks.filter((c) => !isBackMatter(c.heading)).slice(0, limit);
}
