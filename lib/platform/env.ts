import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The only place that reads process.env. Every variable has a local default so that `npm start` on a bare machine
 * works; `.env.example` lists the same variables with the same defaults and says what each one does.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : v === 'true' || v === '1' || v === 'yes'));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const intWithDefault = (fallback: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer >= ${min}` });
        return z.NEVER;
      }
      return n;
    });

/** An outside service's base URL, without trailing slash (tests and GitHub Enterprise Server point it elsewhere). */
const serviceBaseUrl = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const raw = v && v.trim() !== '' ? v.trim() : fallback;
      const url = URL.canParse(raw) ? new URL(raw) : null;
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
        ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL without query or fragment' });
        return z.NEVER;
      }
      return raw.replace(/\/+$/, '');
    });

/** An http(s) origin (a trailing slash is allowed and dropped): what a base URL of this site may be. */
const originUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const url = URL.canParse(v.trim()) ? new URL(v.trim()) : null;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must be an http(s) origin such as https://almanac.example.com (no path, query or credentials)' });
      return z.NEVER;
    }
    return url.origin;
  });

/** TRUSTED_PROXIES (client-address.ts): each entry is checked, so a typo fails at start instead of trusting nothing. */
const proxyList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const entries = (v ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const [address = '', bits, ...rest] = entry.split('/');
      const family = isIP(address);
      const prefix = bits === undefined ? undefined : Number(bits);
      const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(bits!) && prefix <= (family === 6 ? 128 : 32));
      if (family === 0 || rest.length > 0 || !prefixOk) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.0/8, ::1)` });
        return z.NEVER;
      }
    }
    return entries;
  });

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  APP_URL: originUrl,
  /** Set by scripts/serve.mjs, never by operators: it also says every request came through its peer stamp. */
  ALMANAC_LISTEN_URL: originUrl,
  TRUSTED_PROXIES: proxyList,
  DATABASE_URL: optionalString,
  DATABASE_POOL_MAX: intWithDefault(10, 1),
  DATA_DIR: z.string().default('.data'),
  SEED_ON_START: bool(true),
  LEGAL_DIR: z.string().trim().min(1).default('legal'),
  SAMPLE_DATA_NOTICE: z.enum(['auto', 'true', 'false']).default('auto'),
  ALMANAC_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters (for example: openssl rand -base64 48)',
  }),
  ALMANAC_PREVIOUS_SECRET: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FILE: optionalString,
  REDIS_URL: optionalString,
  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  RATE_LIMIT_PER_MINUTE: intWithDefault(60, 1),
  RATE_LIMIT_WINDOW_MS: intWithDefault(60_000, 100),
  RATE_LIMIT_PREFIX: z.string().default('almanac:rl'),
  PUBLIC_RATE_LIMIT_PER_MINUTE: intWithDefault(300, 1),
  PREVIEW_QUESTIONS_PER_DAY: intWithDefault(3, 0),
  CATALOG_CACHE_TTL_MS: intWithDefault(30_000, 0),
  QUOTA_SYNCHRONOUS_COMMIT: bool(false),
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) => [
      ...new Set(
        (v ?? '')
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    ]),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const url = URL.canParse(v.trim()) ? new URL(v.trim()) : null;
      if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
        ctx.addIssue({ code: 'custom', message: 'must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587' });
        return z.NEVER;
      }
      return v.trim();
    }),
  MAIL_FROM: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : 'Almanac <no-reply@localhost>')),
  SIGN_UPS_PER_ADDRESS_PER_HOUR: intWithDefault(20, 1),
  PUBLISHER_TIMEOUT_MS: intWithDefault(30_000, 1),
  CONSOLE_QUERIES_PER_MINUTE: intWithDefault(20, 1),
  ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: bool(false),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: optionalString,
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: intWithDefault(25_000, 1),
  EMBEDDINGS_BASE_URL: optionalString,
  EMBEDDINGS_API_KEY: optionalString,
  EMBEDDINGS_MODEL: optionalString,
  EMBEDDINGS_TIMEOUT_MS: intWithDefault(10_000, 1),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_URL: serviceBaseUrl('https://github.com'),
  GITHUB_API_URL: serviceBaseUrl('https://api.github.com'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: serviceBaseUrl('https://accounts.google.com'),
  MAX_UPLOAD_BYTES: intWithDefault(20 * 1024 * 1024, 1),
  UPLOADS_CONCURRENT_PER_ACCOUNT: intWithDefault(2, 1),
  UPLOADS_PER_HOUR: intWithDefault(100, 1),
  FREE_PLAN_MAX_QUERIES: intWithDefault(100, 1),
  PLATFORM_FEE_PERCENT: intWithDefault(20, 0).refine((n) => n <= 100, 'must be at most 100'),
  JOB_LEASE_MS: intWithDefault(60_000, 10_000),
  PARSE_WORKERS: intWithDefault(1, 1),
  PARSE_MAX_HEAP_MB: intWithDefault(256, 64),
  PARSE_TIMEOUT_MS: intWithDefault(60_000, 100),
  PARSE_MAX_PAGES: intWithDefault(2_000, 1),
  PARSE_MAX_INFLATED_BYTES: intWithDefault(128 * 1024 * 1024, 1),
  PARSE_MAX_DEPTH: intWithDefault(256, 8),
  PARSE_MAX_CHARACTERS: intWithDefault(20_000_000, 1),
  PARSE_MAX_CHUNKS: intWithDefault(20_000, 1),
  JOB_POLL_MS: intWithDefault(1_000, 500),
  ENGINE_ENCODER: z.enum(['on', 'off']).default('on'),
  ENGINE_ENCODER_READER: z.enum(['on', 'off']).default('off'),
  ENGINE_ENCODER_BUDGET_MS: intWithDefault(300, 1),
  ENGINE_ENCODER_MAX_HEAP_MB: intWithDefault(256, 64),
  METRICS_TOKEN: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.refine(
    (v) => v === undefined || (/^https?:\/\//i.test(v) && URL.canParse(v)),
    'must be an http(s) URL such as http://localhost:4318',
  ),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('almanac'),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
      throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests and the CLI change configuration between runs; production never calls this. */
export function resetEnvForTesting(): void {
  cached = undefined;
}
