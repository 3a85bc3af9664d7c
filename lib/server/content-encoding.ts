/** Answers smaller than this go out as they are: below about one packet, compressing costs more than it saves. */
export const GZIP_MIN_BYTES = 1024;

/** For the answers written in front of Next (Next compresses its own): gzip by name or `*`, with a q above zero. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let accepted = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    // An explicit "gzip;q=0" refuses gzip even when "*" is accepted.
    if (coding === 'gzip') return weight > 0;
    accepted = weight > 0;
  }
  return accepted;
}
