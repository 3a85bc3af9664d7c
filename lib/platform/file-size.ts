// File sizes in words, pure and dependency-free, so the console's browser code and the server say the same thing
// whichever of them refuses a file.

const UNITS = [
  { name: 'GB', size: 1024 ** 3 },
  { name: 'MB', size: 1024 ** 2 },
  { name: 'KB', size: 1024 },
];

/** One decimal at most. `up` is for a refused file, which must never read as no larger than the limit. */
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
