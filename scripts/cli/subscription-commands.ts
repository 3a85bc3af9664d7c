import { getDb } from '@/lib/platform/db';
import { baseUrl } from '@/lib/platform/base-url';
import { getDailyUsage, getSubscriptionForUser, purchaseSubscription, type SubscriptionView } from '@/lib/subscriptions';
import { listKeysForUser, revokeKeyAsOperator } from '@/lib/keys';
import {
  choosePlan,
  listKnowledgeBasesForOperator,
  describeResolveFailure,
  resolveKnowledgeBase,
  type OperatorKnowledgeBase,
  type OperatorPlan,
} from '@/lib/publishing';
import { findOrCreateBuyer, findUserByEmail } from '@/lib/accounts';
import { findBuyerSubscription } from '@/lib/subscriptions';
import { command, FAILED, parse, required, UsageError } from './args';
import type { CliCommand } from './types';

// Operator commands for buyers' subscriptions and keys (docs/api.md §4, §5).

function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function describePlan(plan: OperatorPlan): string {
  return `${plan.name} (${plan.queriesPerPeriod} queries/month, ${money(plan.priceCents, plan.currency)}${plan.active ? '' : ', retired'}) [${plan.id}]`;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

async function resolveKbOrReport(ref: string): Promise<OperatorKnowledgeBase | null> {
  const found = await resolveKnowledgeBase(await getDb(), ref);
  if (found.ok) return found.kb;
  console.error(describeResolveFailure(ref, found));
  return null;
}

const createSubscription = command({
  name: 'create-subscription',
  summary: 'Create a buyer (if missing) and a subscription to a knowledge base; prints the API key once',
  usage: [
    '--email <address>     the buyer (created without a password if new)',
    '--kb <id|slug|publisher/slug>',
    '--plan <name|plan id> default: the cheapest active plan (e.g. starter)',
    '--test                issue an alm_sk_test_ key (test mode) instead of a live one',
  ].join('\n'),
  async body(args) {
    const { values } = parse(args, { email: { type: 'string' }, kb: { type: 'string' }, plan: { type: 'string' }, test: { type: 'boolean' } });
    const email = required(values.email, '--email');
    const kbRef = required(values.kb, '--kb');
    const db = await getDb();
    const kb = await resolveKbOrReport(kbRef);
    if (!kb) return FAILED;
    if (kb.status !== 'published') {
      console.error(`"${kb.title}" is ${kb.status}; only published knowledge bases can be subscribed to.`);
      return FAILED;
    }
    const plan = choosePlan(kb, values.plan);
    if (!plan || !plan.active) {
      console.error(`No active plan "${values.plan ?? ''}" for "${kb.title}". Plans:\n${kb.plans.map((p) => `  ${describePlan(p)}`).join('\n') || '  (none)'}`);
      return FAILED;
    }
    const buyer = await findOrCreateBuyer(db, email);
    if (!buyer.ok) throw new UsageError(`--email: ${buyer.message}`);
    const result = await purchaseSubscription(db, { userId: buyer.user.id, planId: plan.id, mode: values.test ? 'test' : 'live', actorKind: 'cli' });
    if (!result.ok) {
      const existing = result.code === 'conflict' ? ((await findBuyerSubscription(db, buyer.user.id, kb.id))?.id ?? null) : null;
      console.error(
        result.code === 'conflict'
          ? `${buyer.user.email} already has an active subscription to "${kb.title}" (${existing}). ` +
              'Use `usage --subscription <id>` to inspect it, or revoke and replace keys from the dashboard.'
          : `Could not subscribe: ${result.message}`,
      );
      return FAILED;
    }
    const { subscription, key } = result;
    const question = kb.sampleQuestions[0] ?? `What does ${kb.title} cover?`;
    const appUrl = baseUrl();
    console.log(`${buyer.created ? 'Created buyer' : 'Buyer'} ${buyer.user.email} (${buyer.user.id})`);
    console.log(`Subscription ${subscription.id}: "${kb.title}" on ${describePlan(plan)}`);
    console.log(`Billing period ${subscription.currentPeriodStart.toISOString()} → ${subscription.currentPeriodEnd.toISOString()}`);
    console.log('');
    console.log(`API key (${key.mode}; shown only this once, store it now):`);
    console.log(`  ${key.plaintext}`);
    console.log('');
    console.log('Try it:');
    console.log(
      `  curl -X POST ${appUrl}/kb/${kb.id}/query -H "Authorization: Bearer ${key.plaintext}" -H "Content-Type: application/json" -d ${shellQuote(JSON.stringify({ query: question }))}`,
    );
    return 0;
  },
});

const listKbs = command({
  name: 'list-kbs',
  summary: 'List knowledge bases with their ids, slugs and plans',
  usage: '--search <text>       only those whose title, slug or publisher contains the text',
  async body(args) {
    const { values } = parse(args, { search: { type: 'string' } });
    const kbs = await listKnowledgeBasesForOperator(await getDb(), values.search);
    if (kbs.length === 0) {
      console.log(values.search ? `No knowledge base matches "${values.search}".` : 'No knowledge bases yet.');
      return 0;
    }
    for (const kb of kbs) {
      console.log(`${kb.id}  ${kb.publisherSlug}/${kb.slug}  ${kb.title}${kb.status === 'published' ? '' : `  [${kb.status}]`}`);
      for (const plan of kb.plans) console.log(`    ${describePlan(plan)}`);
    }
    console.log(
      `\n${kbs.length} knowledge base${kbs.length === 1 ? '' : 's'}. Subscribe with: npm run almanac -- create-subscription --email you@example.com --kb <id>`,
    );
    return 0;
  },
});

const listKeys = command({
  name: 'list-keys',
  summary: "List a buyer's API keys (masked)",
  usage: '--email <address>',
  async body(args) {
    const { values } = parse(args, { email: { type: 'string' } });
    const email = required(values.email, '--email');
    const db = await getDb();
    const user = await findUserByEmail(db, email);
    if (!user) {
      console.error(`No user with email ${email}.`);
      return FAILED;
    }
    const keys = await listKeysForUser(db, user.id);
    if (keys.length === 0) {
      console.log(`${user.email} has no keys.`);
      return 0;
    }
    console.log(
      table(
        ['KEY ID', 'KEY', 'KNOWLEDGE BASE', 'SUBSCRIPTION', 'STATUS', 'CREATED', 'LAST USED'],
        keys.map((k) => [k.id, k.masked, k.kbTitle ?? k.kbId, k.subscriptionId, k.status, k.createdAt, k.lastUsedAt ?? 'never']),
      ),
    );
    return 0;
  },
});

const revokeKeyCommand = command({
  name: 'revoke-key',
  summary: 'Revoke an API key by its id (key_…)',
  usage: '<key id>              as shown by list-keys',
  async body(args) {
    const { positionals } = parse(args, {}, true);
    if (positionals.length !== 1) throw new UsageError('Give exactly one key id.');
    const keyId = positionals[0]!;
    const result = await revokeKeyAsOperator(await getDb(), keyId);
    if (!result.ok) {
      console.error(`No key ${keyId}.`);
      return FAILED;
    }
    console.log(`Revoked ${result.key.id} (${result.key.masked}) at ${result.key.revokedAt}.`);
    return 0;
  },
});

function printUsage(view: SubscriptionView, days: { day: string; queries: number; tokens: number }[]): void {
  console.log(`Subscription ${view.id}: "${view.kbTitle}" (${view.kbId})`);
  console.log(`Plan          ${view.plan.name} (${view.plan.queriesPerPeriod} queries/month, ${view.plan.requestsPerMinute} requests/minute)`);
  console.log(`Status        ${view.status}${view.cancelAtPeriodEnd && view.status === 'active' ? ' (cancels at period end)' : ''}, ${view.mode} mode`);
  console.log(`Period        ${view.currentPeriodStart} → ${view.currentPeriodEnd}`);
  console.log(`Used          ${view.usage.used} of ${view.usage.cap} (${view.usage.remaining} remaining, resets ${view.usage.resetsAt})`);
  console.log('\nLast 7 days (UTC):');
  for (const day of days) console.log(`  ${day.day}  ${String(day.queries).padStart(6)} queries  ${String(day.tokens).padStart(9)} tokens`);
}

const usage = command({
  name: 'usage',
  summary: "Show a subscription's usage in the current period and the last 7 days",
  usage: ['--subscription <sub_…>', 'or', '--email <address> --kb <id|slug|publisher/slug>'].join('\n'),
  async body(args) {
    const { values } = parse(args, { subscription: { type: 'string' }, email: { type: 'string' }, kb: { type: 'string' } });
    const db = await getDb();
    let subscriptionId = values.subscription?.trim();
    if (subscriptionId && (values.email || values.kb)) throw new UsageError('Use either --subscription or --email with --kb, not both.');
    if (!subscriptionId) {
      const email = required(values.email, '--subscription or --email');
      const kbRef = required(values.kb, '--kb');
      const user = await findUserByEmail(db, email);
      if (!user) {
        console.error(`No user with email ${email}.`);
        return FAILED;
      }
      const kb = await resolveKbOrReport(kbRef);
      if (!kb) return FAILED;
      const found = (await findBuyerSubscription(db, user.id, kb.id))?.id ?? null;
      if (!found) {
        console.error(`${user.email} has no subscription to "${kb.title}".`);
        return FAILED;
      }
      subscriptionId = found;
    }
    const now = new Date();
    const view = await getSubscriptionForUser(db, null, subscriptionId, now);
    if (!view.ok) {
      console.error(`No subscription ${subscriptionId}.`);
      return FAILED;
    }
    const daily = await getDailyUsage(db, null, subscriptionId, 7, now);
    printUsage(view.subscription, daily.ok ? daily.days : []);
    return 0;
  },
});

export const subscriptionCommands: CliCommand[] = [listKbs, createSubscription, listKeys, revokeKeyCommand, usage];
