/**
 * Reads at positions in range by construction, which `noUncheckedIndexedAccess` types as `T | undefined`: a miss
 * throws a clear error rather than letting `undefined` travel on.
 */
export function itemAt<T>(items: readonly T[], index: number): T {
  if (!Number.isInteger(index) || index < 0 || index >= items.length) {
    throw new RangeError(`index ${index} is outside 0..${items.length - 1}`);
  }
  return items[index] as T;
}

/** The text of a capture group the pattern always fills (one not inside an optional or alternative part). */
export function capture(match: RegExpMatchArray | RegExpExecArray, group: number): string {
  const text = match[group];
  if (text === undefined) throw new RangeError(`capture group ${group} did not take part in the match`);
  return text;
}
