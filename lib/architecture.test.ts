import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The floor plan, checked: lib/ is grouped by domain, each folder's index.ts is its public surface, imports run one
 * way (docs/architecture.md, "Architecture"), and only lib/ touches the database schema and client in db/.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** Lower layers never import higher ones; a folder may import its own layer only without forming a loop. */
const LAYERS: Record<string, number> = {
  platform: 0,
  'query-answer.ts': 0,
  keys: 1,
  limits: 1,
  site: 1,
  subscriptions: 2,
  alerts: 2,
  accounts: 2,
  catalog: 3,
  billing: 3,
  publishing: 3,
  oauth: 3,
  engine: 4,
  routing: 5,
  gateway: 6,
  dashboard: 6,
  seed: 7,
  openapi: 7,
  'health.ts': 7,
  // The server in front of Next (npm start): its front door and the Node faces of the gateway and the catalog.
  server: 8,
};
/**
 * Folders whose modules are imported one by one: a toolkit of independent pieces rather than one domain. lib/site's
 * paths and flash tables reach client components, which must not pull its server-side form helper in through an index.
 */
const MODULE_IMPORTS = new Set(['platform', 'site']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.mts')) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  // Comment lines may quote an import ("import { x } from './y'") without making one.
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*(?:\/\/|\/\*|\*).*$/gm, '');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]!);
}

/** A specifier as a repository path without extension (`lib/gateway/pipeline`), or null for packages. */
function resolve(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return spec.slice(2).replace(/\.(mjs|ts|tsx)$/, '');
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(mjs|ts|tsx)$/, '');
  return null;
}

/** The lib/ unit a path belongs to: its folder, or the top-level file's name. */
function libUnit(target: string): string | null {
  const parts = target.split('/');
  if (parts[0] !== 'lib' || parts.length < 2) return null;
  // `@/lib/gateway` is the folder (its index.ts); `@/lib/health` is a top-level file.
  const isFolder = parts.length > 2 || statSync(path.join(ROOT, target), { throwIfNoEntry: false })?.isDirectory();
  return isFolder ? parts[1]! : `${parts[1]}.ts`;
}

const product = ['lib', 'app', 'components', 'scripts'].flatMap(sourceFiles).filter((f) => !/\.test\.tsx?$/.test(f));
const edges = product.flatMap((file) =>
  importsOf(file).flatMap((spec) => {
    const target = resolve(file, spec);
    return target ? [{ file, spec, target }] : [];
  }),
);

describe('architecture', () => {
  it('knows every unit of lib/', () => {
    const units = new Set(product.filter((f) => f.startsWith('lib/')).map((f) => libUnit(f.replace(/\.(ts|tsx|mjs)$/, ''))));
    expect([...units].filter((u) => u && !(u in LAYERS))).toEqual([]);
  });

  it('imports run one way between the folders of lib/', () => {
    const upward = edges.flatMap(({ file, spec, target }) => {
      const from = libUnit(file.replace(/\.(ts|tsx|mjs)$/, ''));
      const to = libUnit(target);
      if (!from || !to || from === to) return [];
      return LAYERS[to]! > LAYERS[from]! ? [`${file} imports ${spec} (${from} is below ${to})`] : [];
    });
    expect(upward).toEqual([]);
  });

  it('has no import loop between the folders of lib/', () => {
    const graph = new Map<string, Set<string>>();
    for (const { file, target } of edges) {
      const from = libUnit(file.replace(/\.(ts|tsx|mjs)$/, ''));
      const to = libUnit(target);
      if (from && to && from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
    const loops: string[] = [];
    const visit = (unit: string, trail: string[]) => {
      for (const next of graph.get(unit) ?? []) {
        if (next === trail[0]) loops.push([...trail, next].join(' → '));
        else if (!trail.includes(next) && next > trail[0]!) visit(next, [...trail, next]);
      }
    };
    for (const unit of graph.keys()) visit(unit, [unit]);
    expect(loops).toEqual([]);
  });

  it('has no import loop between the files of lib/, type-only imports included', () => {
    const fileOf = (target: string) =>
      ['.ts', '.tsx', '.mjs', '/index.ts'].map((end) => target + end).find((f) => statSync(path.join(ROOT, f), { throwIfNoEntry: false })?.isFile());
    const graph = new Map<string, string[]>();
    for (const { file, target } of edges) {
      const to = fileOf(target);
      if (file.startsWith('lib/') && to?.startsWith('lib/')) graph.set(file, [...(graph.get(file) ?? []), to]);
    }
    // Depth first: a file reached again while it is still open closes a loop.
    const state = new Map<string, 'open' | 'done'>();
    const loops: string[] = [];
    const visit = (node: string, trail: string[]) => {
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 'open') loops.push([...trail.slice(trail.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next, [...trail, next]);
      }
      state.set(node, 'done');
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node, [node]);
    expect(loops).toEqual([]);
  });

  it('reaches another folder of lib/ only through its index.ts', () => {
    const deep = edges.flatMap(({ file, spec, target }) => {
      const parts = target.split('/');
      if (parts[0] !== 'lib' || parts.length < 3 || MODULE_IMPORTS.has(parts[1]!)) return [];
      const inside = file.startsWith(`lib/${parts[1]}/`);
      if (inside || parts[2] === 'index') return [];
      return [`${file} imports ${spec}`];
    });
    expect(deep).toEqual([]);
  });

  it('components/ and lib/ never import app/ (routes sit on top: they hand actions down as props)', () => {
    const upward = edges.filter(({ file, target }) => target.startsWith('app/') && !file.startsWith('app/')).map(({ file, spec }) => `${file} imports ${spec}`);
    expect(upward).toEqual([]);
  });

  it('leaves db/ to lib/', () => {
    const outside = edges.filter(({ file, target }) => target.startsWith('db/') && !file.startsWith('lib/')).map(({ file, spec }) => `${file} imports ${spec}`);
    expect(outside).toEqual([]);
  });

  it('db/ does not import lib/', () => {
    const upward = sourceFiles('db')
      .flatMap((file) => importsOf(file).map((spec) => ({ file, target: resolve(file, spec) })))
      .filter(({ target }) => target?.startsWith('lib/'))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(upward).toEqual([]);
  });
});
