import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PLACEHOLDER,
  buildMcpSnippets,
  buildSnippets,
  connectorSetup,
  difyRegistration,
  KB_ID_PLACEHOLDER,
  mcpEndpoint,
  pythonMcpSnippet,
  queryEndpoint,
  searchEndpoint,
} from './snippets';

describe('buildSnippets', () => {
  const snippets = buildSnippets('https://almanac.example.test/', 'kb_AbC123', 'What\'s in Article "I"?');

  it('targets the real endpoint of the knowledge base in every language', () => {
    expect(queryEndpoint('https://almanac.example.test/', 'kb_AbC123')).toBe('https://almanac.example.test/kb/kb_AbC123/query');
    expect(snippets.map((s) => s.id)).toEqual(['curl', 'typescript', 'python', 'python-stream', 'langchain']);
    for (const s of snippets.slice(0, 4)) expect(s.code).toContain('https://almanac.example.test/kb/kb_AbC123/query');
    // The retriever uses the passages endpoint, not the answer.
    expect(searchEndpoint('https://almanac.example.test/', 'kb_AbC123')).toBe('https://almanac.example.test/kb/kb_AbC123/search');
    expect(snippets[4]!.code).toContain('url: str = "https://almanac.example.test/kb/kb_AbC123/search"');
  });

  it('quotes the question so the shell passes the exact JSON body', () => {
    const curl = snippets[0]!.code;
    const dataArg = curl.split('-d ')[1]!;
    // Let a real shell parse the quoted argument and print it back.
    const parsed = execFileSync('sh', ['-c', `printf %s ${dataArg}`], { encoding: 'utf8' });
    expect(JSON.parse(parsed)).toEqual({ query: 'What\'s in Article "I"?' });
  });

  it('embeds the question as a valid string literal in TypeScript and Python', () => {
    expect(snippets[1]!.code).toContain('JSON.stringify({ query: "What\'s in Article \\"I\\"?" })');
    expect(snippets[2]!.code).toContain('json={"query": "What\'s in Article \\"I\\"?"}');
    expect(snippets[3]!.code).toContain('json={"query": "What\'s in Article \\"I\\"?"}');
    expect(snippets[4]!.code).toContain('AlmanacRetriever().invoke("What\'s in Article \\"I\\"?")');
  });
});

describe('agent snippets: MCP clients and Dify', () => {
  it('points MCP clients at the knowledge base’s /mcp endpoint with a Bearer header', () => {
    const [generic, desktop] = buildMcpSnippets('https://almanac.example.test/', 'kb_AbC123', 'alm_sk_test_x');
    expect(mcpEndpoint('https://almanac.example.test/', 'kb_AbC123')).toBe('https://almanac.example.test/kb/kb_AbC123/mcp');
    expect(JSON.parse(generic!.code)).toEqual({
      mcpServers: {
        'almanac-kb_abc123': { type: 'http', url: 'https://almanac.example.test/kb/kb_AbC123/mcp', headers: { Authorization: 'Bearer alm_sk_test_x' } },
      },
    });
    const server = JSON.parse(desktop!.code).mcpServers['almanac-kb_abc123'];
    expect(server.args).toEqual(['-y', 'mcp-remote', 'https://almanac.example.test/kb/kb_AbC123/mcp', '--header', 'Authorization:${ALMANAC_AUTHORIZATION}']);
    expect(server.env).toEqual({ ALMANAC_AUTHORIZATION: 'Bearer alm_sk_test_x' });
  });

  it('gives the Python MCP client the /mcp endpoint, the key from the environment and the question as a literal', () => {
    const { id, code } = pythonMcpSnippet('https://almanac.example.test/', 'kb_AbC123', 'What\'s in Article "I"?');
    expect(id).toBe('python-mcp');
    expect(code).toContain('URL = "https://almanac.example.test/kb/kb_AbC123/mcp"');
    expect(code).toContain(`headers = {"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}"}`);
    expect(code).toContain('client.call_tool("ask", {"query": "What\'s in Article \\"I\\"?"})');
    // mcp 2.x: the headers ride on the httpx2 client; streamable_http_client takes none of its own.
    expect(code).toContain('streamable_http_client(URL, http_client=http)');
    expect(code).not.toContain('alm_sk_');
  });

  it('uses placeholders when no knowledge base or key is known, left readable (not URL-encoded)', () => {
    const [generic] = buildMcpSnippets('http://localhost:3000', KB_ID_PLACEHOLDER);
    expect(JSON.parse(generic!.code)).toEqual({
      mcpServers: { almanac: { type: 'http', url: 'http://localhost:3000/kb/<kb_id>/mcp', headers: { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` } } },
    });
    expect(queryEndpoint('http://localhost:3000', KB_ID_PLACEHOLDER)).toBe('http://localhost:3000/kb/<kb_id>/query');
    // A real id is still encoded.
    expect(queryEndpoint('http://localhost:3000', 'kb_a/b')).toBe('http://localhost:3000/kb/kb_a%2Fb/query');
  });

  it('registers in Dify with the endpoint <base>/dify, the Almanac key and the knowledge base id', () => {
    expect(difyRegistration('https://almanac.example.test/', 'kb_AbC123', 'alm_sk_test_x')).toEqual({
      endpoint: 'https://almanac.example.test/dify',
      apiKey: 'alm_sk_test_x',
      knowledgeId: 'kb_AbC123',
    });
    expect(difyRegistration('https://almanac.example.test', 'kb_AbC123').apiKey).toBe(API_KEY_PLACEHOLDER);
  });
});

describe('connector setup (OAuth)', () => {
  it('gives agent platforms the knowledge base’s MCP URL alone, with no key in it', () => {
    const setup = connectorSetup('https://almanac.example.com/', 'kb_abc');
    expect(setup.url).toBe('https://almanac.example.com/kb/kb_abc/mcp');
    expect(setup.steps.join(' ')).not.toContain('alm_sk_');
    expect(setup.steps.length).toBeGreaterThan(1);
  });
});
