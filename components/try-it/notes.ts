import type { UsageView } from '@/lib/subscriptions';

/**
 * The line under Try-it that says what a question costs, written on the server (the page and the actions) and shown
 * by the client form: a subscriber's counted usage, or a visitor's free preview allowance.
 */
type Usage = Pick<UsageView, 'used' | 'cap'>;
const n = (value: number) => value.toLocaleString('en-US');

export const subscriberCostNote = (usage: Usage) =>
  `Each answered question counts against your plan's cap, like an API call: ${n(usage.used)} of ${n(usage.cap)} used this period.`;

export const subscriberAnsweredNote = (usage: Usage & { remaining: number }) =>
  `Counted: ${n(usage.used)} / ${n(usage.cap)} queries used, ${n(usage.remaining)} left this period.`;

export const previewCostNote = (allowance: { remaining: number; limit: number }) =>
  allowance.remaining === 0
    ? `You have used today's ${n(allowance.limit)} free questions for this knowledge base.`
    : `Free preview, not counted against any plan: ${n(allowance.remaining)} of ${n(allowance.limit)} questions left today.`;
