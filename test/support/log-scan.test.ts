import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '@/lib/keys';
import { scrubSecrets } from '@/lib/platform/log';
import { expectLogsFreeOfSecrets, findIssuedKeys, rememberSecret, scanLogDirectory } from './log-scan';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'almanac-log-scan-test-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('findIssuedKeys', () => {
  it('finds a well-formed key anywhere in a line, and nothing in the masked form the logger writes', () => {
    const { key } = generateApiKey('live');
    expect(findIssuedKeys(`{"msg":"x","auth":"Bearer ${key}"}`)).toEqual([key]);
    expect(findIssuedKeys(scrubSecrets(`{"msg":"x","auth":"${key}"}`))).toEqual([]);
  });

  it('ignores key-shaped strings whose checksum does not verify, and longer runs of the alphabet', () => {
    const { key } = generateApiKey('test');
    const broken = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(findIssuedKeys(broken)).toEqual([]);
    expect(findIssuedKeys(`${key}X`)).toEqual([]);
  });
});

describe('scanLogDirectory', () => {
  it('reports a remembered secret and an unremembered key, file by file', () => {
    const dir = freshDir();
    vi.stubEnv('ALMANAC_TEST_LOG_DIR', dir);
    const secret = `whsec_${Date.now()}_publisher_signing_secret`;
    rememberSecret(secret);
    const { key } = generateApiKey('live');
    writeFileSync(path.join(dir, 'clean.log'), '{"msg":"ok"}\n{"msg":"also ok"}\n');
    writeFileSync(path.join(dir, 'secret.log'), `{"msg":"calling publisher","sig":"${secret}"}\n`);
    writeFileSync(path.join(dir, 'key.log'), `{"msg":"${key}"}\n`);
    writeFileSync(path.join(dir, 'notes.txt'), key); // not a log file: not scanned
    const scan = scanLogDirectory(dir);
    expect(scan).toMatchObject({ files: 3, lines: 4, secrets: 1 });
    expect(scan.leaks.sort()).toEqual([`key.log: the API key ${key.slice(0, 20)}…`, `secret.log: a remembered secret (${secret.slice(0, 12)}…)`]);
  });

  it('finds nothing in clean logs', () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, 'a.log'), '{"msg":"hello"}\n');
    expect(scanLogDirectory(dir)).toEqual({ files: 1, lines: 1, secrets: 0, leaks: [] });
  });
});

describe('expectLogsFreeOfSecrets', () => {
  it('throws on a remembered secret in a file, and passes a clean one', () => {
    const dir = freshDir();
    const secret = `infra_${Date.now()}_key`;
    rememberSecret(secret);
    const clean = path.join(dir, 'clean.log');
    const dirty = path.join(dir, 'dirty.log');
    writeFileSync(clean, '{"msg":"fine"}\n');
    writeFileSync(dirty, `{"msg":"${secret}"}\n`);
    expect(expectLogsFreeOfSecrets([clean])).toEqual({ lines: 1 });
    expect(() => expectLogsFreeOfSecrets([clean, dirty])).toThrow(/dirty\.log holds a remembered secret/);
  });
});
