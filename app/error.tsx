'use client';

import { Button, ButtonLink } from '@/components/ui/button';

/** Shown when a page fails on the server; the digest lets support find the logged error. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center" role="alert">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Something went wrong</h1>
      <p className="mt-3 text-slate-700">This page could not be loaded. Please try again in a moment.</p>
      {error.digest ? <p className="mt-2 text-xs text-slate-600">Reference: {error.digest}</p> : null}
      <div className="mt-8 flex justify-center gap-3">
        <Button onClick={reset}>Try again</Button>
        <ButtonLink href="/knowledge-bases" variant="secondary">
          Browse knowledge bases
        </ButtonLink>
      </div>
    </div>
  );
}
