// The e2e servers run without outside services, whatever the shell exports.
export const WITHOUT_OUTSIDE_SERVICES = {
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  REDIS_URL: '',
  UPSTASH_REDIS_REST_URL: '',
  UPSTASH_REDIS_REST_TOKEN: '',
  SMTP_URL: process.env.E2E_SMTP_URL ?? '',
} as const;
