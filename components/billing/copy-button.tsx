'use client';

import { useState } from 'react';

/** Copies `value` to the clipboard and says so (announced politely to screen readers). */
export function CopyButton({ value, label = 'Copy', testId }: { value: string; label?: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        data-testid={testId}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        {label}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-slate-700">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
