import { z } from 'zod';
import { CATEGORIES } from '@/lib/catalog';
import { isCleanText } from '@/lib/platform/text-input';

/**
 * The publisher console's pure rules (docs/api.md §9): what a profile, listing and plan may contain and which listing
 * state may follow which. Forms and CLI commands parse with these schemas, so every message agrees.
 */

const CONTROL = 'Remove control characters: only line breaks are allowed here.';

function line(label: string, min: number, max: number) {
  return z
    .string({ error: `${label} is required.` })
    .trim()
    .min(min, min <= 1 ? `${label} is required.` : `${label} needs at least ${min} characters.`)
    .max(max, `${label} has at most ${max} characters.`)
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v) && isCleanText(v), 'Remove control characters from this field.');
}

/** A browser submits a textarea's line breaks as CRLF but its maxLength counts each as one, so they are read as LF. */
export function normaliseLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function prose(label: string, max: number) {
  return z
    .string()
    .overwrite(normaliseLineBreaks)
    .trim()
    .max(max, `${label} has at most ${max.toLocaleString('en-US')} characters.`)
    .refine(isCleanText, CONTROL);
}

export const PROFILE_LIMITS = {
  name: { min: 2, max: 80 },
  slug: { min: 2, max: 60 },
  websiteUrl: { max: 200 },
  bio: { max: 500 },
  contactEmail: { max: 254 },
} as const;
export type ProfileLimits = typeof PROFILE_LIMITS;

const optionalUrl = z
  .string()
  .trim()
  .max(PROFILE_LIMITS.websiteUrl.max, `A website address has at most ${PROFILE_LIMITS.websiteUrl.max} characters.`)
  .refine(isCleanText, CONTROL)
  .refine((v) => v === '' || isHttpUrl(v), 'Enter a full address starting with https:// (or http://).')
  .transform((v) => (v === '' ? null : v));

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
}

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;

const slugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(PROFILE_LIMITS.slug.min, `The address needs at least ${PROFILE_LIMITS.slug.min} characters.`)
  .max(PROFILE_LIMITS.slug.max, `The address has at most ${PROFILE_LIMITS.slug.max} characters.`)
  .regex(SLUG_PATTERN, 'Use lower-case letters, digits and single hyphens (not at the start or end).')
  .refine((v) => !v.includes('--'), 'Use single hyphens only.');

export const publisherProfileSchema = z.object({
  name: line('The name', PROFILE_LIMITS.name.min, PROFILE_LIMITS.name.max),
  slug: slugSchema,
  websiteUrl: optionalUrl,
  bio: prose('The bio', PROFILE_LIMITS.bio.max),
  contactEmail: z
    .string()
    .trim()
    .toLowerCase()
    .max(PROFILE_LIMITS.contactEmail.max, `An email address has at most ${PROFILE_LIMITS.contactEmail.max} characters.`)
    .pipe(z.email({ error: 'Enter an email address the operator can reach you at.' })),
});

const MAX_TAGS = 8;
const MAX_TAG_LENGTH = 32;

/**
 * Lower-case, inner spaces as one hyphen, first occurrence kept; length and count are judged by the listing schema,
 * whose message can name the tag.
 */
export function normaliseTags(value: string | readonly string[]): string[] {
  const parts = typeof value === 'string' ? value.split(',') : value;
  const seen = new Set<string>();
  for (const part of parts) {
    const tag = part.normalize('NFC').trim().toLowerCase().replace(/\s+/g, '-');
    if (tag) seen.add(tag);
  }
  return [...seen];
}

const TAG_PATTERN = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N}-]*$/u;

const tagsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => normaliseTags(v))
  .superRefine((tags, ctx) => {
    if (tags.length > MAX_TAGS) ctx.addIssue({ code: 'custom', message: `Choose at most ${MAX_TAGS} tags (you have ${tags.length}).` });
    for (const tag of tags) {
      if (tag.length > MAX_TAG_LENGTH) ctx.addIssue({ code: 'custom', message: `The tag “${tag.slice(0, 40)}” is longer than ${MAX_TAG_LENGTH} characters.` });
      else if (!TAG_PATTERN.test(tag)) ctx.addIssue({ code: 'custom', message: `The tag “${tag.slice(0, 40)}” may use letters, digits and hyphens only.` });
    }
  });

const MAX_SAMPLE_QUESTIONS = 6;

const sampleQuestionsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [...new Set((typeof v === 'string' ? normaliseLineBreaks(v).split('\n') : v).map((q) => q.trim()).filter(Boolean))])
  .superRefine((questions, ctx) => {
    if (questions.length > MAX_SAMPLE_QUESTIONS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_SAMPLE_QUESTIONS} sample questions (you have ${questions.length}).` });
    for (const q of questions) {
      if (q.length > 200) ctx.addIssue({ code: 'custom', message: `A sample question has at most 200 characters: “${q.slice(0, 40)}…”.` });
      if (!isCleanText(q) || /[\t]/.test(q)) ctx.addIssue({ code: 'custom', message: 'Remove control characters from the sample questions.' });
    }
  });

const languageSchema = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}(?:-[A-Z]{2})?$/, 'Use a language code such as en, es, de, fr or pt-BR.');

const BACKEND_KINDS = ['hosted', 'http'] as const;

export const LISTING_LIMITS = {
  title: { min: 3, max: 120 },
  summary: { min: 10, max: 300 },
  description: { max: 10_000 },
  licence: { min: 2, max: 80 },
} as const;
export type ListingLimits = typeof LISTING_LIMITS;

export const listingSchema = z.object({
  title: line('The title', LISTING_LIMITS.title.min, LISTING_LIMITS.title.max),
  summary: line('The summary', LISTING_LIMITS.summary.min, LISTING_LIMITS.summary.max),
  description: prose('The description', LISTING_LIMITS.description.max),
  category: z.enum(CATEGORIES, { error: 'Choose a category.' }),
  tags: tagsSchema,
  language: languageSchema,
  licence: line('The licence', LISTING_LIMITS.licence.min, LISTING_LIMITS.licence.max),
  sampleQuestions: sampleQuestionsSchema,
  /** Free preview questions on the knowledge-base page (docs/api.md §10.6); absent: unchanged (on for a new listing). */
  previewsEnabled: z
    .union([z.boolean(), z.enum(['true', 'false'], { error: 'Say whether visitors may ask free preview questions.' })])
    .transform((v) => v === true || v === 'true')
    .optional(),
});

export const newListingSchema = listingSchema.extend({
  backendKind: z.enum(BACKEND_KINDS, { error: 'Choose where the answers come from.' }),
});

const CURRENCIES = ['usd', 'eur', 'gbp'] as const;

/** A price typed by a person ("19", "19.00", "0") as integer minor units, or null when it is not a price. */
export function parsePriceToCents(value: string): number | null {
  const text = value.trim().replace(/^[$€£]/, '');
  if (!/^\d{1,6}(?:\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

// Bounds before integrality, so that a huge number is told its limit rather than that it is not whole.
const wholeNumber = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a whole number.` })
    .min(min, `${label} must be at least ${min.toLocaleString('en-US')}.`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')}.`)
    .int(`${label} must be a whole number.`);

const MAX_PRICE = '999,999.99';

export const PLAN_LIMITS = { name: { min: 2, max: 40 } } as const;
export type PlanLimits = typeof PLAN_LIMITS;

/** Plan fields; `freePlanMaxQueries` is FREE_PLAN_MAX_QUERIES (passed in so the rule stays pure). */
export function planSchema(freePlanMaxQueries: number) {
  return z
    .object({
      name: line('The plan name', PLAN_LIMITS.name.min, PLAN_LIMITS.name.max),
      price: z.union([z.string(), z.number()]).transform((v, ctx) => {
        const cents = typeof v === 'number' ? (Number.isInteger(v) && v >= 0 ? v : null) : parsePriceToCents(v);
        if (cents === null) {
          const tooLarge = typeof v === 'string' && /^\d{7,}(?:\.\d{1,2})?$/.test(v.trim().replace(/^[$€£]/, ''));
          ctx.addIssue({
            code: 'custom',
            message: tooLarge ? `A monthly price is at most ${MAX_PRICE}.` : 'Enter a monthly price such as 19 or 19.50 (0 for a free plan).',
          });
          return z.NEVER;
        }
        return cents;
      }),
      currency: z.enum(CURRENCIES, { error: 'Choose a currency.' }),
      queriesPerPeriod: wholeNumber('Queries per month', 1, 10_000_000),
      requestsPerMinute: wholeNumber('Requests per minute', 1, 10_000),
    })
    .superRefine((plan, ctx) => {
      if (plan.price === 0 && plan.queriesPerPeriod > freePlanMaxQueries) {
        ctx.addIssue({ code: 'custom', path: ['queriesPerPeriod'], message: `A free plan allows at most ${freePlanMaxQueries} queries a month.` });
      }
      if (plan.price > 0 && plan.price < 50)
        ctx.addIssue({ code: 'custom', path: ['price'], message: 'A paid plan costs at least 0.50 (card payments below that are refused).' });
    })
    .transform(({ price, ...rest }) => ({ ...rest, priceCents: price }));
}
export type PlanFields = z.output<ReturnType<typeof planSchema>>;

/** True when the two plans differ in what a subscriber pays or gets (a rename alone changes neither). */
type Terms = Pick<PlanFields, 'priceCents' | 'queriesPerPeriod' | 'requestsPerMinute'> & { currency: string };

export function changesTerms(before: Terms, after: Terms): boolean {
  return (
    before.priceCents !== after.priceCents ||
    before.currency !== after.currency ||
    before.queriesPerPeriod !== after.queriesPerPeriod ||
    before.requestsPerMinute !== after.requestsPerMinute
  );
}

export type ListingStatus = 'draft' | 'published' | 'unpublished' | 'suspended' | 'archived';

/** Suspended and archived belong to the operator; a publisher may edit a suspended listing's text but not publish it. */
export function publisherTransition(from: ListingStatus, action: 'publish' | 'unpublish'): { ok: true; to: ListingStatus } | { ok: false; message: string } {
  if (from === 'suspended')
    return { ok: false, message: 'This listing is suspended by the operator; it cannot be published or unpublished until it is restored.' };
  if (from === 'archived') return { ok: false, message: 'This listing is archived.' };
  if (action === 'publish') return from === 'published' ? { ok: false, message: 'This listing is already published.' } : { ok: true, to: 'published' };
  return from === 'published' ? { ok: true, to: 'unpublished' } : { ok: false, message: 'Only a published listing can be unpublished.' };
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}
