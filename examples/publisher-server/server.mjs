#!/usr/bin/env node
// A small standalone Almanac publisher backend (docs/api.md §6), with no dependencies beyond Node.
// It verifies that each call comes from Almanac (bearer infrastructure key + Almanac-Signature HMAC with a
// timestamp no older than 5 minutes) and answers from a few documents of its own with keyword retrieval.
//
//   PORT=8787 PUBLISHER_INFRA_KEY=… PUBLISHER_SIGNING_SECRET=… node examples/publisher-server/server.mjs
//
// PUBLISHER_DELAY_MS (optional) adds latency to every answer, to try timeouts and load.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

export const MAX_SIGNATURE_AGE_SECONDS = 300;
const MAX_BODY_BYTES = 64 * 1024;

/** The publisher's own library: a few short documents, one of them paged. */
export const DOCUMENTS = [
  {
    id: 'tide-tables',
    title: 'Reading Tide Tables',
    pages: [
      'A tide table lists the times and heights of high and low water for a port. Heights are given relative to chart datum, the lowest level the tide normally falls to.',
      'Spring tides occur near new and full moon, when the sun and moon pull in line and the tidal range is largest. Neap tides occur near the quarter moons, when the range is smallest.',
      'To find the height of tide between high and low water, sailors use the rule of twelfths: the tide rises one twelfth in the first hour, two twelfths in the second and three twelfths in the third.',
    ],
  },
  {
    id: 'knots',
    title: 'Five Essential Knots',
    pages: null,
    text: 'The bowline makes a fixed loop that will not slip or jam and is easy to untie after a load. The clove hitch fastens a line to a post quickly but can slip under changing loads. The cleat hitch secures a line to a horn cleat with a figure of eight and a locking turn. The reef knot joins two ends of the same line around a bundle but must never be used to join two ropes carrying a load. The round turn and two half hitches holds a mooring line to a ring under strain.',
  },
  {
    id: 'lights',
    title: 'Navigation Lights at Night',
    pages: null,
    text: 'A power-driven vessel under way shows a white masthead light, red and green sidelights and a white sternlight. Red is shown to port and green to starboard. A sailing vessel under sail alone shows sidelights and a sternlight but no masthead light. A vessel at anchor shows an all-round white light where it can best be seen.',
  },
];

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from how i in is it of on or the to what when where which who why with you your'.split(' '),
);

function words(text) {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOPWORDS.has(w));
}

function stem(word) {
  return word.replace(/(ing|es|s)$/, '');
}

/** Passages are sentences; each keeps its document, page (1-based, or null) and text. */
export function buildIndex(documents) {
  const passages = [];
  for (const doc of documents) {
    const pages = doc.pages ?? [doc.text];
    pages.forEach((pageText, i) => {
      for (const sentence of pageText.match(/[^.!?]+[.!?]/g) ?? [pageText]) {
        const text = sentence.trim();
        passages.push({ doc, page: doc.pages ? i + 1 : null, text, terms: words(text).map(stem) });
      }
    });
  }
  const df = new Map();
  for (const p of passages) for (const t of new Set(p.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  return { passages, df, n: passages.length };
}

export function answerQuery(index, query) {
  const terms = [...new Set(words(query).map(stem))];
  const scored = index.passages
    .map((p) => {
      let score = 0;
      for (const t of terms) {
        const tf = p.terms.filter((x) => x === t).length;
        if (tf > 0) score += (1 + Math.log(tf)) * Math.log(1 + index.n / (index.df.get(t) ?? 1));
      }
      return { p, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
  if (scored.length === 0) {
    return { answer: 'None of our documents covers that question.', citations: [], tokens_used: terms.length };
  }
  const answer = scored.map((s) => s.p.text).join(' ');
  return {
    answer,
    citations: scored.map(({ p }) => ({ document_id: p.doc.id, title: p.doc.title, excerpt: p.text, page: p.page })),
    tokens_used: words(query).length + words(answer).length,
  };
}

function safeEqual(a, b) {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks `Almanac-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>`; returns a reason when it fails. */
export function verifySignature(header, body, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (!header) return 'missing Almanac-Signature';
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.trim().split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return 'malformed Almanac-Signature';
  if (Math.abs(nowSeconds - t) > MAX_SIGNATURE_AGE_SECONDS) return 'stale signature timestamp';
  const expected = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return safeEqual(expected, parts.v1) ? null : 'bad signature';
}

export function createPublisherServer({ infraKey, signingSecret, documents = DOCUMENTS, delayMs = 0 }) {
  if (!infraKey || !signingSecret) throw new Error('PUBLISHER_INFRA_KEY and PUBLISHER_SIGNING_SECRET are required');
  const index = buildIndex(documents);
  const stats = { answered: 0, rejected: 0 };
  const server = http.createServer((req, res) => {
    const send = (status, body) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== 'POST') return send(405, { error: 'method_not_allowed' });
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const auth = req.headers.authorization ?? '';
      if (!safeEqual(auth, `Bearer ${infraKey}`)) {
        stats.rejected++;
        return send(401, { error: 'unauthorized', message: 'bad infrastructure key' });
      }
      const problem = verifySignature(req.headers['almanac-signature'], body, signingSecret);
      if (problem) {
        stats.rejected++;
        return send(401, { error: 'unauthorized', message: problem });
      }
      let payload;
      try {
        payload = JSON.parse(body);
      } catch {
        return send(400, { error: 'invalid_json' });
      }
      if (typeof payload?.query !== 'string') return send(400, { error: 'invalid_query' });
      const reply = () => {
        stats.answered++;
        const answer = answerQuery(index, payload.query);
        if (!String(req.headers.accept ?? '').includes('text/event-stream')) return send(200, answer);
        // Almanac asks for a stream when its buyer streams (docs/api.md §6.2): citations first, the answer in pieces
        // (here a word at a time), then done. A backend that generates with a model sends its tokens as they come.
        const event = (name, data) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
        event('citations', answer.citations);
        for (const text of answer.answer.match(/\S+\s*/g) ?? []) event('delta', { text });
        event('done', { tokens_used: answer.tokens_used });
        res.end();
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 65_000;
  return { server, stats };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { server } = createPublisherServer({
    infraKey: process.env.PUBLISHER_INFRA_KEY,
    signingSecret: process.env.PUBLISHER_SIGNING_SECRET,
    delayMs: Number(process.env.PUBLISHER_DELAY_MS ?? 0),
  });
  const host = process.env.HOST ?? '127.0.0.1';
  server.listen(Number(process.env.PORT ?? 8787), host, () => {
    // Tests read this line to learn the port when PORT=0.
    console.log(`publisher listening on http://${host}:${server.address().port}`);
  });
  // On a stop signal: take no new connections, let answers in flight finish, drop idle keep-alive connections (they
  // would otherwise hold the process for keepAliveTimeout), and exit after 10 s whatever is left.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 10_000).unref();
    });
  }
}
