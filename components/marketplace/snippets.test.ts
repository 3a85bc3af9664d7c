import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildSnippets, queryEndpoint } from './snippets';

describe('buildSnippets', () => {
  const snippets = buildSnippets('https://almanac.example.test/', 'kb_AbC123', "What's in Article \"I\"?");

  it('targets the real endpoint of the knowledge base in every language', () => {
    expect(queryEndpoint('https://almanac.example.test/', 'kb_AbC123')).toBe('https://almanac.example.test/kb/kb_AbC123/query');
    expect(snippets.map((s) => s.id)).toEqual(['curl', 'javascript', 'python']);
    for (const s of snippets) expect(s.code).toContain('https://almanac.example.test/kb/kb_AbC123/query');
  });

  it('quotes the question so the shell passes the exact JSON body', () => {
    const curl = snippets[0]!.code;
    const dataArg = curl.split('-d ')[1]!;
    // Let a real shell parse the quoted argument and print it back.
    const parsed = execFileSync('sh', ['-c', `printf %s ${dataArg}`], { encoding: 'utf8' });
    expect(JSON.parse(parsed)).toEqual({ query: "What's in Article \"I\"?" });
  });

  it('embeds the question as a valid string literal in JavaScript and Python', () => {
    expect(snippets[1]!.code).toContain('JSON.stringify({ query: "What\'s in Article \\"I\\"?" })');
    expect(snippets[2]!.code).toContain('json={"query": "What\'s in Article \\"I\\"?"}');
  });
});
