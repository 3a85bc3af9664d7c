'use client';

import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Citation } from '@/lib/query-answer';

export type TryItState =
  | { status: 'idle' }
  | { status: 'answered'; query: string; answer: string; citations: Citation[]; costNote: string; answeredNote: string }
  | { status: 'error'; query: string; message: string; code: string; upgradeUrl?: string; costNote?: string };

export type TryItAction = (previous: TryItState, formData: FormData) => Promise<TryItState>;

// The buyer's "Try it" (docs/api.md §10.6); a plain form post without JavaScript too (a sample button submits its
// question as `sample`, which the action prefers).
export function TryItForm({
  kbId,
  action,
  costNote,
  sampleQuestions,
  maxQueryChars,
  disabled = false,
}: {
  kbId: string;
  action: TryItAction;
  costNote: string;
  sampleQuestions: string[];
  /** MAX_QUERY_CHARS, passed down: a client component cannot import lib/. */
  maxQueryChars: number;
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState<TryItState, FormData>(action, { status: 'idle' });
  const note = (state.status !== 'idle' && state.costNote) || costNote;
  const sampleQuestion = sampleQuestions[0];
  // The hint speaks of the example question, so it goes once the buyer writes their own.
  const [ownQuestion, setOwnQuestion] = useState(false);
  const showHint = Boolean(sampleQuestion) && state.status === 'idle' && !ownQuestion;
  const off = disabled || pending || (state.status === 'error' && state.code === 'preview_limit_reached');
  return (
    <div>
      <form action={formAction} className="mt-3">
        <input type="hidden" name="kbId" value={kbId} />
        {sampleQuestions.length > 0 ? (
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">Ask a sample question</legend>
            <ul className="mt-2 flex flex-col gap-2">
              {sampleQuestions.map((q) => (
                <li key={q}>
                  <button
                    type="submit"
                    name="sample"
                    value={q}
                    disabled={off}
                    className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-left text-sm text-slate-800 hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
                  >
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
        <label htmlFor="try-it-query" className="mt-4 block text-sm font-medium text-slate-900">
          Your question
        </label>
        {showHint ? (
          <p id="try-it-hint" className="mt-0.5 text-sm text-slate-700">
            Filled in with an example question from this knowledge base: ask it as it is or write your own.
          </p>
        ) : null}
        <textarea
          id="try-it-query"
          name="query"
          maxLength={maxQueryChars}
          rows={3}
          defaultValue={state.status === 'idle' ? (sampleQuestion ?? '') : state.query}
          placeholder="Ask something this knowledge base covers"
          onChange={(event) => setOwnQuestion(event.target.value !== sampleQuestion)}
          aria-describedby={showHint ? 'try-it-hint try-it-cost' : 'try-it-cost'}
          className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-600"
        />
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={off}>
            {pending ? 'Asking…' : 'Ask'}
          </Button>
          <p id="try-it-cost" className="text-sm text-slate-700" data-testid="try-it-usage">
            {note}
          </p>
        </div>
      </form>
      <div aria-live="polite" className="mt-4">
        {state.status === 'error' ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
            {state.message}{' '}
            {state.upgradeUrl ? (
              <a href={state.upgradeUrl} className="font-medium underline">
                Upgrade your plan
              </a>
            ) : null}
          </p>
        ) : null}
        {state.status === 'answered' ? (
          <article className="rounded-md border border-slate-200 bg-slate-50 p-4" data-testid="try-it-answer">
            <h3 className="text-sm font-semibold text-slate-900">Answer</h3>
            <p className="mt-1 text-sm text-slate-700">
              <span className="sr-only">To: </span>
              <q>{state.query}</q>
            </p>
            <p className="mt-2 whitespace-pre-line text-sm text-slate-900">{state.answer}</p>
            {state.citations.length > 0 ? (
              <>
                <h3 className="mt-4 text-sm font-semibold text-slate-900">Sources</h3>
                <ol className="mt-1 list-decimal space-y-2 pl-5 text-sm">
                  {state.citations.map((c, i) => (
                    <li key={`${c.document_id}-${i}`}>
                      <span className="font-medium text-slate-900">{c.title}</span>
                      {c.page !== null ? <span className="text-slate-700">, page {c.page}</span> : null}
                      <blockquote className="mt-1 border-l-2 border-slate-300 pl-3 text-slate-700">{c.excerpt}</blockquote>
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p className="mt-3 text-sm text-slate-700">No sources were cited.</p>
            )}
            <p className="mt-3 text-sm text-slate-700">{state.answeredNote}</p>
          </article>
        ) : null}
      </div>
    </div>
  );
}
