'use client';

import { useActionState, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { KnowledgeBaseCard } from '@/components/marketplace/knowledge-base-card';
import { Field, TextAreaField as TextArea } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from './form-state';
import { MarkdownText } from '@/components/marketplace/markdown';
import type { Category } from '@/lib/catalog';
import type { ListingLimits } from '@/lib/publishing';
import { FormError } from '@/components/ui/alert';

/** The browser cuts a paste beyond the limit without a word, so at the limit the count says so. */
export function descriptionCount(text: string, max: number): string {
  const used = `${text.length.toLocaleString('en-US')} of ${max.toLocaleString('en-US')} characters`;
  return text.length >= max ? `${used}: the limit, so text pasted beyond it was left out.` : `${used}.`;
}

export interface ListingValues {
  title: string;
  summary: string;
  description: string;
  category: string;
  tags: string;
  language: string;
  licence: string;
  sampleQuestions: string;
  previewsEnabled?: 'true' | 'false';
  backendKind: 'hosted' | 'http';
}

const LANGUAGES = [
  ['en', 'English'],
  ['es', 'Spanish'],
  ['de', 'German'],
  ['fr', 'French'],
  ['pt', 'Portuguese'],
  ['it', 'Italian'],
  ['nl', 'Dutch'],
] as const;

const LICENCES = ['CC BY 4.0', 'CC BY-SA 4.0', 'CC BY-NC 4.0', 'CC0 1.0', 'Proprietary'];

/** Mirrors normaliseTags (lib/publishing/rules.ts), which has the last word on save. */
const previewTags = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim().toLowerCase().replace(/\s+/g, '-'))
      .filter(Boolean),
  ),
];

const selectClass = 'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm';

// The listing editor (docs/api.md §9.1), with a live preview of the card and page buyers will see. The backend kind is
// chosen only when the listing is created.
export function ListingForm({
  action,
  initial,
  kbId,
  publisherName,
  categories,
  knownTags,
  formToken,
  submitLabel,
  updatedAt,
  limits,
}: {
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  /** LISTING_LIMITS, passed by the page: a client component cannot import lib/. */
  limits: ListingLimits;
  initial: ListingValues;
  /** ISO; today for a new listing. */
  updatedAt: string;
  kbId?: string;
  publisherName: string;
  categories: { value: string; label: string }[];
  knownTags: string[];
  formToken?: string;
  submitLabel: string;
}) {
  const [state, formAction] = useActionState(action, { fieldErrors: {} });
  const [v, setV] = useState(initial);
  // A refused field's message hides once the browser's own constraints pass (the server checks again on save). Keyed
  // by the answer, so a new refusal shows all of its messages again.
  const [edited, setEdited] = useState<{ of: FormState; keys: string[] }>({ of: state, keys: [] });
  const editedKeys = edited.of === state ? edited.keys : [];
  const set = (key: keyof ListingValues) => (event: { target: { value: string; validity?: ValidityState } }) => {
    setV((old) => ({ ...old, [key]: event.target.value }));
    if (!state.fieldErrors[key]) return;
    const fixed = event.target.validity?.valid ?? true;
    if (fixed && !editedKeys.includes(key)) setEdited({ of: state, keys: [...editedKeys, key] });
    if (!fixed && editedKeys.includes(key)) setEdited({ of: state, keys: editedKeys.filter((k) => k !== key) });
  };
  const e = Object.fromEntries(Object.entries(state.fieldErrors).filter(([key]) => !editedKeys.includes(key)));
  const tags = previewTags(v.tags);
  const suggestions = knownTags.filter((t) => !tags.includes(t)).slice(0, 12);
  const questions = v.sampleQuestions
    .split('\n')
    .map((q) => q.trim())
    .filter(Boolean);
  const suggestionList = useRef<HTMLUListElement>(null);
  const [tagNews, setTagNews] = useState('');

  // The button just used disappears with its tag, so focus moves on instead of falling to the page.
  const addTag = (tag: string, index: number) => {
    flushSync(() => {
      setV((old) => ({ ...old, tags: [...previewTags(old.tags), tag].join(', ') }));
      setTagNews(`Added tag ${tag}.`);
    });
    const buttons = suggestionList.current?.querySelectorAll('button') ?? [];
    (buttons[Math.min(index, buttons.length - 1)] ?? document.getElementById('field-tags'))?.focus();
  };

  return (
    // items-start: stretched to a long preview's height, the form's rows would spread down the page.
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)] lg:items-start">
      <form
        action={formAction}
        // After a refused submission React resets the form, and a controlled <select> is not restored (it shows its
        // first option while `v` keeps the value sent); the fields already show what was sent.
        onReset={(event) => event.preventDefault()}
        className="grid min-w-0 gap-5"
        noValidate
      >
        {formToken ? <input type="hidden" name="formToken" value={formToken} /> : null}
        {kbId ? <input type="hidden" name="kbId" value={kbId} /> : null}
        <FormError message={state.message} />
        {Object.keys(e).length > 0 ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
            Nothing was saved: please correct the {Object.keys(e).length === 1 ? 'field' : `${Object.keys(e).length} fields`} marked below.
          </p>
        ) : null}
        <Field
          label="Title"
          name="title"
          value={v.title}
          onChange={set('title')}
          error={e.title}
          required
          minLength={limits.title.min}
          maxLength={limits.title.max}
        />
        <Field
          label="Summary"
          name="summary"
          value={v.summary}
          onChange={set('summary')}
          error={e.summary}
          required
          minLength={limits.summary.min}
          maxLength={limits.summary.max}
          hint={`One or two sentences for the catalogue card (${limits.summary.min}–${limits.summary.max} characters).`}
        />
        <TextArea
          label="Description"
          name="description"
          value={v.description}
          onChange={set('description')}
          error={e.description}
          rows={8}
          maxLength={limits.description.max}
          hint={`Markdown: headings, lists, links, emphasis, code, tables. HTML is not rendered. ${descriptionCount(v.description, limits.description.max)}`}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor="field-category" className="block text-sm font-medium text-slate-800">
              Category
            </label>
            <select
              id="field-category"
              name="category"
              value={v.category}
              onChange={set('category')}
              required
              className={selectClass}
              aria-invalid={e.category ? true : undefined}
              aria-describedby={e.category ? 'field-category-error' : undefined}
            >
              <option value="">Choose a category</option>
              {categories.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
            {e.category ? (
              <p id="field-category-error" className="mt-1 text-sm font-medium text-red-700">
                {e.category}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="field-language" className="block text-sm font-medium text-slate-800">
              Language of the content
            </label>
            <select id="field-language" name="language" value={v.language} onChange={set('language')} className={selectClass}>
              {LANGUAGES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name} ({code})
                </option>
              ))}
            </select>
            {e.language ? <p className="mt-1 text-sm font-medium text-red-700">{e.language}</p> : null}
          </div>
        </div>
        <div>
          <Field
            label="Tags"
            name="tags"
            value={v.tags}
            onChange={set('tags')}
            error={e.tags}
            hint="Comma-separated, up to 8. Stored lower-case with hyphens for spaces; duplicates are dropped."
            autoCapitalize="none"
          />
          {suggestions.length > 0 ? (
            <div className="mt-2">
              <p id="tag-suggestions" className="text-xs text-slate-600">
                Tags already in the catalogue:
              </p>
              <ul ref={suggestionList} className="mt-1 flex flex-wrap gap-1.5" aria-labelledby="tag-suggestions">
                {suggestions.map((t, i) => (
                  <li key={t}>
                    <button
                      type="button"
                      onClick={() => addTag(t, i)}
                      className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-800 hover:bg-slate-50"
                    >
                      <span aria-hidden="true">+ </span>
                      <span className="sr-only">Add tag </span>
                      {t}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <p aria-live="polite" className="sr-only">
            {tagNews}
          </p>
        </div>
        <div>
          <Field
            label="Licence"
            name="licence"
            value={v.licence}
            onChange={set('licence')}
            error={e.licence}
            required
            minLength={limits.licence.min}
            maxLength={limits.licence.max}
            list="licence-options"
            hint="Under what terms buyers may use the answers, e.g. CC BY 4.0."
          />
          <datalist id="licence-options">
            {LICENCES.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </div>
        <TextArea
          label="Sample questions"
          name="sampleQuestions"
          value={v.sampleQuestions}
          onChange={set('sampleQuestions')}
          error={e.sampleQuestions}
          rows={4}
          hint="One per line, up to 6: shown on the page so buyers know what to ask."
        />
        <div>
          {/* Unchecked boxes send nothing: the hidden field says "false" and the box, after it, overrides it. */}
          <input type="hidden" name="previewsEnabled" value="false" />
          <label className="flex items-start gap-3 text-sm text-slate-800">
            <input
              type="checkbox"
              name="previewsEnabled"
              value="true"
              checked={(v.previewsEnabled ?? 'true') === 'true'}
              onChange={(event) => set('previewsEnabled')({ target: { value: event.target.checked ? 'true' : 'false' } })}
              className="mt-1"
              aria-describedby="previews-hint"
            />
            <span>
              <span className="block font-medium">Free preview questions</span>
              <span id="previews-hint" className="block text-slate-600">
                Anyone on the listing&apos;s page may ask a few questions a day before buying. They count against no plan and show in your analytics as
                previews.
              </span>
            </span>
          </label>
          {e.previewsEnabled ? <p className="mt-1 text-sm font-medium text-red-700">{e.previewsEnabled}</p> : null}
        </div>
        {kbId ? (
          <p className="text-sm text-slate-700">
            Answers come from <span className="font-medium">{v.backendKind === 'hosted' ? 'documents hosted on Almanac' : 'your own HTTP endpoint'}</span>{' '}
            (chosen at creation).
          </p>
        ) : (
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Where do the answers come from?</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {(
                [
                  ['hosted', 'Hosted on Almanac', 'Upload documents; the built-in engine answers with citations.'],
                  ['http', 'Your own endpoint', 'Almanac calls your HTTPS endpoint with a signed request.'],
                ] as const
              ).map(([value, label, hint]) => (
                <label
                  key={value}
                  className="flex cursor-pointer gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-brand-600 has-[:checked]:ring-1 has-[:checked]:ring-brand-600"
                >
                  <input type="radio" name="backendKind" value={value} checked={v.backendKind === value} onChange={set('backendKind')} className="mt-1" />
                  <span>
                    <span className="block text-sm font-medium text-slate-900">{label}</span>
                    <span className="block text-xs text-slate-600">{hint}</span>
                  </span>
                </label>
              ))}
            </div>
            {e.backendKind ? <p className="mt-1 text-sm font-medium text-red-700">{e.backendKind}</p> : null}
          </fieldset>
        )}
        <div>
          <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
        </div>
      </form>

      {/* On a wide screen the preview stays in view beside the form and scrolls on its own when it is taller than the
          window (tabIndex: so a keyboard can scroll it too; everything in it is inert). */}
      <aside aria-labelledby="preview-heading" tabIndex={0} className="min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:overflow-y-auto">
        <h2 id="preview-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          Preview
        </h2>
        <p className="mt-1 text-xs text-slate-600">The catalogue card</p>
        <div className="mt-2" inert>
          <KnowledgeBaseCard
            kb={{
              id: kbId ?? 'preview',
              title: v.title || 'Your title',
              publisher: { name: publisherName, slug: '' },
              summary: v.summary || 'Your summary appears here.',
              category: categories.some((c) => c.value === v.category) ? (v.category as Category) : null,
              tags,
              subscribersCount: 0,
              queryVolume: 0,
              updatedAt,
            }}
          />
        </div>
        <p className="mt-5 text-xs text-slate-600">The top of its page</p>
        <div className="mt-2 rounded-xl border border-slate-200 bg-white p-5 shadow-sm [overflow-wrap:anywhere]">
          <p className="text-lg font-semibold text-slate-900">{v.title || 'Your title'}</p>
          <p className="mt-1 text-sm text-slate-700">{v.summary}</p>
          <p className="mt-2 text-xs text-slate-600">
            {LANGUAGES.find(([code]) => code === v.language)?.[1] ?? v.language} · {v.licence || 'No licence yet'}
          </p>
          {v.description.trim() ? (
            <MarkdownText text={v.description} className="mt-3 text-sm text-slate-800 [&>*:first-child]:mt-0" />
          ) : (
            <p className="mt-3 text-sm text-slate-600">The description appears here.</p>
          )}
          {questions.length > 0 ? (
            <>
              <p className="mt-4 text-sm font-semibold text-slate-900">Try asking</p>
              <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
                {questions.map((q, i) => (
                  <li key={i}>{q}</li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </aside>
    </div>
  );
}
