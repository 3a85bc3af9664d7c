import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYED_ENDPOINTS, servedMethods, type KeyedEndpointName } from './endpoints';
import { matchKeyedPath } from '@/lib/server/keyed-lane';

const names = Object.keys(KEYED_ENDPOINTS) as KeyedEndpointName[];
const routeFile = (endpointPath: string) => path.join(import.meta.dirname, '../../app', endpointPath.replace('{kb_id}', '[kbId]'), 'route.ts');

describe('the keyed endpoint table', () => {
  it.each(names)('%s: its route file is built from the table', (name) => {
    expect(readFileSync(routeFile(KEYED_ENDPOINTS[name].path), 'utf8')).toContain(`keyedRoute('${name}')`);
  });

  it.each(names)('%s: the fast lane matches its path', (name) => {
    const url = KEYED_ENDPOINTS[name].path.replace('{kb_id}', 'kb_1');
    expect(matchKeyedPath(url)).toEqual({ endpoint: name, kbId: name === 'dify' ? '' : 'kb_1' });
  });

  it('serves one method each, HEAD following GET', () => {
    expect(Object.fromEntries(names.map((name) => [name, servedMethods(name)]))).toEqual({
      query: ['POST'],
      search: ['POST'],
      usage: ['GET', 'HEAD'],
      mcp: ['POST'],
      dify: ['POST'],
    });
  });
});
