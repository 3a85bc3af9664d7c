'use client';

import { signIn } from 'next-auth/react';
import { Button } from '@/components/ui/button';

/** OAuth sign-in goes through next-auth's own endpoints (they need its CSRF token), hence a client button. */
export function OAuthButtons({ providers, callbackUrl }: { providers: { id: string; name: string }[]; callbackUrl: string }) {
  if (providers.length === 0) return null;
  return (
    <div className="mt-6 space-y-2 border-t border-slate-200 pt-6">
      {providers.map((p) => (
        <Button key={p.id} type="button" variant="secondary" className="w-full" onClick={() => void signIn(p.id, { callbackUrl })}>
          Continue with {p.name}
        </Button>
      ))}
    </div>
  );
}
