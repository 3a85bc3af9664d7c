import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';

/**
 * What an agent platform keeps between the steps of the MCP SDK's client-side OAuth: its registration (or its client
 * metadata document's URL), the PKCE verifier and discovery state, its tokens, and the authorization URL it would send
 * the browser to. Used by test/integration/oauth-mcp.test.ts and e2e/oauth-connector.spec.ts.
 */
export class ConnectorProvider implements OAuthClientProvider {
  info?: Awaited<ReturnType<NonNullable<OAuthClientProvider['clientInformation']>>>;
  saved?: Parameters<OAuthClientProvider['saveTokens']>[0];
  verifier = '';
  discovered?: OAuthDiscoveryState;
  authorizationUrl?: URL;
  /** Present only with `options.state`: without it the SDK sends no `state`. */
  state?: () => string;

  constructor(
    readonly options: {
      clientName: string;
      redirectUrl: string;
      /** A client ID metadata document's URL, used as the client_id instead of registering. */
      clientMetadataUrl?: string;
      state?: string;
      /** Called with every token pair saved (the log scan's secrets). */
      onTokens?: (tokens: NonNullable<ConnectorProvider['saved']>) => void;
    },
  ) {
    const { state } = options;
    if (state !== undefined) this.state = () => state;
  }
  get clientMetadataUrl() {
    return this.options.clientMetadataUrl;
  }
  get redirectUrl() {
    return this.options.redirectUrl;
  }
  get clientMetadata() {
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: NonNullable<ConnectorProvider['info']>) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<ConnectorProvider['saved']>) {
    this.saved = tokens;
    this.options.onTokens?.(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept with the verifier, so that the SDK checks the code comes back from the authorization server it was sent to.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
}
