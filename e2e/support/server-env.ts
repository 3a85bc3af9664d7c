/**
 * Outside services the e2e servers run without, whatever the shell exports: the built-in test checkout instead of
 * Stripe, in-process rate limits instead of Redis or Upstash, the run's own SMTP server for email. Shared by playwright.config.ts and the OAuth server.
 */
export const WITHOUT_OUTSIDE_SERVICES = {
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  REDIS_URL: '',
  UPSTASH_REDIS_REST_URL: '',
  UPSTASH_REDIS_REST_TOKEN: '',
  // Email: the run's own SMTP server (playwright.config.ts, e2e/support/mail.ts), never one the shell names.
  SMTP_URL: process.env.E2E_SMTP_URL ?? '',
} as const;
