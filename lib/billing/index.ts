/** Billing: checkout (Stripe or the test checkout), plan changes through Stripe (and a replaced plan's Stripe subscriptions), Connect, the webhook ledger, the one-time key handoff. Public surface. */
export * from './account-deletion';
export * from './checkout';
export * from './connect';
export * from './handoff';
export * from './plan-change';
export * from './plan-replacement';
export * from './stripe';
export * from './webhook';
