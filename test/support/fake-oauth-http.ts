import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';

/** The HTTP plumbing the fake OAuth providers (fake-github.ts, fake-google.ts) share. */

export function randomToken(prefix: string, bytes = 20): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export function redirectTo(res: ServerResponse, target: string, params: Record<string, string>): void {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  res.writeHead(302, { Location: url.toString() }).end();
}

/**
 * The client id and secret of a token request, from HTTP Basic (openid-client's default, each part form-encoded per
 * RFC 6749 §2.3.1) or from the form body.
 */
function clientCredentials(req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id = '', secret = ''] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { id: decode(id), secret: decode(secret) };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

/**
 * A token request: its form, whether the client authenticated, and the grant its one-time code names. The code is
 * used up by any attempt with the right client, as providers do, so a replayed code finds no grant.
 */
export async function readTokenRequest<G>(
  req: IncomingMessage,
  client: { id: string; secret: string },
  codes: Map<string, G>,
): Promise<{ form: URLSearchParams; clientAuthenticated: boolean; grant: G | undefined }> {
  const form = await readForm(req);
  const presented = clientCredentials(req, form);
  if (presented.id !== client.id || presented.secret !== client.secret) return { form, clientAuthenticated: false, grant: undefined };
  const code = form.get('code') ?? '';
  const grant = codes.get(code);
  codes.delete(code);
  return { form, clientAuthenticated: true, grant };
}

/** The person at the provider's consent page: who is signed in there, and whether they press Cancel next. */
export function consentScreen<A>(providerName: string) {
  let account: A | null = null;
  let cancelNext = false;
  return {
    signInAs(next: A): void {
      account = next;
    },
    denyNextAuthorization(): void {
      cancelNext = true;
    },
    /** Cancel once after denyNextAuthorization, otherwise approval for the signed-in account. */
    decide(): { approved: false } | { approved: true; account: A } {
      if (cancelNext) {
        cancelNext = false;
        return { approved: false };
      }
      if (!account) throw new Error(`no account is signed in at the fake ${providerName} (call signInAs first)`);
      return { approved: true, account };
    },
  };
}

/** The access token of an API call (`Bearer x` or GitHub's older `token x`). */
export function bearerToken(req: IncomingMessage): string | null {
  return /^(?:Bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
}

/** Listens on a free loopback port; handler faults answer 500 with the message so a broken fake is visible. */
export async function listenFake(
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    Promise.resolve(handle(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`fake provider fault: ${String(error)}`);
    });
  });
  return listenOnLoopback(server);
}
