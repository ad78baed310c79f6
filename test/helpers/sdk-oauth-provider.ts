/**
 * An in-memory `OAuthClientProvider` for the MCP SDK's own OAuth client (`auth()`, used by
 * `StreamableHTTPClientTransport`): it keeps what the SDK saves (the DCR registration, tokens, the
 * PKCE verifier) as the SDK hands it over, and instead of opening a browser it records the
 * authorization URL, so a test can visit it with the scripted browser and hand the code back
 * through `transport.finishAuth(code)`. Every saved token set is kept, oldest first, so a test can
 * see a refresh happen.
 */
import { randomBytes } from 'node:crypto';

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Where the authorization page sends the browser back. Nothing listens there: the scripted
 * browser reports the redirect instead of following it.
 */
export const SDK_REDIRECT_URL = 'http://127.0.0.1:6277/oauth/callback';

/** What the client registers (RFC 7591), overridable per test. */
export function sdkClientMetadata(
  overrides: Partial<OAuthClientMetadata> = {},
): OAuthClientMetadata {
  return {
    client_name: 'linkguard SDK OAuth test',
    redirect_uris: [SDK_REDIRECT_URL],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  };
}

/** The provider; `authorizationUrls` and `savedTokens` are what a test inspects. */
export class RecordingOAuthProvider implements OAuthClientProvider {
  /** Every URL the SDK asked to open in a browser, oldest first. */
  readonly authorizationUrls: URL[] = [];
  /** Every token set the SDK saved, oldest first (the last one is in use). */
  readonly savedTokens: OAuthTokens[] = [];
  /** What the SDK asked to forget (`invalidateCredentials`), in order. */
  readonly invalidations: string[] = [];
  /** The `state` sent with every authorization request (the SDK does not check it; tests do). */
  readonly expectedState = randomBytes(16).toString('base64url');

  private registration: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier: string | undefined;

  constructor(readonly clientMetadata: OAuthClientMetadata = sdkClientMetadata()) {}

  get redirectUrl(): string {
    return SDK_REDIRECT_URL;
  }

  /** The last authorization URL, or a failure when the SDK never asked for one. */
  get lastAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (url === undefined) throw new Error('the SDK never redirected to the authorization page');
    return url;
  }

  /** The registered client, or a failure when the SDK did not register one. */
  get registered(): OAuthClientInformationMixed {
    if (this.registration === undefined) throw new Error('the SDK registered no client');
    return this.registration;
  }

  /** The tokens in use, or a failure when there are none. */
  get currentTokens(): OAuthTokens {
    if (this.current === undefined) throw new Error('the SDK saved no tokens');
    return this.current;
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registration;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.registration = clientInformation;
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
    this.savedTokens.push(tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrls.push(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier was saved');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.invalidations.push(scope);
    if (scope === 'all' || scope === 'client') this.registration = undefined;
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}
