/**
 * Reading a set's files from a local copy, and refusing any file that is not byte for byte the one its loader was
 * written for. A copy is either a bare git directory (what the lead's fetch tool returns under /work/.mirror, or
 * `git clone --bare`), read at the recorded commit with `git show`, or a plain checkout or folder holding the files at
 * their repository paths (whatever commit it is at: the checksums decide).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { OutsideSource } from './types';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const isGitDirectory = (dir: string) => existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')) && statSync(join(dir, 'objects')).isDirectory();

function readRaw(from: string, commit: string, path: string): Buffer {
  if (!existsSync(from)) throw new Error(`${from} does not exist: pass a git directory or a checkout of the set's repository.`);
  if (isGitDirectory(from)) {
    try {
      return execFileSync('git', ['--git-dir', from, 'show', `${commit}:${path}`], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      throw new Error(`${from} holds no ${path} at commit ${commit}: fetch the set's repository at that commit.`);
    }
  }
  const file = join(from, path);
  if (!existsSync(file)) throw new Error(`${file} does not exist: pass a checkout of the set's repository at commit ${commit}.`);
  return readFileSync(file);
}

/** A file of the set, checked against the checksum its loader records. */
export function readVerified(from: string, source: OutsideSource, path: string): Buffer {
  const recorded = source.files.find((f) => f.path === path);
  if (!recorded) throw new Error(`${path} is not among the files recorded for ${source.repository}.`);
  const bytes = readRaw(from, source.commit, path);
  const actual = sha256(bytes);
  if (actual !== recorded.sha256) {
    throw new Error(
      `${path} has sha256 ${actual}, not the ${recorded.sha256} recorded for ${source.repository} at ${source.commit}: this is not the file the loader was written for.`,
    );
  }
  return bytes;
}

export const readVerifiedJson = <T>(from: string, source: OutsideSource, path: string): T => JSON.parse(readVerified(from, source, path).toString('utf8')) as T;

/** A JSON Lines file of the set, one record a non-empty line. */
export const readVerifiedJsonl = <T>(from: string, source: OutsideSource, path: string): T[] =>
  readVerified(from, source, path)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
