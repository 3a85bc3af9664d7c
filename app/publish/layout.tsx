import type { ReactNode } from 'react';
import { ConsoleNav } from '@/components/publish/console-nav';
import { requireSessionUser } from '@/lib/accounts';

export const dynamic = 'force-dynamic';

// Signed-in only; each page still checks the account owns what it shows (lib/publishing/ownership.ts).
export default async function PublishLayout({ children }: { children: ReactNode }) {
  await requireSessionUser('/publish');
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-3">
        <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">Publisher console</p>
        <ConsoleNav />
      </div>
      <div className="mt-6">{children}</div>
    </div>
  );
}
