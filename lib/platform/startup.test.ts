import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnvForTesting } from './env';
import { checkConfiguration, startOrExit } from './startup';

/** Start-up fails whole (lib/platform/startup.ts): the reason on stderr and exit status 1, never a server left up. */
describe('startOrExit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    resetEnvForTesting();
  });

  function capture() {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    return { exit, stderr };
  }

  it('ends the process with one sentence when a step throws, even when the configuration the logger reads is bad', async () => {
    const { exit, stderr } = capture();
    vi.stubEnv('LOG_LEVEL', 'verbose');
    resetEnvForTesting();
    await startOrExit(() => checkConfiguration());
    expect(exit).toHaveBeenCalledWith(1);
    expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/^Almanac cannot start: Invalid configuration:\n {2}LOG_LEVEL: /));
  });

  it('refuses a short ALMANAC_SECRET, and runs on when every step succeeds', async () => {
    const { exit, stderr } = capture();
    vi.stubEnv('ALMANAC_SECRET', 'short');
    resetEnvForTesting();
    await startOrExit(() => checkConfiguration());
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('ALMANAC_SECRET: must be at least 32 characters'));
    exit.mockClear();
    vi.stubEnv('ALMANAC_SECRET', 'x'.repeat(32));
    resetEnvForTesting();
    await startOrExit(() => checkConfiguration());
    expect(exit).not.toHaveBeenCalled();
  });
});
