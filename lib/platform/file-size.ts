/**
 * File sizes in words, and the sentence for a file over the upload limit. Pure and dependency-free: the console's
 * browser code (components/publish/content-manager.tsx) and the server (lib/engine: uploads.ts and ingest.ts; the documents route) say the same
 * thing whichever of them refuses the file.
 */

const UNITS = [
  { name: 'GB', size: 1024 ** 3 },
  { name: 'MB', size: 1024 ** 2 },
  { name: 'KB', size: 1024 },
];

/**
 * 900 → "900 bytes", 1536 → "1.5 KB", 20 MiB → "20 MB", one decimal at most and none when it is 0. `up` rounds up,
 * for a file refused as too large: it must never read as no larger than the limit ("20 MB; the limit is 20 MB").
 */
export function formatFileSize(bytes: number, rounding: 'nearest' | 'up' = 'nearest'): string {
  const unit = UNITS.find((u) => bytes >= u.size);
  if (!unit) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const tenths = (rounding === 'up' ? Math.ceil : Math.round)((bytes / unit.size) * 10);
  return `${(tenths / 10).toFixed(1).replace(/\.0$/, '')} ${unit.name}`;
}

/** "“x.pdf” is 30.2 MB; the limit is 20 MB per file." ("The file is …" without a name). */
export function tooLargeMessage(name: string, bytes: number, limit: number): string {
  return `${name ? `“${name}”` : 'The file'} is ${formatFileSize(bytes, 'up')}; the limit is ${formatFileSize(limit)} per file.`;
}
