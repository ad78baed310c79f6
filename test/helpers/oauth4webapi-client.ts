/**
 * The client side of the OAuth tests, with oauth4webapi's strict client against an app listening
 * on loopback: discovery, registration, an authorization through the scripted browser with PKCE
 * S256 and `state`, the code exchange, reading a refused token or revocation response, and a
 * `tools/call` of check_url on `/mcp` with a bearer token.
 */
import * as oauth from 'oauth4webapi';
import { request } from 'undici';
import { expect } from 'vitest';

import { authorizeInBrowser } from './scripted-browser.js';

// The test server speaks plain http on loopback; oauth4webapi marks the opt-out deprecated so
// that it stands out, which is the point here.
// eslint-disable-next-line @typescript-eslint/no-deprecated
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The redirect URI the test clients register (a native app's loopback listener). */
export const REDIRECT_URI = 'http://127.0.0.1:6276/oauth/callback';

/** A URL the connector flags as `danger`. */
export const DANGEROUS_URL = 'https://paypal-login-verify.top/signin';

/** RFC 8414 discovery of the app at `base` (its issuer). */
export async function discover(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

/** A registered client and, for a confidential one, its secret. */
export interface RegisteredClient {
  client: oauth.Client;
  /** `client_secret` from the registration response, or null for a public client. */
  secret: string | null;
}

/**
 * RFC 7591 registration. Defaults: a public client (`none`) with `authorization_code` and
 * `refresh_token`, redirecting to {@link REDIRECT_URI}; `metadata` replaces any of them.
 */
export async function registerClient(
  as: oauth.AuthorizationServer,
  metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {},
): Promise<RegisteredClient> {
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        client_name: 'oauth4webapi negatives',
        ...metadata,
      },
      insecure,
    ),
  );
  const secret = typeof client.client_secret === 'string' ? client.client_secret : null;
  return { client, secret };
}

/** The authorization endpoint's URL with `params` as its query. */
export function authorizationUrl(
  as: oauth.AuthorizationServer,
  params: Record<string, string>,
): string {
  const url = new URL(as.authorization_endpoint ?? '');
  url.search = new URLSearchParams(params).toString();
  return url.href;
}

/** The usual authorization request of a client: code flow, PKCE S256, state, scope, resource. */
export async function authorizationParams(
  client: oauth.Client,
  verifier: string,
  state: string,
  redirectUri: string,
  resource: string,
): Promise<Record<string, string>> {
  return {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    scope: 'mcp',
    resource,
  };
}

/** A code the browser brought back, with what the client must present with it. */
export interface Authorized {
  /** The validated callback parameters (`code`, `state`, `iss`). */
  params: URLSearchParams;
  verifier: string;
  redirectUri: string;
}

/**
 * Authorize `client` by typing `credential` on the page, and validate the callback (`state`,
 * `iss`) with oauth4webapi.
 *
 * @param resource the RFC 8707 `resource` to ask for (the app's `/mcp`).
 */
export async function authorize(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  credential: string,
  resource: string,
  redirectUri: string = REDIRECT_URI,
): Promise<Authorized> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizationUrl(
    as,
    await authorizationParams(client, verifier, state, redirectUri, resource),
  );
  const callback = await authorizeInBrowser(url, credential);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  return { params, verifier, redirectUri };
}

/** What a code exchange presents; each member overrides the authorized value. */
export interface ExchangeOptions {
  auth?: oauth.ClientAuth;
  verifier?: string;
  redirectUri?: string;
  /** The RFC 8707 `resource` sent to the token endpoint; null sends none. */
  resource?: string | null;
}

/** Send the code exchange (not processed). */
export function exchangeCode(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  authorized: Authorized,
  resource: string,
  options: ExchangeOptions = {},
): Promise<Response> {
  const sent = options.resource === undefined ? resource : options.resource;
  return oauth.authorizationCodeGrantRequest(
    as,
    client,
    options.auth ?? oauth.None(),
    authorized.params,
    options.redirectUri ?? authorized.redirectUri,
    options.verifier ?? authorized.verifier,
    { ...(sent === null ? {} : { additionalParameters: { resource: sent } }), ...insecure },
  );
}

/** Authorize and exchange the code: the tokens of a successful flow. */
export async function obtainTokens(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  credential: string,
  resource: string,
  auth: oauth.ClientAuth = oauth.None(),
): Promise<oauth.TokenEndpointResponse> {
  const authorized = await authorize(as, client, credential, resource);
  return oauth.processAuthorizationCodeResponse(
    as,
    client,
    await exchangeCode(as, client, authorized, resource, { auth }),
  );
}

/** Send a refresh (not processed). */
export function refreshTokens(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  refreshToken: string,
  auth: oauth.ClientAuth = oauth.None(),
): Promise<Response> {
  return oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, insecure);
}

/** Send a revocation and let oauth4webapi check the answer (throws unless it is a 200). */
export async function revoke(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  token: string,
  auth: oauth.ClientAuth = oauth.None(),
): Promise<void> {
  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, auth, token, insecure),
  );
}

/** A refused token-endpoint response as oauth4webapi and the wire see it. */
export interface TokenRefusal {
  /** What oauth4webapi's processing threw. */
  thrown: unknown;
  status: number;
  /** The body's `error`. */
  error: unknown;
  wwwAuthenticate: string | null;
  cacheControl: string | null;
}

/**
 * Process a token-endpoint response that must be a refusal: oauth4webapi must throw, and the
 * status, `error` and headers are read from the wire.
 */
export async function tokenRefusal(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  response: Response,
): Promise<TokenRefusal> {
  const copy = response.clone();
  const thrown = await oauth.processGenericTokenEndpointResponse(as, client, response).then(
    () => null,
    (error: unknown) => error,
  );
  if (thrown === null) throw new Error(`expected a refusal, got tokens (HTTP ${copy.status})`);
  const body = (await copy.json()) as { error?: unknown };
  return {
    thrown,
    status: copy.status,
    error: body.error,
    wwwAuthenticate: copy.headers.get('www-authenticate'),
    cacheControl: copy.headers.get('cache-control'),
  };
}

/**
 * Expect `response` to be the RFC 6749 §5.2 error `error` with `status`, seen by oauth4webapi
 * as a {@link oauth.ResponseBodyError} (no `WWW-Authenticate` challenge), not cached.
 */
export async function expectTokenError(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  response: Response,
  status: number,
  error: string,
): Promise<void> {
  const refusal = await tokenRefusal(as, client, response);
  expect(refusal.thrown).toBeInstanceOf(oauth.ResponseBodyError);
  expect(refusal).toMatchObject({ status, error, wwwAuthenticate: null, cacheControl: 'no-store' });
  expect((refusal.thrown as oauth.ResponseBodyError).error).toBe(error);
}

/** The answer of `/mcp` to a `tools/call`. */
export interface McpCall {
  status: number;
  wwwAuthenticate: string | undefined;
  body: unknown;
}

/** `tools/call` of check_url on {@link DANGEROUS_URL} with `Authorization: Bearer <token>`. */
export async function callCheckUrl(mcpUrl: string, accessToken: string): Promise<McpCall> {
  const response = await request(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'check_url', arguments: { url: DANGEROUS_URL } },
    }),
  });
  const challenge = response.headers['www-authenticate'];
  return {
    status: response.statusCode,
    wwwAuthenticate: typeof challenge === 'string' ? challenge : undefined,
    body: await response.body.json(),
  };
}

/** Expect a token to work on `tools/call`: 200 and the `danger` verdict. */
export async function expectToolCallWorks(mcpUrl: string, accessToken: string): Promise<void> {
  const call = await callCheckUrl(mcpUrl, accessToken);
  expect(call.status).toBe(200);
  expect(call.body).toMatchObject({ result: { structuredContent: { verdict: 'danger' } } });
}

/** Expect a token to be refused on `tools/call`: 401 with an RFC 6750 `invalid_token` challenge. */
export async function expectToolCallRefused(mcpUrl: string, accessToken: string): Promise<void> {
  const call = await callCheckUrl(mcpUrl, accessToken);
  const metadata = mcpUrl.replace(/\/mcp$/, '/.well-known/oauth-protected-resource/mcp');
  expect(call.status).toBe(401);
  expect(call.wwwAuthenticate).toMatch(/^Bearer /);
  expect(call.wwwAuthenticate).toContain(
    `Bearer resource_metadata="${metadata}", error="invalid_token", error_description=`,
  );
  expect(call.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32001 } });
}
