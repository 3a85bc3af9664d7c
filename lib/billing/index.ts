/** Billing: checkout, plan changes and Connect through Stripe, the webhook ledger, account deletion, the key handoff. */
export * from './account-deletion';
export * from './checkout';
export * from './connect';
export * from './handoff';
export * from './plan-change';
export * from './plan-replacement';
export * from './stripe';
export * from './webhook';
