import Link from 'next/link';
import { getSessionUser } from '@/lib/session';

/**
 * "Try it" on a knowledge-base page. Signed-out visitors are invited to sign in; the signed-in subscriber
 * form (which runs a real metered query) grows from here.
 */
export async function TryItSection({ kbId }: { kbId: string }) {
  const user = await getSessionUser();
  const returnTo = `/kb/${encodeURIComponent(kbId)}`;
  return (
    <section aria-labelledby="try-it-heading" className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="try-it-heading" className="text-lg font-semibold">
        Try it
      </h2>
      {user ? (
        <p className="mt-2 text-sm text-slate-700">Subscribe to a plan above to ask this knowledge base a question here.</p>
      ) : (
        <p className="mt-2 text-sm text-slate-700">
          <Link href={`/signin?callbackUrl=${encodeURIComponent(returnTo)}`} className="font-medium text-brand-700 underline">
            Sign in and subscribe to try
          </Link>{' '}
          this knowledge base.
        </p>
      )}
    </section>
  );
}
