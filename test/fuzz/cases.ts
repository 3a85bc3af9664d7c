import { generateApiKey } from '@/lib/keys';
import type { FormTarget } from '../support/html-forms';
import type { FuzzTargets } from './discover';
import { caseRandom, type Random } from './random';
import { rawUtf8, type WireRequest } from './wire';

/**
 * The malformed requests: case `index` of run `seed` is a pure function of the two and of what discovery found, so
 * a failing case can be generated again alone (`FUZZ_SEED`, `FUZZ_ONLY`; bench/fuzz/README.md). Each kind aims at
 * one surface; every kind mixes well-formed parts with broken ones, so requests get past the first check and reach
 * the deeper ones.
 */

const CASE_KINDS = {
  'api-path': 14,
  listing: 9,
  detail: 5,
  query: 17,
  page: 15,
  form: 16,
  'action-id': 5,
  auth: 5,
  checkout: 4,
  webhook: 3,
  raw: 3,
} as const;
export type CaseKind = keyof typeof CASE_KINDS;

export interface FuzzCase {
  index: number;
  kind: CaseKind;
  /** What was broken, for the report. */
  note: string;
  request?: WireRequest;
  /** Bytes written on a bare socket (kind `raw`): the server must only survive them. */
  raw?: Buffer;
  /** Headers too large or repeated in ways Node's parser refuses before any route sees them (docs/api.md §7.1). */
  parserMayRefuse?: boolean;
  /** Sent with the buyer's session cookie. */
  signedIn?: boolean;
  /**
   * Sent on a connection of its own, closed after it: its framing is broken on purpose (a Content-Length that does not
   * match the body), so the server would read the next request on a shared connection as the rest of this one.
   */
  ownConnection?: boolean;
  /** Declares more body than it sends: the server rightly waits for the rest (until its request timeout). */
  mayHang?: boolean;
}

// ── text ─────────────────────────────────────────────────────────────────────────────────────────────

const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\t', '\n', '\u000b', '\u000c', '\r', '\u001b', '\u001f', '\u007f'];
const UNICODE = ['é', 'ß', 'Ω', '中文', '😀', '𝔘', '\u200b', '\u202e', '\u2028', '\ufeff', '\ufffd', 'e\u0301', '\u0085', '\u00a0', 'ﷺ', '\u{10ffff}'];
const NASTY = [
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '..\\..\\',
  '%s%s%n',
  'null',
  'undefined',
  '[object Object]',
  'NaN',
  '-1',
  '0',
  '1e309',
  '__proto__',
  'constructor',
  'true',
];
const BAD_ESCAPES = [
  '%',
  '%Z',
  '%ZZ',
  '%C3%28',
  '%E2%82',
  '%F0%9F',
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%00',
  '%0A',
  '%1B',
  '%7F',
  '%2F',
  '%5C',
  '%252F',
  '%2e%2e',
  '%u0041',
];

/** The longest value a repetition makes (characters): far beyond every field's limit, far below V8's string limit. */
const MAX_FUZZ_TEXT = 200_000;

/** A value with something wrong with it, or an ordinary one. */
function fuzzText(r: Random, base = 'tides'): string {
  switch (r.int(0, 11)) {
    case 0:
      return base.slice(0, r.int(0, base.length)) + r.pick(CONTROL) + base.slice(r.int(0, base.length));
    case 1:
      return base + r.pick(UNICODE) + r.pick(UNICODE);
    case 2:
      return `${base}\ud800`; // a lone surrogate (sent as UTF-8 it becomes U+FFFD; in JSON escapes it stays one)
    case 3: {
      // Long, but under MAX_FUZZ_TEXT however long earlier rounds made the value: a form's field mutated three times
      // could reach past the string length limit, and the generator itself threw (RangeError).
      const times = r.int(50, 4_000);
      return base.repeat(Math.min(times, Math.max(1, Math.floor(MAX_FUZZ_TEXT / Math.max(1, base.length)))));
    }
    case 4:
      return '';
    case 5:
      return r.pick(['   ', '\t', '\r\n', ' \u00a0 ']);
    case 6:
      return r.pick(NASTY);
    case 7:
      return base.toUpperCase();
    case 8:
      return `${base}\u0000`;
    case 9:
      return Array.from({ length: r.int(1, 30) }, () => String.fromCharCode(r.int(0, 0x2fff))).join('');
    default:
      return base;
  }
}

/** A URI component: mostly well encoded, sometimes raw bytes, double-encoded or with broken escapes spliced in. */
function encodeComponent(r: Random, value: string): string {
  let out: string;
  try {
    out = encodeURIComponent(value);
  } catch {
    out = encodeURIComponent(value.replace(/[\ud800-\udfff]/g, 'x')) + '%ED%A0%80';
  }
  switch (r.int(0, 9)) {
    case 0:
      return rawUtf8(value).replace(/[\x00-\x20\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
    case 1:
      return out.replace(/%/g, '%25');
    case 2: {
      const at = r.int(0, out.length);
      return out.slice(0, at) + r.pick(BAD_ESCAPES) + out.slice(at);
    }
    default:
      return out;
  }
}

/** Header values Node will send (latin1 without CR, LF or NUL). */
function headerSafe(value: string): string {
  return rawUtf8(value).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

// ── paths ────────────────────────────────────────────────────────────────────────────────────────────

/** A dynamic segment filled with a real value (usually) or a broken one. */
function segmentValue(r: Random, t: FuzzTargets, name: string, previous: string): string {
  const real = (() => {
    if (name === 'id' && previous === 'knowledge-bases') return r.pick(t.kbIds);
    if (name === 'kb_id') return r.pick(t.kbIds);
    if (name === 'slug') return t.slugs.length ? r.pick(t.slugs) : 'none';
    if (name === 'id' && previous === 'subscriptions') return t.subscriptionIds.length ? r.pick(t.subscriptionIds) : 'sub_x';
    if (name === 'id' && previous === 'keys') return t.keyIds.length ? r.pick(t.keyIds) : 'key_x';
    if (name === '...nextauth')
      return r.pick([
        'session',
        'csrf',
        'providers',
        'signin',
        'signout',
        'callback',
        'error',
        '_log',
        'verify-request',
        'signin/github',
        'callback/credentials',
        'callback/google',
        'nope',
      ]);
    return r.pick(['x', 'search', 'usage', 'mcp', 'a/b/c', 'openapi.json']);
  })();
  return r.chance(0.65) ? encodeComponent(r, real) : encodeComponent(r, fuzzText(r, real));
}

function fillTemplate(r: Random, t: FuzzTargets, template: string): string {
  const segments = template.split('/').slice(1);
  const out = segments.map((segment, i) => {
    const dynamic = /^\[\[?(\.\.\.)?([^\]]+)\]\]?$/.exec(segment);
    if (!dynamic) return segment;
    if (segment.startsWith('[[') && r.chance(0.3)) return '';
    const name = `${dynamic[1] ?? ''}${dynamic[2]}`;
    return segmentValue(r, t, name === '...nextauth' ? name : dynamic[2]!, segments[i - 1] ?? '');
  });
  return `/${out.filter((s, i) => s !== '' || i === out.length - 1).join('/')}`.replace(/\/$/, '') || '/';
}

/** Breaks the shape of a path: empty segments, dot segments, backslashes, case, length, stray escapes. */
function mutatePath(r: Random, path: string): string {
  switch (r.int(0, 13)) {
    case 0:
      return path.replace('/', '//');
    case 1:
      return `${path}/`;
    case 2: {
      const parts = path.split('/');
      parts.splice(r.int(1, parts.length), 0, r.pick(['.', '..', '%2e', '%2e%2e', '.%2e', '...']));
      return parts.join('/');
    }
    case 3:
      return path.replace(/\//g, (s) => (r.chance(0.3) ? '\\' : s));
    case 4:
      return path.toUpperCase();
    case 5:
      return `${path}/${'a'.repeat(r.int(100, 8_000))}`;
    case 6: {
      const at = r.int(1, path.length);
      return path.slice(0, at) + r.pick(BAD_ESCAPES) + path.slice(at);
    }
    case 7:
      return `${path}${r.pick([';', ';jsessionid=1', '%00', '%20', '~', '.json', '.php', '#frag', '?', '??', '&'])}`;
    case 8:
      return `${path}/${encodeComponent(r, fuzzText(r, 'x'))}`;
    case 9:
      return rawUtf8(`${path}/${r.pick(UNICODE)}`);
    case 10:
      return r.pick([
        '*',
        'http://evil.example/api/health',
        `//evil.example${path}`,
        `/${'%2F'.repeat(20)}`,
        '/%2e%2e/%2e%2e/etc/passwd',
        '/_next/static/../../api/health',
        '/_next/%ZZ',
        '/_next/image?url=%2F&w=1&q=1',
      ]);
    default:
      return path;
  }
}

const LISTING_NAMES = ['query', 'category', 'tags', 'tags[]', 'sort', 'page', 'pageSize'];
const PAGE_PARAM_NAMES = [
  ...LISTING_NAMES,
  'callbackUrl',
  'error',
  'provider',
  'flash',
  'handoff',
  'planId',
  'session_id',
  'signedOut',
  'checkout',
  'probe',
  '_rsc',
];

function fuzzQueryString(r: Random, names: readonly string[], count = r.int(0, 4)): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = r.chance(0.85) ? r.pick(names) : fuzzText(r, 'x').slice(0, 40);
    const base =
      name === 'page' || name === 'pageSize'
        ? String(r.pick([1, 2, 50, 51, 0, -1, 1e9, 1.5]))
        : name === 'category'
          ? r.pick(['health', 'legal', 'LEGAL', 'science'])
          : name === 'sort'
            ? r.pick(['popular', 'new', 'updated', 'relevance'])
            : name === 'callbackUrl'
              ? r.pick(['/account', '//evil.example', '/\t/evil.example', 'https://evil.example', 'javascript:alert(1)'])
              : 'tides';
    const value = r.chance(0.6) ? fuzzText(r, base) : base;
    parts.push(r.chance(0.1) ? encodeComponent(r, name) : `${encodeComponent(r, name)}=${encodeComponent(r, value)}`);
  }
  if (r.chance(0.05)) parts.push('&&', '=', '==x', '%');
  return parts.length ? `?${parts.join('&')}` : '';
}

// ── headers and bodies ───────────────────────────────────────────────────────────────────────────────

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonp',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/xml',
  '',
  ';;;',
  '*/*',
];

function extraHeaders(r: Random, base: URL, c: FuzzCase): [string, string][] {
  const headers: [string, string][] = [];
  const count = r.int(0, 3);
  for (let i = 0; i < count; i++) {
    switch (r.int(0, 15)) {
      case 0:
        headers.push(['Accept', r.pick(['*/*', 'text/html', 'application/json', 'text/x-component', 'text/event-stream', 'garbage', ''])]);
        break;
      case 1:
        headers.push(['Accept-Encoding', r.pick(['gzip', 'br', 'gzip;q=0', 'identity', '*', 'x'.repeat(200)])]);
        break;
      case 2:
        headers.push(['RSC', '1']);
        break;
      case 3:
        headers.push([
          'Next-Router-State-Tree',
          r.pick(['garbage', '%5B%22%22%5D', encodeURIComponent('["",{"children":["__PAGE__",{}]}]'), '%ZZ', '[', encodeURIComponent('{"a":'.repeat(50))]),
        ]);
        break;
      case 4:
        headers.push(['Next-Router-Prefetch', r.pick(['1', '2', 'x'])]);
        break;
      case 5:
        headers.push(['Next-Router-Segment-Prefetch', r.pick(['/_tree', '/_index', '/x', '%ZZ'])]);
        break;
      case 6:
        headers.push(['Next-Url', headerSafe(fuzzText(r, '/knowledge-bases'))]);
        break;
      case 7:
        headers.push(['X-Forwarded-Host', r.pick(['evil.example', '', base.host, 'a,b,c', 'x'.repeat(300)])]);
        break;
      case 8:
        headers.push(['X-Forwarded-For', r.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', ''])]);
        break;
      case 9:
        headers.push(['X-Forwarded-Proto', r.pick(['https', 'gopher', ''])]);
        break;
      case 10:
        headers.push(['Origin', r.pick([base.origin, 'https://evil.example', 'null', 'not a url', ''])]);
        break;
      case 11:
        headers.push([
          'Cookie',
          r.pick(['next-auth.session-token=garbage', 'next-auth.session-token=' + 'x'.repeat(3000), 'a=b; c', '=;=;', 'next-auth.csrf-token=x%ZZ']),
        ]);
        break;
      case 12:
        headers.push(['Range', r.pick(['bytes=0-1', 'bytes=x', 'bytes=100-0'])]);
        break;
      case 13:
        headers.push(['If-None-Match', r.pick(['*', '"x"', 'W/"y"'])]);
        break;
      case 14:
        headers.push(['X-Big', 'x'.repeat(r.int(1_000, 20_000))]);
        c.parserMayRefuse = true;
        break;
      default:
        headers.push([
          `X-${
            fuzzText(r, 'Fuzz')
              .replace(/[^A-Za-z0-9-]/g, '')
              .slice(0, 40) || 'Fuzz'
          }`,
          headerSafe(fuzzText(r)),
        ]);
    }
  }
  return headers;
}

function jsonBody(r: Random): Buffer {
  switch (r.int(0, 16)) {
    case 0:
      return Buffer.from(JSON.stringify({ query: 'When do neap tides occur?' }));
    case 1:
      return Buffer.from(JSON.stringify({ query: fuzzText(r, 'spring tides') }));
    case 2:
      return Buffer.from('{"query":"tides \\ud800"}');
    case 3:
      return Buffer.concat([Buffer.from('{"query":"tides '), r.bytes(r.int(1, 8)), Buffer.from('"}')]);
    case 4:
      return Buffer.from(
        r.pick(['', '{', '[]', 'null', '"x"', '42', '{"query":}', '{"query":"x"', "{'query':'x'}", '{"query":"x"}garbage', '\ufeff{"query":"x"}']),
      );
    case 5:
      // eslint-disable-next-line no-loss-of-precision -- 1e309 is Infinity on purpose: JSON.stringify sends it as null
      return Buffer.from(JSON.stringify({ query: r.pick([42, null, true, [], {}, ['x'], { $ne: 1 }, 1e309]) }));
    case 6:
      return Buffer.from(JSON.stringify({ query: 'x'.repeat(r.int(1_990, 2_010)) }));
    case 7:
      return Buffer.from(JSON.stringify({ query: 'y'.repeat(r.int(16_000, 40_000)) }));
    case 8:
      return Buffer.from(`${'['.repeat(5_000)}${']'.repeat(5_000)}`);
    case 9:
      return Buffer.from(`{"query":"x",${Array.from({ length: 500 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
    case 10:
      return r.bytes(r.int(0, 3_000));
    case 11:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"query":"tides"}')]);
    case 12:
      return Buffer.from(JSON.stringify({ query: 'tides', __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }));
    case 13:
      return Buffer.from('{"query":"a","query":"\\u0000"}');
    case 14:
      return Buffer.alloc(r.int(17_000, 300_000), 0x61);
    default:
      return Buffer.from(JSON.stringify({ query: r.pick(['tides', 'constitution veto', 'blood pressure', 'a']) }));
  }
}

function anyBody(r: Random): { body?: Buffer; contentType?: string } {
  switch (r.int(0, 6)) {
    case 0:
      return {};
    case 1:
      return { body: jsonBody(r), contentType: 'application/json' };
    case 2:
      return { body: Buffer.from(`a=${encodeComponent(r, fuzzText(r))}&b=%ZZ`), contentType: 'application/x-www-form-urlencoded' };
    case 3:
      return { body: r.bytes(r.int(1, 5_000)), contentType: r.pick(CONTENT_TYPES) };
    case 4:
      return { body: Buffer.alloc(r.int(1_000_000, 2_500_000), 0x7b), contentType: r.pick(CONTENT_TYPES) };
    default:
      return { body: Buffer.from(fuzzText(r, '{}')), contentType: r.pick(CONTENT_TYPES) };
  }
}

function authorization(r: Random, t: FuzzTargets): [string, string][] {
  const valid = generateApiKey(r.chance(0.5) ? 'live' : 'test').key;
  switch (r.int(0, 12)) {
    case 0:
      return [];
    case 1:
      return [['Authorization', '']];
    case 2:
      return [['Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`]];
    case 3:
      return [['Authorization', 'Bearer']];
    case 4:
      return [['Authorization', `Bearer ${valid}`]];
    case 5:
      return [['Authorization', `Bearer ${headerSafe(fuzzText(r, t.apiKey.slice(0, 20)))}`]];
    case 6:
      return [
        ['Authorization', `Bearer ${t.apiKey}`],
        ['Authorization', `Bearer ${t.apiKey}`],
      ];
    case 7:
      return [['Authorization', `bearer\t${t.apiKey}\t`]];
    case 8:
      return [['Authorization', `Bearer ${t.apiKey.slice(0, -1)}${t.apiKey.endsWith('a') ? 'b' : 'a'}`]];
    case 9:
      return [['Authorization', `Bearer ${'x'.repeat(r.int(100, 10_000))}`]];
    default:
      return [['Authorization', `Bearer ${t.apiKey}`]];
  }
}

// ── forms ────────────────────────────────────────────────────────────────────────────────────────────

function mutateFields(r: Random, form: FormTarget): [string, string][] {
  let fields = form.fields.map(([name, value]): [string, string] => [name, value]);
  const rounds = r.int(1, 3);
  for (let i = 0; i < rounds && fields.length; i++) {
    const at = r.int(0, fields.length - 1);
    const [name, value] = fields[at]!;
    switch (r.int(0, 9)) {
      case 0:
        fields.splice(at, 1);
        break;
      case 1:
        fields.push([name, fuzzText(r, value)]);
        break;
      case 2:
        fields[at] = [fuzzText(r, name), value];
        break;
      case 3:
        if (name.startsWith('$ACTION'))
          fields[at] = [
            name,
            r.pick(['', '{', '{"id":"00","bound":null}', '{"id":"\\u0000"}', JSON.stringify({ id: value.slice(0, 5), bound: '$@1' }), '[]', 'x'.repeat(5_000)]),
          ];
        else fields[at] = [name, fuzzText(r, value || 'sub_x')];
        break;
      case 4:
        fields = [];
        break;
      default:
        fields[at] = [name, fuzzText(r, value || 'x')];
    }
  }
  if (r.chance(0.3)) {
    const free = r.pick(['email', 'password', 'name', 'query', 'kbId', 'planId', 'subscriptionId', 'keyId', 'confirm', 'callbackUrl']);
    fields.push([free, fuzzText(r, free === 'email' ? 'fuzz@example.test' : free === 'password' ? 'long enough password' : 'x')]);
  }
  return fields;
}

function multipartBody(r: Random, fields: [string, string][], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    const disposition = r.chance(0.05) ? `form-data; name="${name}"; filename="${fuzzText(r, 'a.txt')}"` : `form-data; name="${name.replace(/"/g, '%22')}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, 'utf8'));
    chunks.push(r.chance(0.08) ? Buffer.concat([Buffer.from(value), r.bytes(r.int(1, 6))]) : Buffer.from(value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  const end = r.pick([`--${boundary}--\r\n`, `--${boundary}--\r\n`, `--${boundary}--\r\n`, '', `--${boundary}`, '--wrong--\r\n']);
  return Buffer.concat([...chunks, Buffer.from(end)]);
}

function formRequest(r: Random, base: URL, t: FuzzTargets, c: FuzzCase): WireRequest {
  const form = r.pick(t.forms);
  c.signedIn = form.signedIn && r.chance(0.85);
  const fields = r.chance(0.85) ? mutateFields(r, form) : form.fields;
  const boundary = '----almanacfuzzB0undary';
  const headers: [string, string][] = [];
  const origin = r.weighted({ same: 8, none: 1, foreign: 1, odd: 1 });
  if (origin === 'same') headers.push(['Origin', base.origin]);
  else if (origin === 'foreign') headers.push(['Origin', 'https://evil.example']);
  else if (origin === 'odd') headers.push(['Origin', r.pick(['null', 'garbage', `${base.origin}:99`, base.origin.toUpperCase()])]);
  let body: Buffer;
  const encoding = r.weighted({ asFound: 6, multipart: 2, urlencoded: 2, fetch: 3, junk: 1 });
  if (encoding === 'fetch' && form.actionId) {
    headers.push(['Next-Action', r.chance(0.8) ? form.actionId : headerSafe(fuzzText(r, form.actionId))]);
    headers.push(['Content-Type', r.pick(['text/plain;charset=UTF-8', `multipart/form-data; boundary=${boundary}`, 'application/json'])]);
    body = r.chance(0.5)
      ? Buffer.from(JSON.stringify([Object.fromEntries(fields.filter(([n]) => !n.startsWith('$ACTION')))]).slice(0, r.chance(0.2) ? 5 : undefined))
      : multipartBody(
          r,
          fields.filter(([n]) => !n.startsWith('$ACTION')),
          boundary,
        );
  } else if ((encoding === 'asFound' && form.enctype === 'multipart/form-data') || encoding === 'multipart') {
    headers.push([
      'Content-Type',
      r.chance(0.9)
        ? `multipart/form-data; boundary=${boundary}`
        : r.pick(['multipart/form-data', 'multipart/form-data; boundary=other', 'multipart/mixed; boundary=' + boundary]),
    ]);
    body = multipartBody(r, fields, boundary);
  } else if (encoding === 'junk') {
    const junk = anyBody(r);
    if (junk.contentType !== undefined) headers.push(['Content-Type', junk.contentType]);
    body = junk.body ?? Buffer.alloc(0);
  } else {
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    body = Buffer.from(fields.map(([n, v]) => `${encodeComponent(r, n)}=${encodeComponent(r, v)}`).join('&'));
  }
  const target =
    form.method === 'GET'
      ? `${form.action.split('?')[0]}?${fields.map(([n, v]) => `${encodeComponent(r, n)}=${encodeComponent(r, v)}`).join('&')}`
      : form.action;
  return {
    method: form.method === 'GET' && r.chance(0.8) ? 'GET' : 'POST',
    path: r.chance(0.1) ? mutatePath(r, target) : target,
    headers,
    body: form.method === 'GET' ? undefined : body,
  };
}

// ── the cases ────────────────────────────────────────────────────────────────────────────────────────

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ODD_METHODS = ['TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'PURGE', 'LOCK', 'M-SEARCH', 'REPORT', 'SOURCE'];
const method = (r: Random, common = 'GET') => (r.chance(0.5) ? common : r.chance(0.85) ? r.pick(METHODS) : r.pick(ODD_METHODS));

export function generateCase(t: FuzzTargets, baseUrl: string, seed: number, index: number): FuzzCase {
  const r = caseRandom(seed, index);
  const base = new URL(baseUrl);
  const kind = r.weighted(CASE_KINDS);
  const c: FuzzCase = { index, kind, note: '' };
  const routes = t.routes.filter((route) => route.kind === 'route');
  const pages = t.routes.filter((route) => route.kind === 'page');
  const with_ = (request: WireRequest): FuzzCase => {
    request.headers.push(...extraHeaders(r, base, c));
    if (c.signedIn) request.headers.push(['Cookie', t.cookie]);
    if (r.chance(0.02)) {
      request.headers.push(['Content-Type', 'text/plain'], ['Content-Type', 'application/json']);
    }
    // What Node's client refuses to put in a request line (spaces, controls, characters above U+00FF) goes escaped.
    request.path = request.path.replace(/[^\x21-\xff]/gu, (ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch)));
    c.request = request;
    c.note = `${request.method} ${request.path.slice(0, 160)}`;
    return c;
  };

  switch (kind) {
    case 'api-path': {
      const template = r.chance(0.8) ? r.pick(routes).template : r.pick(['/api', '/kb', '/api/marketplace', '/api/marketplace/x', '/kb/x/y/z', '/api/auth']);
      const path = r.chance(0.6) ? mutatePath(r, fillTemplate(r, t, template)) : fillTemplate(r, t, template);
      const body = r.chance(0.4) ? anyBody(r) : {};
      const headers: [string, string][] = body.contentType !== undefined ? [['Content-Type', body.contentType]] : [];
      if (r.chance(0.3)) headers.push(...authorization(r, t));
      return with_({
        method: method(r, r.pick(['GET', 'POST'])),
        path: path + (r.chance(0.3) ? fuzzQueryString(r, PAGE_PARAM_NAMES) : ''),
        headers,
        body: body.body,
      });
    }
    case 'listing': {
      const path = r.chance(0.9) ? '/api/marketplace/knowledge-bases' : mutatePath(r, '/api/marketplace/knowledge-bases');
      return with_({ method: r.chance(0.85) ? 'GET' : method(r), path: path + fuzzQueryString(r, LISTING_NAMES, r.int(1, 6)), headers: [] });
    }
    case 'detail': {
      const id = r.chance(0.4) ? r.pick(t.kbIds) : fuzzText(r, r.pick(t.kbIds));
      return with_({
        method: r.chance(0.8) ? 'GET' : method(r),
        path: `/api/marketplace/knowledge-bases/${encodeComponent(r, id)}${r.chance(0.2) ? fuzzQueryString(r, PAGE_PARAM_NAMES) : ''}`,
        headers: [],
      });
    }
    case 'query': {
      const kb = r.chance(0.7) ? r.pick(t.kbIds) : fuzzText(r, r.pick(t.kbIds));
      let path = `/kb/${encodeComponent(r, kb)}/query`;
      if (r.chance(0.15)) path = mutatePath(r, path);
      if (r.chance(0.1)) path += fuzzQueryString(r, ['query', 'kb_id', 'stream']);
      const headers: [string, string][] = [...authorization(r, t)];
      if (r.chance(0.9)) headers.push(['Content-Type', r.chance(0.7) ? 'application/json' : r.pick(CONTENT_TYPES)]);
      if (r.chance(0.15)) headers.push(['Idempotency-Key', headerSafe(r.pick(['k-' + r.int(0, 20), '', ' ', 'x'.repeat(300), fuzzText(r, 'key')]))]);
      const body = r.chance(0.9) ? jsonBody(r) : undefined;
      if (body && r.chance(0.05)) {
        const declared = r.pick([0, 1, body.length + 10, 99_999_999]);
        headers.push(['Content-Length', String(declared)]);
        c.ownConnection = true;
        c.mayHang = declared > body.length;
      }
      return with_({ method: r.chance(0.85) ? 'POST' : method(r, 'POST'), path, headers, body });
    }
    case 'page': {
      c.signedIn = r.chance(0.5);
      let path = r.chance(0.6) ? r.pick(t.pages) : fillTemplate(r, t, r.pick(pages).template);
      if (r.chance(0.5)) path = path.split('?')[0] + fuzzQueryString(r, PAGE_PARAM_NAMES, r.int(1, 5));
      if (r.chance(0.3)) path = mutatePath(r, path);
      const body = r.chance(0.15) ? anyBody(r) : {};
      const headers: [string, string][] = body.contentType !== undefined ? [['Content-Type', body.contentType]] : [];
      return with_({ method: r.chance(0.75) ? r.pick(['GET', 'GET', 'HEAD']) : method(r), path, headers, body: body.body });
    }
    case 'form':
      return with_(formRequest(r, base, t, c));
    case 'action-id': {
      c.signedIn = r.chance(0.5);
      const page = r.pick(t.pages);
      const id = r.chance(0.5)
        ? r.pick(t.actionIds)
        : headerSafe(r.pick(['', '0', 'x'.repeat(200), '%00', fuzzText(r, r.pick(t.actionIds)), '../../', '$ACTION']));
      const body = r.chance(0.5) ? Buffer.from(r.pick(['[]', '[{}]', '["$K1"]', '[', '{}', '["$@1"]', JSON.stringify([fuzzText(r)])])) : anyBody(r).body;
      return with_({
        method: r.chance(0.9) ? 'POST' : method(r),
        path: page,
        headers: [
          ['Next-Action', id],
          ['Content-Type', r.pick(['text/plain;charset=UTF-8', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json'])],
          ['Origin', r.chance(0.8) ? base.origin : 'https://evil.example'],
        ],
        body,
      });
    }
    case 'auth': {
      const action = r.pick([
        'session',
        'csrf',
        'providers',
        'signin',
        'signout',
        'callback',
        'error',
        '_log',
        'verify-request',
        'signin/credentials',
        'callback/credentials',
        'callback/github',
        'signin/google',
        'nope',
        '',
      ]);
      let path = `/api/auth/${action}${r.chance(0.5) ? fuzzQueryString(r, ['callbackUrl', 'error', 'csrfToken', 'code', 'state', 'json']) : ''}`;
      if (r.chance(0.2)) path = mutatePath(r, path);
      const fields = [
        ['csrfToken', fuzzText(r, 'x')],
        ['callbackUrl', r.pick(['/account', '//evil.example', fuzzText(r, '/')])],
        ['json', 'true'],
        ['email', fuzzText(r, 'a@b.c')],
        ['password', fuzzText(r, 'pw')],
      ];
      const body = Buffer.from(fields.map(([n, v]) => `${n}=${encodeComponent(r, v!)}`).join('&'));
      c.signedIn = r.chance(0.3);
      return with_({
        method: r.chance(0.8) ? r.pick(['GET', 'POST']) : method(r),
        path,
        headers: [['Content-Type', r.chance(0.8) ? 'application/x-www-form-urlencoded' : r.pick(CONTENT_TYPES)]],
        body: r.chance(0.6) ? body : undefined,
      });
    }
    case 'checkout': {
      c.signedIn = r.chance(0.6);
      const planId = r.chance(0.4) ? r.pick(t.planIds) : fuzzText(r, r.pick(t.planIds));
      const headers: [string, string][] = [['Content-Type', r.chance(0.8) ? 'application/x-www-form-urlencoded' : r.pick(CONTENT_TYPES)]];
      if (r.chance(0.8)) headers.push(['Origin', r.chance(0.85) ? base.origin : r.pick(['https://evil.example', 'null', 'garbage'])]);
      else if (r.chance(0.5)) headers.push(['Referer', r.pick([`${base.origin}/x`, 'https://evil.example/', '%ZZ'])]);
      return with_({
        method: r.chance(0.85) ? 'POST' : method(r),
        path: '/checkout/start',
        headers,
        body: Buffer.from(`planId=${encodeComponent(r, planId)}${r.chance(0.2) ? '&planId=x' : ''}`),
      });
    }
    case 'webhook': {
      const body = r.chance(0.5)
        ? Buffer.from(JSON.stringify({ id: fuzzText(r, 'evt_1'), type: r.pick(['checkout.session.completed', 'invoice.paid', 'x']), data: { object: {} } }))
        : anyBody(r).body;
      const headers: [string, string][] = [['Content-Type', 'application/json']];
      if (r.chance(0.7))
        headers.push([
          'Stripe-Signature',
          headerSafe(r.pick(['t=1,v1=abc', '', 'garbage', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, fuzzText(r, 't=1')])),
        ]);
      return with_({
        method: r.chance(0.8) ? 'POST' : method(r),
        path: r.chance(0.9) ? '/api/stripe/webhook' : mutatePath(r, '/api/stripe/webhook'),
        headers,
        body,
      });
    }
    case 'raw': {
      const target = r.pick(['/api/health', `/kb/${r.pick(t.kbIds)}/query`, '/', '/signin']);
      const raw = r.pick([
        `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\nX: a\rb\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
        `POST ${target} HTTP/1.1\r\nHost: ${base.host}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n`,
        `POST ${target} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{"query":`,
        `GET ${target} HTTP/9.9\r\nHost: ${base.host}\r\n\r\n`,
        `GET ${target}\r\n\r\n`,
        `G\u0000T ${target} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`,
        `GET /a b HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\nHost: evil.example\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\n${'X-A: b\r\n'.repeat(3_000)}\r\n`,
        `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\n Folded: header\r\n\r\n`,
        `\r\n\r\n\r\nGET ${target} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\nContent-Length: -1\r\n\r\n`,
        `GET /${'%'.repeat(r.int(1, 100))} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`,
        Buffer.from(r.bytes(r.int(1, 400))).toString('latin1'),
      ]);
      c.raw = Buffer.from(raw, 'latin1');
      c.note = `raw ${JSON.stringify(raw.slice(0, 80))}`;
      return c;
    }
  }
}
