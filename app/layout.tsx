import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Almanac — knowledge bases with a query API', template: '%s · Almanac' },
  description: 'Browse, buy and query curated knowledge bases in education, policy, health, research and law.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
