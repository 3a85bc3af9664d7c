import { getDb } from '@/lib/platform/db';
import {
  createListing,
  createPlan,
  deletePlan,
  describeResolveFailure,
  editPlan,
  findPublisherByRef,
  listPlansForConsole,
  publishListing,
  resolveKnowledgeBase,
  restoreListing,
  restorePublisher,
  retirePlan,
  suspendListing,
  suspendPublisher,
  unpublishListing,
  updateListing,
  knowledgeBaseFor,
  planFor,
  type OperatorActor,
} from '@/lib/publishing';
import { command, FAILED, parse, required, UsageError } from './args';
import type { CliCommand } from './types';

// The publisher console's actions for the operator: the same lib/publishing functions, audited with actor `cli`.
const OPERATOR: OperatorActor = { kind: 'operator', userId: null, via: 'cli' };

type Refused = { ok: false; code: string; message?: string; fieldErrors?: Record<string, string> };

function report(name: string, result: Refused): number {
  if (result.fieldErrors) for (const [field, message] of Object.entries(result.fieldErrors)) console.error(`${name}: --${flagOf(field)}: ${message}`);
  else console.error(`${name}: ${result.message ?? result.code}`);
  return FAILED;
}

const FLAGS: Record<string, string> = {
  sampleQuestions: 'questions',
  backendKind: 'backend',
  queriesPerPeriod: 'queries',
  requestsPerMinute: 'rpm',
  priceCents: 'price',
};
const flagOf = (field: string) => FLAGS[field] ?? field;

async function kbIdOf(ref: string): Promise<string | null> {
  const resolved = await resolveKnowledgeBase(await getDb(), ref);
  if (resolved.ok) return resolved.kb.id;
  console.error(describeResolveFailure(ref, resolved));
  return null;
}

const listingFlags = {
  title: { type: 'string' },
  summary: { type: 'string' },
  description: { type: 'string' },
  category: { type: 'string' },
  tags: { type: 'string' },
  language: { type: 'string' },
  licence: { type: 'string' },
  questions: { type: 'string' },
} as const;

const planFlags = {
  name: { type: 'string' },
  price: { type: 'string' },
  currency: { type: 'string' },
  queries: { type: 'string' },
  rpm: { type: 'string' },
} as const;

const LISTING_USAGE = `  --title <text> --summary <text> --category <education|policy|health|research|legal>
  [--description <markdown>] [--tags a,b,c] [--language en] [--licence "CC BY 4.0"] [--questions "one|two|three"]`;

export const listingCommands: CliCommand[] = [
  command({
    name: 'create-listing',
    summary: 'Create a draft listing for a publisher (the console\'s "New listing")',
    usage: `Usage: npm run almanac -- create-listing --publisher <id | slug> --backend <hosted|http>\n${LISTING_USAGE}`,
    async body(args) {
      const { values } = parse(args, { ...listingFlags, publisher: { type: 'string' }, backend: { type: 'string' } });
      const db = await getDb();
      const publisher = await findPublisherByRef(db, required(values.publisher, '--publisher'));
      if (!publisher) return report('create-listing', { ok: false, code: 'not_found', message: `No publisher "${values.publisher}".` });
      const result = await createListing(db, OPERATOR, {
        publisherId: publisher.id,
        title: values.title ?? '',
        summary: values.summary ?? '',
        description: values.description ?? '',
        category: values.category ?? '',
        tags: values.tags ?? '',
        language: values.language ?? 'en',
        licence: values.licence ?? 'Proprietary',
        sampleQuestions: (values.questions ?? '').split('|').join('\n'),
        backendKind: values.backend ?? '',
      });
      if (!result.ok) return report('create-listing', result);
      console.log(`${result.kb.id}  ${publisher.slug}/${result.kb.slug}  draft. Next: create-plan --kb ${result.kb.id} …, then publish --kb ${result.kb.id}.`);
      return 0;
    },
  }),
  command({
    name: 'edit-listing',
    summary: "Change a listing's text; flags not given keep their value",
    usage: `Usage: npm run almanac -- edit-listing --kb <kb id | slug | publisher/slug> [any of:]\n${LISTING_USAGE}`,
    async body(args) {
      const { values } = parse(args, { ...listingFlags, kb: { type: 'string' } });
      const db = await getDb();
      const kbId = await kbIdOf(required(values.kb, '--kb'));
      if (!kbId) return FAILED;
      const found = await knowledgeBaseFor(db, OPERATOR, kbId);
      if (!found.ok) return report('edit-listing', found);
      const current = { ...found.kb, tags: found.kb.tags.join(','), sampleQuestions: found.kb.sampleQuestions.join('\n') };
      const result = await updateListing(db, OPERATOR, kbId, {
        title: values.title ?? current.title,
        summary: values.summary ?? current.summary,
        description: values.description ?? current.description,
        category: values.category ?? current.category,
        tags: values.tags ?? current.tags,
        language: values.language ?? current.language,
        licence: values.licence ?? current.licence,
        sampleQuestions: values.questions !== undefined ? values.questions.split('|').join('\n') : current.sampleQuestions,
      });
      if (!result.ok) return report('edit-listing', result);
      console.log(`${kbId} saved.`);
      return 0;
    },
  }),
  ...(['publish', 'unpublish'] as const).map((verb) =>
    command({
      name: verb,
      summary:
        verb === 'publish'
          ? 'Publish a listing (needs an active plan): into the catalogue, for sale'
          : 'Unpublish a listing: out of the catalogue; subscribers keep access to their period end',
      usage: `Usage: npm run almanac -- ${verb} --kb <kb id | slug | publisher/slug>`,
      async body(args) {
        const { values } = parse(args, { kb: { type: 'string' } });
        const kbId = await kbIdOf(required(values.kb, '--kb'));
        if (!kbId) return FAILED;
        const db = await getDb();
        const result = verb === 'publish' ? await publishListing(db, OPERATOR, kbId) : await unpublishListing(db, OPERATOR, kbId);
        if (!result.ok) return report(verb, result);
        console.log(`${kbId} is now ${result.kb.status}.`);
        return 0;
      },
    }),
  ),
  command({
    name: 'list-plans',
    summary: 'Every plan of a listing, retired ones too, with subscribers',
    usage: 'Usage: npm run almanac -- list-plans --kb <kb id | slug | publisher/slug>',
    async body(args) {
      const { values } = parse(args, { kb: { type: 'string' } });
      const kbId = await kbIdOf(required(values.kb, '--kb'));
      if (!kbId) return FAILED;
      for (const p of await listPlansForConsole(await getDb(), kbId)) {
        const price = p.priceCents === 0 ? 'free' : `${(p.priceCents / 100).toFixed(2)} ${p.currency}`;
        console.log(
          `${p.id}  ${p.active ? 'active ' : 'retired'}  ${p.name}  ${price}/month  ${p.queriesPerPeriod} queries  ${p.requestsPerMinute}/min  ${p.subscribers} subscribers${p.replacedByPlanId ? `  → ${p.replacedByPlanId}` : ''}`,
        );
      }
      return 0;
    },
  }),
  command({
    name: 'create-plan',
    summary: 'Add a plan to a listing (price 0 = free plan; a Stripe price when Stripe is configured)',
    usage: 'Usage: npm run almanac -- create-plan --kb <ref> --name <text> --price <19 | 19.50 | 0> --queries <n> [--rpm 60] [--currency usd]',
    async body(args) {
      const { values } = parse(args, { ...planFlags, kb: { type: 'string' } });
      const kbId = await kbIdOf(required(values.kb, '--kb'));
      if (!kbId) return FAILED;
      const result = await createPlan(await getDb(), OPERATOR, kbId, {
        name: values.name ?? '',
        price: values.price ?? '',
        currency: values.currency ?? 'usd',
        queriesPerPeriod: values.queries ?? '',
        requestsPerMinute: values.rpm ?? '60',
      });
      if (!result.ok) return report('create-plan', result);
      console.log(`${result.plan.id}  ${result.plan.name} added to ${kbId}.`);
      return 0;
    },
  }),
  command({
    name: 'edit-plan',
    summary: 'Change a plan; with subscribers, new terms become a replacement plan they move to at renewal',
    usage: 'Usage: npm run almanac -- edit-plan --plan <plan id> [--name] [--price] [--currency] [--queries] [--rpm]',
    async body(args) {
      const { values } = parse(args, { ...planFlags, plan: { type: 'string' } });
      const planId = required(values.plan, '--plan');
      const db = await getDb();
      const found = await planFor(db, OPERATOR, planId);
      if (!found.ok) return report('edit-plan', { ok: false, code: 'not_found', message: `No plan "${planId}".` });
      const current = found.plan;
      const result = await editPlan(db, OPERATOR, planId, {
        name: values.name ?? current.name,
        price: values.price ?? current.priceCents,
        currency: values.currency ?? current.currency,
        queriesPerPeriod: values.queries ?? current.queriesPerPeriod,
        requestsPerMinute: values.rpm ?? current.requestsPerMinute,
      });
      if (!result.ok) return report('edit-plan', result);
      console.log(
        result.replaced
          ? `${planId} retired; replaced by ${result.plan.id} (${result.replaced.movingSubscriptions} subscriptions move at renewal).`
          : `${planId} saved.`,
      );
      return 0;
    },
  }),
  ...(['retire-plan', 'delete-plan'] as const).map((name) =>
    command({
      name,
      summary: name === 'retire-plan' ? 'Retire a plan: no new purchases; its subscribers keep it' : 'Delete a plan nobody subscribed to',
      usage: `Usage: npm run almanac -- ${name} --plan <plan id>`,
      async body(args) {
        const { values } = parse(args, { plan: { type: 'string' } });
        const planId = required(values.plan, '--plan');
        const db = await getDb();
        const result = name === 'retire-plan' ? await retirePlan(db, OPERATOR, planId) : await deletePlan(db, OPERATOR, planId);
        if (!result.ok) return report(name, result);
        console.log(`${planId} ${name === 'retire-plan' ? 'retired' : 'deleted'}.`);
        return 0;
      },
    }),
  ),
  ...(['suspend', 'restore'] as const).map((verb) =>
    command({
      name: verb,
      summary:
        verb === 'suspend'
          ? 'Suspend a listing or a whole publisher (403 to its keys, out of the catalogue)'
          : 'Restore a suspended listing or publisher to the state it had',
      usage: `Usage: npm run almanac -- ${verb} (--kb <ref> | --publisher <id | slug>) ${verb === 'suspend' ? '--reason <text>' : '[--reason <text>]'}`,
      async body(args) {
        const { values } = parse(args, { kb: { type: 'string' }, publisher: { type: 'string' }, reason: { type: 'string' } });
        if (!values.kb === !values.publisher) throw new UsageError('give exactly one of --kb and --publisher.');
        const reason = verb === 'suspend' ? required(values.reason, '--reason') : (values.reason ?? '');
        const db = await getDb();
        let result;
        if (values.kb) {
          const kbId = await kbIdOf(values.kb);
          if (!kbId) return FAILED;
          result = verb === 'suspend' ? await suspendListing(db, OPERATOR, kbId, reason) : await restoreListing(db, OPERATOR, kbId, reason);
        } else {
          const publisher = await findPublisherByRef(db, values.publisher!);
          if (!publisher) return report(verb, { ok: false, code: 'not_found', message: `No publisher "${values.publisher}".` });
          result = verb === 'suspend' ? await suspendPublisher(db, OPERATOR, publisher.id, reason) : await restorePublisher(db, OPERATOR, publisher.id, reason);
        }
        if (!result.ok) return report(verb, result);
        console.log(
          result.changed === 0
            ? `Nothing to do: already ${verb === 'suspend' ? 'suspended' : 'not suspended'}.`
            : `${verb === 'suspend' ? 'Suspended' : 'Restored'} (${result.changed} record${result.changed === 1 ? '' : 's'}).`,
        );
        return 0;
      },
    }),
  ),
];
