'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** Without JavaScript the button could open nothing, so a phone gets the links as a wrapped row. */
const WITHOUT_SCRIPTS = `@media (max-width: 767.98px) {
  [data-header-menu] { flex-basis: 100%; }
  [data-header-menu-button] { display: none !important; }
  [data-header-panel] ul { flex-direction: row; }
  [data-header-panel] { display: flex !important; position: static; flex-flow: row wrap; align-items: center; padding: 0; border: 0; box-shadow: none; }
}`;

// The header's links: a row from `md` up, a "Menu" disclosure on a phone. The same elements serve both layouts, so
// nothing is rendered twice for assistive technology.
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);

  return (
    <div ref={root} data-header-menu="" className="flex items-center md:flex-1">
      <button
        ref={button}
        type="button"
        data-header-menu-button=""
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50 md:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
        </svg>
        Menu
      </button>
      <div
        id={panelId}
        data-header-panel={open ? 'open' : 'closed'}
        // A followed link keeps this layout mounted, so the panel would stay open over the next page.
        onClick={(event) => {
          if (event.target instanceof Element && event.target.closest('a')) setOpen(false);
        }}
        onSubmit={() => setOpen(false)}
        className={`${open ? 'flex' : 'hidden'} absolute inset-x-0 top-full z-40 flex-col gap-3 border-b border-slate-200 bg-white px-4 py-4 shadow-lg md:static md:z-auto md:flex md:flex-1 md:flex-row md:items-center md:justify-between md:gap-2 md:border-0 md:p-0 md:shadow-none`}
      >
        {children}
      </div>
      <noscript>
        <style>{WITHOUT_SCRIPTS}</style>
      </noscript>
    </div>
  );
}
