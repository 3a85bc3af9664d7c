import { describe, expect, it } from 'vitest';
import { wantsEventStream } from './stream';

describe('wantsEventStream: content negotiation between JSON and a stream (docs/api.md §10.4)', () => {
  it.each([
    ['text/event-stream', true],
    ['TEXT/EVENT-STREAM', true],
    ['text/event-stream; charset=utf-8', true],
    ['text/event-stream, application/json', true],
    ['application/json;q=0.5, text/event-stream', true],
    ['application/json, text/event-stream', false],
    ['text/event-stream;q=0.1, application/json', false],
    ['text/event-stream;q=0', false],
    ['*/*', false],
    ['application/json', false],
    ['image/png', false],
    ['', false],
  ])('%j streams: %s', (accept, streams) => {
    expect(wantsEventStream(accept)).toBe(streams);
  });

  it('no Accept header gets JSON', () => {
    expect(wantsEventStream(null)).toBe(false);
    expect(wantsEventStream(undefined)).toBe(false);
  });
});
