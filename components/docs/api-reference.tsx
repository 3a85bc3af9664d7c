'use client';

import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';
import './api-reference.css';

/** Redoc measures the window and scrolls it, so it renders in the browser only; until then, a plain line. */
const RedocReference = dynamic(() => import('./redoc-reference'), {
  ssr: false,
  loading: () => (
    <p className="px-4 py-10 text-center text-sm text-slate-700" role="status">
      Loading the reference…
    </p>
  ),
});

/**
 * The reference, with Redoc's floating menu button (narrow screens) shown only while the reference is on screen:
 * above it, over the getting-started text, it covered words and led nowhere nearby.
 */
export function ApiReference({ spec }: { spec: object }) {
  const box = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => setInView(Boolean(entry?.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="almanac-reference" data-testid="api-reference" data-in-view={inView ? '' : undefined}>
      <RedocReference spec={spec} />
    </div>
  );
}
