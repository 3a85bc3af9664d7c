import pino, { type Logger } from 'pino';
import { getEnv } from './env';

/** Anything shaped like an Almanac key is cut down to its display prefix before it can reach a log line. */
const KEY_PATTERN = /alm_sk_(live|test)_([0-9A-Za-z]{8})[0-9A-Za-z]*/g;
const BEARER_PATTERN = /(Bearer\s+)[^\s"',]+/gi;
/** GitHub's OAuth, personal, user-to-server, server and refresh tokens (`gho_…`, `ghp_…`, `ghu_…`, `ghs_…`, `ghr_…`). */
const GITHUB_TOKEN_PATTERN = /\b(gh[oprsu]_)[0-9A-Za-z_]{16,}/g;
/** Almanac's own OAuth access and refresh tokens and authorization codes (docs/api.md §10.7). */
const ALMANAC_TOKEN_PATTERN = /\b(alm_(?:at|rt|ac)_)[0-9A-Za-z_-]{16,}/g;

export function scrubSecrets(text: string): string {
  return text
    .replace(KEY_PATTERN, 'alm_sk_$1_$2…')
    .replace(BEARER_PATTERN, '$1[redacted]')
    .replace(GITHUB_TOKEN_PATTERN, '$1[redacted]')
    .replace(ALMANAC_TOKEN_PATTERN, '$1[redacted]');
}

// OAuth: the client secret, the tokens a provider issues and the one-time code and PKCE verifier that buy them.
const OAUTH_SECRET_FIELDS = ['clientSecret', 'client_secret', 'access_token', 'refresh_token', 'id_token', 'code_verifier'];

const REDACT_PATHS = [
  'authorization',
  'password',
  'passwordHash',
  'secret',
  'token',
  'apiKey',
  'key',
  'infraKey',
  'signingSecret',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.passwordHash',
  '*.secret',
  '*.token',
  '*.apiKey',
  '*.key',
  '*.infraKey',
  '*.signingSecret',
  '*.headers.authorization',
  '*.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  ...OAUTH_SECRET_FIELDS,
  ...OAUTH_SECRET_FIELDS.map((field) => `*.${field}`),
  ...OAUTH_SECRET_FIELDS.map((field) => `*.*.${field}`),
];

function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return { type: value.name, message: scrubSecrets(value.message), stack: value.stack ? scrubSecrets(value.stack) : undefined };
  }
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, depth + 1);
  return out;
}

function createLogger(): Logger {
  const env = getEnv();
  const destination = env.LOG_FILE ? pino.destination({ dest: env.LOG_FILE, append: true, sync: true }) : pino.destination({ sync: false });
  return pino(
    {
      level: env.LOG_LEVEL,
      base: { service: 'almanac' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { log: (object) => scrubDeep(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

let logger: Logger | undefined;

export function getLogger(): Logger {
  logger ??= createLogger();
  return logger;
}

/** Created on first use, so configuration is read lazily. */
export const log: Pick<Logger, 'info' | 'warn' | 'error' | 'debug' | 'fatal' | 'trace' | 'child'> = {
  info: (...a: Parameters<Logger['info']>) => getLogger().info(...a),
  warn: (...a: Parameters<Logger['warn']>) => getLogger().warn(...a),
  error: (...a: Parameters<Logger['error']>) => getLogger().error(...a),
  debug: (...a: Parameters<Logger['debug']>) => getLogger().debug(...a),
  fatal: (...a: Parameters<Logger['fatal']>) => getLogger().fatal(...a),
  trace: (...a: Parameters<Logger['trace']>) => getLogger().trace(...a),
  child: (...a: Parameters<Logger['child']>) => getLogger().child(...a),
} as never;
