/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native, WASM or worker-based packages are loaded by Node at run time instead of being bundled.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pg',
    'pino',
    'ioredis',
    '@node-rs/argon2',
    'pdfjs-dist',
    'gpt-tokenizer',
  ],
  // Separate build folders let several builds coexist (benchmarks, parallel test servers).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
