import { tmpdir } from 'node:os';
import path from 'node:path';
import { resetEnvForTesting } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';

/**
 * Import FIRST in gateway suites: a fixed fake server secret (so other processes can decrypt publisher secrets),
 * private publisher endpoints allowed (the test publishers listen on loopback), a 2-second rate window so tests can
 * watch it slide, and real logs into a per-file LOG_FILE that the file scans for leaked keys and secrets (and, being
 * in the run's log directory, so does the run's teardown).
 */
export const GATEWAY_TEST_SECRET = 'fake-almanac-secret-for-gateway-tests-0123456789';
export const LOG_FILE = path.join(process.env.ALMANAC_TEST_LOG_DIR ?? tmpdir(), `gateway-${randomBase62(8)}.log`);
export const RATE_WINDOW_MS = 2_000;

process.env.ALMANAC_SECRET = GATEWAY_TEST_SECRET;
process.env.ALLOW_PRIVATE_PUBLISHER_ENDPOINTS = 'true';
process.env.RATE_LIMIT_WINDOW_MS = String(RATE_WINDOW_MS);
process.env.LOG_LEVEL = 'info';
process.env.LOG_FILE = LOG_FILE;
process.env.APP_URL = 'http://almanac.test';
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;
resetEnvForTesting();
