import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The only place that reads process.env. Every variable has a local default so that `npm start` on a bare
 * machine works; `.env.example` lists the same variables with the same defaults.
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

/**
 * Base URL of an outside service whose paths we append (no trailing slash, no query). Defaults point at the real
 * service; tests and self-hosted installations (GitHub Enterprise Server) point them elsewhere.
 */
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

/**
 * TRUSTED_PROXIES: the proxies whose X-Forwarded-For is believed (lib/platform/client-address.ts), as IP addresses
 * and CIDR ranges separated by commas. Each entry is checked here so a typo fails at start instead of silently
 * trusting nothing (or everything).
 */
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
  /**
   * Public base URL of this deployment (lib/platform/base-url.ts): snippets, upgrade links, Stripe redirects, sign-in
   * callbacks, and the only origin a form post may come from. Unset: the address `npm start` listens on.
   */
  APP_URL: originUrl,
  /**
   * Internal, set by scripts/serve.mjs before Next starts, never by operators: the URL it listens on. Its presence
   * also says that every request passed through serve.mjs, which replaces any client-sent peer header with the socket's
   * address (lib/server/front-server.mjs).
   */
  ALMANAC_LISTEN_URL: originUrl,
  /** Proxies (IPs and CIDR ranges) whose X-Forwarded-For is believed. Default none: the client is the socket's peer. */
  TRUSTED_PROXIES: proxyList,
  /** PostgreSQL connection string. Unset: embedded PGlite under DATA_DIR. */
  DATABASE_URL: optionalString,
  DATABASE_POOL_MAX: intWithDefault(10, 1),
  /** Folder for embedded data (PGlite files, generated server secret). */
  DATA_DIR: z.string().default('.data'),
  /** Seed the sample marketplace into an empty database at start. */
  SEED_ON_START: bool(true),
  /**
   * Folder of the operator's legal texts in Markdown: `terms.md`, `privacy.md`, `refunds.md`, shown at /terms,
   * /privacy and /refunds (lib/platform/legal.ts). The default, `legal/` in the repository, holds sample texts marked
   * as samples: replace them before taking real payments.
   */
  LEGAL_DIR: z.string().trim().min(1).default('legal'),
  /**
   * The banner saying the marketplace is sample data: `auto` shows it while the seeded sample marketplace is in the
   * database, `true` always, `false` never (a real deployment that kept some sample rows).
   */
  SAMPLE_DATA_NOTICE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Server secret: signs sessions and derives the key that encrypts publisher secrets. Generated into DATA_DIR when unset (single instance only). */
  ALMANAC_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters (for example: openssl rand -base64 48)',
  }),
  /** The server secret being replaced: read only by `almanac rotate-secret`, which re-encrypts under ALMANAC_SECRET. */
  ALMANAC_PREVIOUS_SECRET: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Optional file that receives the JSON logs instead of stdout. */
  LOG_FILE: optionalString,
  /** Redis server for rate limits and revocation broadcasts across instances. */
  REDIS_URL: optionalString,
  /** Upstash Redis (REST) for serverless deployments. */
  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  /** Requests per minute per key when a plan sets none. */
  RATE_LIMIT_PER_MINUTE: intWithDefault(60, 1),
  /** Length of the rate-limit sliding window (ms). The documented window is a minute (docs/api.md §3.2); tests shorten it to see it slide. */
  RATE_LIMIT_WINDOW_MS: intWithDefault(60_000, 100),
  /** Key prefix of rate-limit entries in Redis/Upstash (lets several deployments or test runs share one Redis). */
  RATE_LIMIT_PREFIX: z.string().default('almanac:rl'),
  /** Requests per minute per client address on the public catalogue: listing, detail, OpenAPI document (docs/api.md §2.8). */
  PUBLIC_RATE_LIMIT_PER_MINUTE: intWithDefault(300, 1),
  /** Free preview questions per visitor address and knowledge base in any 24 hours, on the same limiter backend; 0 turns previews off everywhere. */
  PREVIEW_QUESTIONS_PER_DAY: intWithDefault(3, 0),
  /** How long the public listing and detail answers are served from memory (ms; docs/api.md §2.7). 0 turns the cache off. */
  CATALOG_CACHE_TTL_MS: intWithDefault(30_000, 0),
  /**
   * Wait for the disk flush when committing a cap reservation. Off (default): the reservation commits without waiting
   * for its WAL flush, so only a crash of PostgreSQL itself (not of the app or Redis) can forget the last fraction of
   * a second of reservations — in the buyer's favour. On: every reservation batch waits for the flush (slower).
   */
  QUOTA_SYNCHRONOUS_COMMIT: bool(false),
  /**
   * Operators: the accounts (emails, comma-separated, compared case-insensitively) that may open /admin
   * (lib/accounts/admin.ts). Default none: nobody is an operator, and /admin answers like a missing page.
   */
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
  /**
   * Outgoing email (lib/platform/mail.ts): an SMTP server as a URL, `smtp://user:pass@host:587` (STARTTLS when offered)
   * or `smtps://…:465`. Unset: every message is kept in the database outbox (/admin/outbox, `npm run almanac -- outbox`).
   */
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
  /** The From of every email. */
  MAIL_FROM: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : 'Almanac <no-reply@localhost>')),
  /** Sign-ups allowed per client address per hour (each costs an argon2id hash; lib/accounts/sign-in-limiter.ts). */
  SIGN_UPS_PER_ADDRESS_PER_HOUR: intWithDefault(20, 1),
  /** Publisher backend timeout when a knowledge base sets none (milliseconds). */
  PUBLISHER_TIMEOUT_MS: intWithDefault(30_000, 1),
  /** The publisher console's "Try it" and "Send a test query": questions per account per minute, every listing together. */
  CONSOLE_QUERIES_PER_MINUTE: intWithDefault(20, 1),
  /** Allow publisher endpoints on private, link-local or loopback addresses (trusted networks only). */
  ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: bool(false),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Override of Stripe's API host (tests point it at a local fake), e.g. http://127.0.0.1:12111 */
  STRIPE_API_BASE: optionalString,
  /** OpenAI-compatible chat model for hosted answers; extractive answers when unset. */
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  /** How long a chat-model answer may take before the engine answers extractively instead (milliseconds). */
  LLM_TIMEOUT_MS: intWithDefault(25_000, 1),
  /** OpenAI-compatible embeddings endpoint for hybrid retrieval (vectors fused with BM25); lexical only when unset. */
  EMBEDDINGS_BASE_URL: optionalString,
  EMBEDDINGS_API_KEY: optionalString,
  EMBEDDINGS_MODEL: optionalString,
  /** How long one embeddings call may take before the engine carries on lexically (milliseconds). */
  EMBEDDINGS_TIMEOUT_MS: intWithDefault(10_000, 1),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  /** GitHub's web host (authorize and token endpoints); GitHub Enterprise Server: https://github.example.com */
  GITHUB_URL: serviceBaseUrl('https://github.com'),
  /** GitHub's REST API (user and emails); GitHub Enterprise Server: https://github.example.com/api/v3 */
  GITHUB_API_URL: serviceBaseUrl('https://api.github.com'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Google's OpenID Connect issuer; its /.well-known/openid-configuration names every other endpoint. */
  GOOGLE_ISSUER: serviceBaseUrl('https://accounts.google.com'),
  /** Largest document accepted for hosted knowledge bases (bytes). */
  MAX_UPLOAD_BYTES: intWithDefault(20 * 1024 * 1024, 1),
  /** Uploads one account may send at once (per instance), and files it may upload an hour (every instance together). */
  UPLOADS_CONCURRENT_PER_ACCOUNT: intWithDefault(2, 1),
  UPLOADS_PER_HOUR: intWithDefault(100, 1),
  /** The largest cap a free plan (price 0, no card) may have, in queries per period (docs/api.md §9.2). */
  FREE_PLAN_MAX_QUERIES: intWithDefault(100, 1),
  /** The platform's share of every paid period, in percent (0–100): Stripe's application fee, the ledger's fee. */
  PLATFORM_FEE_PERCENT: intWithDefault(20, 0).refine((n) => n <= 100, 'must be at most 100'),
  /**
   * Background jobs (lib/platform/jobs.ts): a running job's heartbeat; a job whose worker stopped beating this long is
   * retried by another instance (pg-boss's heartbeat, at least 10 s).
   */
  JOB_LEASE_MS: intWithDefault(60_000, 10_000),
  /** Parse workers (lib/engine/parse-in-worker.ts): threads that parse uploads at once, each one's heap (MB). */
  PARSE_WORKERS: intWithDefault(1, 1),
  PARSE_MAX_HEAP_MB: intWithDefault(256, 64),
  /**
   * One document's budgets: wall time to parse and chunk (ms), PDF pages, bytes its compressed streams inflate to, HTML
   * element depth, characters of text, chunks.
   */
  PARSE_TIMEOUT_MS: intWithDefault(60_000, 100),
  PARSE_MAX_PAGES: intWithDefault(2_000, 1),
  PARSE_MAX_INFLATED_BYTES: intWithDefault(128 * 1024 * 1024, 1),
  PARSE_MAX_DEPTH: intWithDefault(256, 8),
  PARSE_MAX_CHARACTERS: intWithDefault(20_000_000, 1),
  PARSE_MAX_CHUNKS: intWithDefault(20_000, 1),
  /** How often each instance looks for due jobs besides the wake-up of LISTEN/NOTIFY (pg-boss: at least 500 ms). */
  JOB_POLL_MS: intWithDefault(1_000, 500),
  /** Bearer token that GET /metrics requires; unset, /metrics answers only loopback and private addresses. */
  METRICS_TOKEN: optionalString,
  /** OTLP/HTTP collector base URL (spans go to <url>/v1/traces); unset, no traces are made. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.refine(
    (v) => v === undefined || (/^https?:\/\//i.test(v) && URL.canParse(v)),
    'must be an http(s) URL such as http://localhost:4318',
  ),
  /** The service.name of this instance's spans. */
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
