import { cx } from '@/components/ui/cx';

// A publisher's initials on a colour chosen from its slug, stable across renames. Decorative: the name is always beside
// it. White on the 700 shades keeps contrast at 4.5:1 or more.
const PALETTE = [
  { className: 'bg-sky-700', hex: '#0369a1' },
  { className: 'bg-emerald-700', hex: '#047857' },
  { className: 'bg-violet-700', hex: '#6d28d9' },
  { className: 'bg-rose-700', hex: '#be123c' },
  { className: 'bg-amber-700', hex: '#b45309' },
  { className: 'bg-teal-700', hex: '#0f766e' },
  { className: 'bg-indigo-700', hex: '#4338ca' },
  { className: 'bg-fuchsia-700', hex: '#a21caf' },
] as const;

export function publisherInitials(name: string): string {
  const words = name
    .split(/[\s\-–—_/&]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  const significant = words.filter((w) => !/^(the|of|and|for|de|la|le|der|die|das|du|des|el|los|las)$/i.test(w));
  const chosen = (significant.length > 0 ? significant : words).slice(0, 2);
  return chosen.map((w) => [...w][0]!.toUpperCase()).join('') || '?';
}

function paletteEntry(key: string): (typeof PALETTE)[number] {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

export function publisherColour(key: string): string {
  return paletteEntry(key).className;
}

/** For images drawn without CSS classes (the social preview). */
export function publisherColourHex(key: string): string {
  return paletteEntry(key).hex;
}

export function PublisherMark({ name, slug, size = 'sm' }: { name: string; slug: string; size?: 'sm' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'inline-grid shrink-0 place-items-center rounded-full font-semibold text-white',
        size === 'sm' ? 'h-6 w-6 text-[0.625rem]' : 'h-14 w-14 text-lg',
        publisherColour(slug || name),
      )}
    >
      {publisherInitials(name)}
    </span>
  );
}
