'use client';

import { RedocStandalone } from 'redoc';
import type { RedocRawOptions } from 'redoc';

/**
 * Redoc (bundled from the `redoc` package at build time; nothing is fetched from elsewhere) drawing the reference,
 * in the site's colours and fonts. Loaded only in the browser (see api-reference.tsx).
 */
const SANS = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

const OPTIONS: RedocRawOptions = {
  // The page links the full document itself, above the reference.
  hideDownloadButtons: true,
  // Native scrollbars: the sidebar scrolls with the keyboard and the wheel like the rest of the page.
  nativeScrollbars: true,
  expandResponses: '200',
  requiredPropsFirst: true,
  jsonSamplesExpandLevel: 3,
  hideSchemaPattern: false,
  menuToggle: true,
  // The side menu names each operation by its path (with its method): the summaries are sentences.
  sideNavStyle: 'path-only' as RedocRawOptions['sideNavStyle'],
  // Search runs in a Web Worker made from a blob: URL, which the site's Content-Security-Policy refuses; the reference is short.
  disableSearch: true,
  theme: {
    spacing: { sectionVertical: 28 },
    breakpoints: { medium: '62rem', large: '90rem' },
    colors: {
      primary: { main: '#1f57c9' },
      text: { primary: '#0f172a', secondary: '#334155' },
      http: { get: '#15803d', post: '#1f57c9', put: '#a16207', patch: '#a16207', delete: '#b91c1c', options: '#475569', head: '#475569' },
    },
    typography: {
      fontSize: '15px',
      lineHeight: '1.6',
      fontFamily: SANS,
      smoothing: 'antialiased',
      headings: { fontFamily: SANS, fontWeight: '600' },
      code: { fontFamily: MONO, fontSize: '13px', color: '#0f172a', backgroundColor: '#f1f5f9' },
      links: { color: '#1a47a3', visited: '#1a47a3', hover: '#1f57c9' },
    },
    sidebar: { width: '18rem', backgroundColor: '#f8fafc', textColor: '#0f172a', activeTextColor: '#1a47a3' },
    rightPanel: { backgroundColor: '#0f172a', textColor: '#f1f5f9', width: '40%' },
    codeBlock: { backgroundColor: '#1e293b' },
  },
};

export default function RedocReference({ spec }: { spec: object }) {
  return <RedocStandalone spec={spec} options={OPTIONS} />;
}
