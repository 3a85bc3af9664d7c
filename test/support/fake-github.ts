import { bearerToken, consentScreen, listenFake, randomToken, readTokenRequest, redirectTo, sendJson } from './fake-oauth-http';

/**
 * A local fake of GitHub's OAuth web flow and the two REST endpoints sign-in reads, so tests drive next-auth's real
 * GitHub provider without the network. Laid out like GitHub Enterprise Server, so the web and API bases differ; token
 * errors answer 200 with an `error` field, as GitHub does.
 */

interface FakeGitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

export interface FakeGitHubAccount {
  id: number;
  login: string;
  name?: string | null;
  /** The profile's public email (/user `email`); null, as most people leave it, unless set. */
  publicEmail?: string | null;
  emails: FakeGitHubEmail[];
}

export interface FakeGitHub {
  /** GITHUB_URL for the app. */
  url: string;
  /** GITHUB_API_URL for the app. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** The person signed in at GitHub: later authorizations approve for them. */
  signInAs(account: FakeGitHubAccount): void;
  /** The next authorization is refused, as when the person presses Cancel on GitHub's consent page. */
  denyNextAuthorization(): void;
  /** The next request to `path` (e.g. `/api/v3/user/emails`) fails with this status, as during a GitHub outage. */
  failNext(path: string, status: number): void;
  /** An access token for `account`, as if it had gone through the web flow (for calling the API directly). */
  issueToken(account: FakeGitHubAccount, scope?: string): string;
  /** Every code, token and secret the fake handed out or was given: none may ever appear in a log. */
  secrets(): string[];
  exchanges(): number;
  close(): Promise<void>;
}

interface Grant {
  account: FakeGitHubAccount;
  redirectUri: string;
  scope: string;
}

const DENIED_DESCRIPTION = 'The user has denied your application access.';

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const clientId = randomToken('Iv1.', 8);
  const clientSecret = randomToken('fake_gh_secret_', 24);
  const consent = consentScreen<FakeGitHubAccount>('GitHub');
  let exchanges = 0;
  const failures = new Map<string, number>();
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const issued: string[] = [clientSecret];

  const issueToken = (account: FakeGitHubAccount, scope = 'read:user,user:email') => {
    const token = randomToken('gho_');
    issued.push(token);
    tokens.set(token, { account, redirectUri: '', scope });
    return token;
  };

  const server = await listenFake(async (req, res, url) => {
    const failure = failures.get(url.pathname);
    if (failure) {
      failures.delete(url.pathname);
      return sendJson(res, failure, { message: 'Service unavailable' });
    }
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri');
      const state = url.searchParams.get('state') ?? '';
      if (url.searchParams.get('client_id') !== clientId || !redirectUri) return sendJson(res, 404, { message: 'unknown OAuth application' });
      const decision = consent.decide();
      if (!decision.approved) return redirectTo(res, redirectUri, { error: 'access_denied', error_description: DENIED_DESCRIPTION, state });
      const code = randomToken('', 10);
      issued.push(code);
      // GitHub separates scopes by spaces in the request and by commas in its answers.
      codes.set(code, { account: decision.account, redirectUri, scope: (url.searchParams.get('scope') ?? '').split(/[\s,]+/).join(',') });
      return redirectTo(res, redirectUri, { code, state });
    }

    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const { form, clientAuthenticated, grant } = await readTokenRequest(req, { id: clientId, secret: clientSecret }, codes);
      if (!clientAuthenticated) return sendJson(res, 200, { error: 'incorrect_client_credentials' });
      if (!grant) return sendJson(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      if (form.get('redirect_uri') !== grant.redirectUri) return sendJson(res, 200, { error: 'redirect_uri_mismatch' });
      exchanges += 1;
      return sendJson(res, 200, { access_token: issueToken(grant.account, grant.scope), token_type: 'bearer', scope: grant.scope });
    }

    if (req.method === 'GET' && (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails')) {
      const grant = tokens.get(bearerToken(req) ?? '');
      if (!grant) return sendJson(res, 401, { message: 'Bad credentials' });
      const { account } = grant;
      if (url.pathname === '/api/v3/user') {
        return sendJson(res, 200, {
          login: account.login,
          id: account.id,
          avatar_url: `https://avatars.example.test/u/${account.id}`,
          type: 'User',
          name: account.name ?? null,
          email: account.publicEmail ?? null,
        });
      }
      if (!grant.scope.split(',').includes('user:email')) return sendJson(res, 404, { message: 'Not Found' });
      return sendJson(
        res,
        200,
        account.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })),
      );
    }

    sendJson(res, 404, { message: 'Not Found' });
  });

  return {
    url: server.url,
    apiUrl: `${server.url}/api/v3`,
    clientId,
    clientSecret,
    signInAs: consent.signInAs,
    denyNextAuthorization: consent.denyNextAuthorization,
    failNext: (path, status) => {
      failures.set(path, status);
    },
    issueToken,
    secrets: () => [...issued],
    exchanges: () => exchanges,
    close: server.close,
  };
}
