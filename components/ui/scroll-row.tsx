'use client';

import { useLayoutEffect, useRef, type ReactNode } from 'react';

// Opens with its current item in view: a tab chosen past the right edge would be active but hidden.
export function ScrollRow({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const row = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const scroller = row.current;
    const current = scroller?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!scroller || !current) return;
    const left = current.getBoundingClientRect().left - scroller.getBoundingClientRect().left + scroller.scrollLeft;
    const right = left + current.offsetWidth;
    if (left < scroller.scrollLeft || right > scroller.scrollLeft + scroller.clientWidth) {
      scroller.scrollLeft = Math.max(0, left - (scroller.clientWidth - current.offsetWidth) / 2);
    }
  });
  return (
    <nav ref={row} aria-label={label} className={className}>
      {children}
    </nav>
  );
}
