// Ready-to-run examples of the API (docs/api.md §3.10) for one knowledge base, with this deployment's base URL. Each
// is run as pasted against a real server by test/integration/snippets-run.test.ts.
export interface Snippet {
  id: 'curl' | 'typescript' | 'python' | 'python-stream' | 'langchain' | 'mcp' | 'claude-desktop' | 'python-mcp';
  label: string;
  code: string;
}

export const KB_ID_PLACEHOLDER = '<kb_id>';
/** Configuration files cannot name an environment variable portably. */
export const API_KEY_PLACEHOLDER = '<your Almanac API key>';

function origin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

function kbSegment(kbId: string): string {
  return kbId === KB_ID_PLACEHOLDER ? kbId : encodeURIComponent(kbId);
}

export function queryEndpoint(baseUrl: string, kbId: string): string {
  return `${origin(baseUrl)}/kb/${kbSegment(kbId)}/query`;
}

export function mcpEndpoint(baseUrl: string, kbId: string): string {
  return `${origin(baseUrl)}/kb/${kbSegment(kbId)}/mcp`;
}

/** Dify itself appends /retrieval. */
function difyEndpoint(baseUrl: string): string {
  return `${origin(baseUrl)}/dify`;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function searchEndpoint(baseUrl: string, kbId: string): string {
  return `${origin(baseUrl)}/kb/${kbSegment(kbId)}/search`;
}

/** Each checks the status before reading the answer: every error is the JSON body of §3.4. */
export function buildSnippets(baseUrl: string, kbId: string, question: string): Snippet[] {
  const url = queryEndpoint(baseUrl, kbId);
  const body = JSON.stringify({ query: question });
  // A JSON string literal is also a valid TypeScript and Python string literal.
  const q = JSON.stringify(question);
  return [
    {
      id: 'curl',
      label: 'curl',
      code: [
        `curl -X POST ${shellQuote(url)} \\`,
        `  -H "Authorization: Bearer $ALMANAC_API_KEY" \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d ${shellQuote(body)}`,
      ].join('\n'),
    },
    {
      id: 'typescript',
      label: 'TypeScript',
      code: [
        `interface Citation { document_id: string; title: string; excerpt: string; page: number | null }`,
        `interface Answer { answer: string; citations: Citation[]; tokens_used: number }`,
        ``,
        `const response = await fetch(${JSON.stringify(url)}, {`,
        `  method: 'POST',`,
        `  headers: { Authorization: \`Bearer \${process.env.ALMANAC_API_KEY}\`, 'Content-Type': 'application/json' },`,
        `  body: JSON.stringify({ query: ${q} }),`,
        `});`,
        `if (!response.ok) {`,
        `  const error: { error: string; message: string; request_id: string } = await response.json();`,
        `  throw new Error(\`\${response.status} \${error.error}: \${error.message}\`);`,
        `}`,
        `const { answer, citations } = (await response.json()) as Answer;`,
        `console.log(answer);`,
        `for (const c of citations) console.log(\`- \${c.title}\${c.page ? \`, page \${c.page}\` : ''}\`);`,
      ].join('\n'),
    },
    {
      id: 'python',
      label: 'Python',
      code: [
        `import os`,
        ``,
        `import httpx`,
        ``,
        `response = httpx.post(`,
        `    ${JSON.stringify(url)},`,
        `    headers={"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}"},`,
        `    json={"query": ${q}},`,
        `    timeout=30,`,
        `)`,
        `if response.is_error:`,
        `    error = response.json()  # {"error", "message", "request_id"}`,
        `    raise SystemExit(f"{response.status_code} {error['error']}: {error['message']}")`,
        `data = response.json()`,
        `print(data["answer"])`,
        `for citation in data["citations"]:`,
        `    print("-", citation["title"], f"page {citation['page']}" if citation["page"] else "")`,
      ].join('\n'),
    },
    {
      id: 'python-stream',
      label: 'Python, streamed',
      code: [
        `import json`,
        `import os`,
        ``,
        `import httpx`,
        ``,
        `# Server-Sent Events (docs/api.md §10.4): citations, then the answer in pieces, then done with the usage.`,
        `with httpx.stream(`,
        `    "POST",`,
        `    ${JSON.stringify(url)},`,
        `    headers={"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}", "Accept": "text/event-stream"},`,
        `    json={"query": ${q}},`,
        `    timeout=30,`,
        `) as response:`,
        `    if response.is_error:  # a refusal is a JSON error, before any event`,
        `        error = json.loads(response.read())`,
        `        raise SystemExit(f"{response.status_code} {error['error']}: {error['message']}")`,
        `    event = None`,
        `    for line in response.iter_lines():`,
        `        line = line.rstrip("\\r\\n")  # some httpx versions keep the line ending`,
        `        if line.startswith("event: "):`,
        `            event = line[len("event: "):]`,
        `        elif line.startswith("data: "):`,
        `            data = json.loads(line[len("data: "):])`,
        `            if event == "citations":`,
        `                citations = data`,
        `            elif event == "delta":`,
        `                print(data["text"], end="", flush=True)`,
        `            elif event == "done":`,
        `                print(f"\\n({data['usage']['remaining']} queries left)")`,
        `            elif event == "error":`,
        `                raise SystemExit(f"{data['error']}: {data['message']}")`,
        `for citation in citations:`,
        `    print("-", citation["title"])`,
      ].join('\n'),
    },
    {
      id: 'langchain',
      label: 'LangChain',
      code: [
        `import os`,
        ``,
        `import httpx`,
        `from langchain_core.callbacks import CallbackManagerForRetrieverRun`,
        `from langchain_core.documents import Document`,
        `from langchain_core.retrievers import BaseRetriever`,
        ``,
        ``,
        `class AlmanacRetriever(BaseRetriever):`,
        `    """Passages from one Almanac knowledge base; each search counts as one query (none when nothing matches)."""`,
        ``,
        `    url: str = ${JSON.stringify(searchEndpoint(baseUrl, kbId))}`,
        `    top_k: int = 5`,
        ``,
        `    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:`,
        `        response = httpx.post(`,
        `            self.url,`,
        `            headers={"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}"},`,
        `            json={"query": query, "top_k": self.top_k},`,
        `            timeout=30,`,
        `        )`,
        `        if response.is_error:`,
        `            error = response.json()`,
        `            raise RuntimeError(f"{response.status_code} {error['error']}: {error['message']}")`,
        `        return [`,
        `            Document(`,
        `                page_content=r["excerpt"],`,
        `                metadata={"document_id": r["document_id"], "title": r["title"], "page": r["page"], "score": r["score"]},`,
        `            )`,
        `            for r in response.json()["results"]`,
        `        ]`,
        ``,
        ``,
        `for doc in AlmanacRetriever().invoke(${q}):`,
        `    print(doc.metadata["title"], doc.metadata["score"], doc.page_content[:80])`,
      ].join('\n'),
    },
  ];
}

/** In the characters every MCP client accepts. */
function serverName(kbId: string): string {
  return kbId === KB_ID_PLACEHOLDER ? 'almanac' : `almanac-${kbId.replace(/[^0-9A-Za-z_-]/g, '')}`.toLowerCase();
}

// Claude Desktop's config only launches local servers, hence the `mcp-remote` bridge; its header travels in an
// environment variable because Claude Desktop on Windows splits arguments at spaces.
export function buildMcpSnippets(baseUrl: string, kbId: string, apiKey: string = API_KEY_PLACEHOLDER): Snippet[] {
  const url = mcpEndpoint(baseUrl, kbId);
  const name = serverName(kbId);
  const generic = { mcpServers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${apiKey}` } } } };
  const claudeDesktop = {
    mcpServers: {
      [name]: {
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${ALMANAC_AUTHORIZATION}'],
        env: { ALMANAC_AUTHORIZATION: `Bearer ${apiKey}` },
      },
    },
  };
  return [
    { id: 'mcp', label: 'MCP client config', code: JSON.stringify(generic, null, 2) },
    { id: 'claude-desktop', label: 'Claude Desktop config', code: JSON.stringify(claudeDesktop, null, 2) },
  ];
}

// The official SDK, `mcp` 2.x: its `streamable_http_client` takes no headers, so the key travels on the
// `httpx2.AsyncClient` handed to it. A refused key is an HTTP error with Almanac's error in the JSON-RPC `data`; a
// refused call is a tool result with `is_error`.
export function pythonMcpSnippet(baseUrl: string, kbId: string, question: string): Snippet {
  return {
    id: 'python-mcp',
    label: 'Python (mcp 2.x)',
    code: [
      `# pip install "mcp>=2,<3"`,
      `import asyncio`,
      `import os`,
      ``,
      `import httpx2`,
      `from mcp import Client, MCPError`,
      `from mcp.client.streamable_http import streamable_http_client`,
      ``,
      `URL = ${JSON.stringify(mcpEndpoint(baseUrl, kbId))}`,
      ``,
      ``,
      `async def main() -> None:`,
      `    headers = {"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}"}`,
      `    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:`,
      `        async with Client(streamable_http_client(URL, http_client=http)) as client:`,
      `            tools = await client.list_tools()`,
      `            print("tools:", ", ".join(tool.name for tool in tools.tools))`,
      `            result = await client.call_tool("ask", {"query": ${JSON.stringify(question)}})`,
      `    # Read once the connection is closed: an exit inside it would arrive wrapped in exception groups.`,
      `    if result.is_error:  # a refused call: Almanac's {"error", "message", "request_id"}`,
      `        raise SystemExit(f"{result.structured_content['error']}: {result.structured_content['message']}")`,
      `    print(result.structured_content["answer"])`,
      `    for citation in result.structured_content["citations"]:`,
      `        print("-", citation["title"])`,
      ``,
      ``,
      `def refusal(exc: BaseException) -> MCPError | None:`,
      `    """The MCPError inside the exception groups that a failed connection arrives in."""`,
      `    if isinstance(exc, MCPError):`,
      `        return exc`,
      `    return next(filter(None, map(refusal, getattr(exc, "exceptions", ()))), None)`,
      ``,
      ``,
      `try:`,
      `    asyncio.run(main())`,
      `except Exception as exc:`,
      `    error = refusal(exc)`,
      `    if error is None or not isinstance(error.data, dict):`,
      `        raise`,
      `    # A refused key: the JSON-RPC error's data is Almanac's {"error", "message", "request_id"}.`,
      `    raise SystemExit(f"{error.data['error']}: {error.data['message']}")`,
    ].join('\n'),
  };
}

/** OAuth connectors (claude.ai, ChatGPT) need only the URL: they find the rest from the endpoint's 401 (§10.7). */
export interface ConnectorSetup {
  url: string;
  steps: string[];
}

export function connectorSetup(baseUrl: string, kbId: string): ConnectorSetup {
  return {
    url: mcpEndpoint(baseUrl, kbId),
    steps: [
      'Claude: Settings → Connectors → Add custom connector, and paste the URL. ChatGPT: Settings → Connectors → Create, and paste the URL with OAuth as its authentication.',
      'Sign in to Almanac when asked, choose the subscription the connector queries under, and allow it.',
      'Revoke it any time on your account page, where it is listed beside your keys.',
    ],
  };
}

/** The fields of Dify's "Add an External Knowledge API" and "Connect to an External Knowledge Base" forms. */
export interface DifyRegistration {
  endpoint: string;
  apiKey: string;
  knowledgeId: string;
}

export function difyRegistration(baseUrl: string, kbId: string, apiKey: string = API_KEY_PLACEHOLDER): DifyRegistration {
  return { endpoint: difyEndpoint(baseUrl), apiKey, knowledgeId: kbId };
}
