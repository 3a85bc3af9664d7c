/**
 * The project's vitest configuration collects no test under bench/, so these unit tests run with their own:
 *   npx vitest run --config bench/engine-quality/outside/vitest.config.ts
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, '../../..') } },
  test: { name: 'outside-sets', root: import.meta.dirname, include: ['*.test.ts'], environment: 'node' },
});
