'use client';

import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { plural } from '@/lib/platform/format';

type TryResult =
  | {
      ok: true;
      requestId: string;
      latencyMs: number;
      answer: { answer: string; citations: { document_id: string; title: string; excerpt: string; page: number | null }[]; tokens_used: number };
    }
  | { ok: false; requestId: string; latencyMs: number; code: string; reason: string };

// The publisher's "Try it": one question through the listing's own route (lib/routing/console.ts), counted nowhere.
export function TryIt({
  endpoint,
  label,
  submitLabel,
  defaultQuestion = '',
  fixedQuestion,
  maxQueryChars,
}: {
  endpoint: string;
  label: string;
  submitLabel: string;
  defaultQuestion?: string;
  fixedQuestion?: string;
  /** MAX_QUERY_CHARS, passed down: a client component cannot import lib/. */
  maxQueryChars: number;
}) {
  const id = useId();
  const [question, setQuestion] = useState(defaultQuestion);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<TryResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setFailure(null);
    setResult(null);
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: fixedQuestion ?? question }),
      });
      const body = (await response.json().catch(() => null)) as (TryResult & { message?: string }) | null;
      if (response.ok && body) setResult(body);
      else setFailure(body?.message ?? `The server answered ${response.status}.`);
    } catch {
      setFailure('The request failed: check your connection and try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-3">
      {fixedQuestion === undefined ? (
        <div>
          <label htmlFor={`${id}-q`} className="block text-sm font-medium text-slate-800">
            {label}
          </label>
          <input
            id={`${id}-q`}
            value={question}
            onChange={(event) => setQuestion(event.target.value)}
            required
            maxLength={maxQueryChars}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm"
          />
        </div>
      ) : (
        <p className="text-sm text-slate-700">{label}</p>
      )}
      <Button type="submit" variant="secondary" disabled={pending} aria-disabled={pending}>
        {pending ? 'Asking…' : submitLabel}
      </Button>
      <div aria-live="polite" data-testid="try-result">
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        {result?.ok ? (
          <div className="rounded-lg border border-emerald-200 bg-white p-4 text-sm">
            <p className="font-semibold text-emerald-900">
              Answered in {result.latencyMs} ms ·{' '}
              {result.answer.citations.length === 0
                ? 'no citations (an abstention: buyers are not charged)'
                : plural(result.answer.citations.length, 'citation')}
            </p>
            <p className="mt-2 whitespace-pre-wrap text-slate-900" data-testid="try-answer">
              {result.answer.answer}
            </p>
            {result.answer.citations.length > 0 ? (
              <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700">
                {result.answer.citations.map((c, i) => (
                  <li key={`${c.document_id}-${i}`}>
                    <span className="font-medium text-slate-900">{c.title}</span>
                    {c.page ? `, page ${c.page}` : ''}: {c.excerpt.slice(0, 240)}
                  </li>
                ))}
              </ol>
            ) : null}
            <p className="mt-2 text-xs text-slate-600">Request id {result.requestId}</p>
          </div>
        ) : null}
        {result && !result.ok ? (
          <Alert tone="error" title={`${result.code} after ${result.latencyMs} ms`}>
            <span data-testid="try-failure">{result.reason}</span>
            <span className="block text-xs">Request id {result.requestId}</span>
          </Alert>
        ) : null}
      </div>
    </form>
  );
}
