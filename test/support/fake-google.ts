import { createHash, createSign, generateKeyPairSync } from 'node:crypto';
import { consentScreen, listenFake, randomToken, readTokenRequest, redirectTo, sendJson } from './fake-oauth-http';

/**
 * A local fake of Google's OpenID Connect provider, so tests drive next-auth's real Google provider (discovery, PKCE,
 * ID-token signature, issuer, audience and expiry checks) without the network.
 */

export interface FakeGoogleAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface FakeGoogle {
  /** GOOGLE_ISSUER for the app. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs(account: FakeGoogleAccount): void;
  denyNextAuthorization(): void;
  secrets(): string[];
  close(): Promise<void>;
}

interface Grant {
  account: FakeGoogleAccount;
  redirectUri: string;
  codeChallenge: string;
}

const base64url = (input: string | Buffer) => Buffer.from(input).toString('base64url');

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const clientId = `${randomToken('', 9)}.apps.googleusercontent.test`;
  const clientSecret = randomToken('GOCSPX-', 18);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomToken('', 6);
  const consent = consentScreen<FakeGoogleAccount>('Google');
  const codes = new Map<string, Grant>();
  const issued: string[] = [clientSecret];
  let issuer = '';

  const signIdToken = (claims: Record<string, unknown>) => {
    const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
    return `${signingInput}.${createSign('RSA-SHA256').update(signingInput).sign(privateKey).toString('base64url')}`;
  };

  const server = await listenFake(async (req, res, url) => {
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return sendJson(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/oauth2/v3/certs`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (req.method === 'GET' && url.pathname === '/oauth2/v3/certs') {
      return sendJson(res, 200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
    }
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== clientId || !redirectUri) return sendJson(res, 400, { error: 'invalid_client' });
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
        return sendJson(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
      const decision = consent.decide();
      if (!decision.approved) return redirectTo(res, redirectUri, { error: 'access_denied', state: q.get('state') ?? '' });
      const code = randomToken('4/0A', 24);
      issued.push(code);
      codes.set(code, { account: decision.account, redirectUri, codeChallenge: q.get('code_challenge')! });
      return redirectTo(res, redirectUri, { code, state: q.get('state') ?? '', scope: q.get('scope') ?? '' });
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const { form, clientAuthenticated, grant } = await readTokenRequest(req, { id: clientId, secret: clientSecret }, codes);
      if (!clientAuthenticated) return sendJson(res, 401, { error: 'invalid_client' });
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || form.get('redirect_uri') !== grant.redirectUri || base64url(createHash('sha256').update(verifier).digest()) !== grant.codeChallenge) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      const now = Math.floor(Date.now() / 1000);
      const { account } = grant;
      const idToken = signIdToken({
        iss: issuer,
        azp: clientId,
        aud: clientId,
        sub: account.sub,
        email: account.email,
        email_verified: account.emailVerified,
        name: account.name,
        iat: now,
        exp: now + 3600,
      });
      const accessToken = randomToken('ya29.', 32);
      issued.push(accessToken, idToken);
      return sendJson(res, 200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer', scope: 'openid email profile', id_token: idToken });
    }
    sendJson(res, 404, { error: 'not_found' });
  });
  issuer = server.url;

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: consent.signInAs,
    denyNextAuthorization: consent.denyNextAuthorization,
    secrets: () => [...issued],
    close: server.close,
  };
}
