'use client';

import { useState } from 'react';

/** Copies `text` and says so (politely announced for screen readers). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
    setTimeout(() => setStatus('idle'), 2500);
  }
  return (
    <span className="inline-flex items-center gap-2">
      <span aria-live="polite" className="text-xs text-slate-300">
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed: select the text instead' : ''}
      </span>
      <button
        type="button"
        onClick={copy}
        className="rounded-md border border-slate-600 bg-slate-800 px-2.5 py-1 text-xs font-medium text-slate-100 hover:bg-slate-700"
      >
        {label}
      </button>
    </span>
  );
}
