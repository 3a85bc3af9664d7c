import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">We could not find that page</h1>
      <p className="mt-3 text-slate-700">The knowledge base or publisher may have been removed, or the address may be mistyped.</p>
      <div className="mt-8 flex justify-center gap-3">
        <ButtonLink href="/knowledge-bases">Browse knowledge bases</ButtonLink>
        <ButtonLink href="/" variant="secondary">
          Home
        </ButtonLink>
      </div>
    </div>
  );
}
