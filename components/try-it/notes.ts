import type { UsageView } from '@/lib/subscriptions';

// What a Try-it question costs, written on the server and shown by the client form.
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
