/** Ready-to-run examples of the query API for one knowledge base (pure; see snippets.test.ts). */
export interface Snippet {
  id: 'curl' | 'javascript' | 'python';
  label: string;
  code: string;
}

export function queryEndpoint(baseUrl: string, kbId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/kb/${encodeURIComponent(kbId)}/query`;
}

/** Single quotes for a POSIX shell: close, escaped quote, reopen. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function buildSnippets(baseUrl: string, kbId: string, question: string): Snippet[] {
  const url = queryEndpoint(baseUrl, kbId);
  const body = JSON.stringify({ query: question });
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
      id: 'javascript',
      label: 'JavaScript',
      code: [
        `const response = await fetch(${JSON.stringify(url)}, {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    Authorization: \`Bearer \${process.env.ALMANAC_API_KEY}\`,`,
        `    'Content-Type': 'application/json',`,
        `  },`,
        `  body: JSON.stringify({ query: ${JSON.stringify(question)} }),`,
        `});`,
        `const { answer, citations } = await response.json();`,
        `console.log(answer, citations);`,
      ].join('\n'),
    },
    {
      id: 'python',
      label: 'Python',
      code: [
        `import os`,
        `import requests`,
        ``,
        `response = requests.post(`,
        `    ${JSON.stringify(url)},`,
        `    headers={"Authorization": f"Bearer {os.environ['ALMANAC_API_KEY']}"},`,
        `    json={"query": ${JSON.stringify(question)}},`,
        `    timeout=30,`,
        `)`,
        `response.raise_for_status()`,
        `data = response.json()`,
        `print(data["answer"], data["citations"])`,
      ].join('\n'),
    },
  ];
}
