export const root: string;
export const compiledDir: string;
export const stampPath: string;
export function nextDistDir(tree?: string): string;
export function sourceFingerprint(tree?: string): string;
export function buildState(tree?: string): 'missing' | 'stale' | 'current';
export const STALE_BUILD_MESSAGE: string;
