/**
 * The first steps of an OAuth client done by hand, with no OAuth library: RFC 7591 registration
 * of a public client over HTTP, and an authorization URL with PKCE S256 (computed with
 * node:crypto), `state`, scope `mcp` and the RFC 8707 `resource`. Shared by the authorization
 * page test and `npm run screenshot:oauth`, so this module must not import vitest.
 */
import { createHash, randomBytes } from 'node:crypto';

import { request } from 'undici';

import { authorizeInBrowser } from './scripted-browser.js';

/**
 * Register a public client (`token_endpoint_auth_method` `none`, `authorization_code` and
 * `refresh_token`) at `${base}/oauth/register`.
 *
 * @returns its `client_id`.
 * @throws Error unless the server answers 201 with a string `client_id`.
 */
export async function registerPublicClient(
  base: string,
  redirectUri: string,
  clientName: string,
): Promise<string> {
  const response = await request(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      client_name: clientName,
    }),
  });
  const text = await response.body.text();
  let clientId: unknown;
  try {
    clientId = (JSON.parse(text) as { client_id?: unknown }).client_id;
  } catch {
    clientId = undefined;
  }
  if (response.statusCode !== 201 || typeof clientId !== 'string') {
    throw new Error(
      `client registration at ${base}/oauth/register failed: HTTP ${String(response.statusCode)}, ${text.slice(0, 300)}`,
    );
  }
  return clientId;
}

/** An authorization request and the secrets the client keeps for the callback and exchange. */
export interface AuthorizationRequest {
  /** `${base}/oauth/authorize?…`, what the browser opens. */
  url: string;
  /** The `state` sent; the callback must bring it back. */
  state: string;
  /** The PKCE code verifier behind the S256 `code_challenge`. */
  verifier: string;
}

/**
 * A fresh authorization request (code flow, PKCE S256, random `state`, scope `mcp`) for
 * `clientId`, asking for `mcpUrl` as the RFC 8707 `resource`.
 */
export function newAuthorizationRequest(
  base: string,
  mcpUrl: string,
  clientId: string,
  redirectUri: string,
): AuthorizationRequest {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    scope: 'mcp',
    resource: mcpUrl,
  }).toString();
  return { url: url.href, state, verifier };
}

/**
 * The whole sign-in of a public client, as a script: register, open the page, type `credential`,
 * exchange the code.
 *
 * @returns the `mcp_at_` access token.
 * @throws Error when any step is refused.
 */
export async function signIn(base: string, credential: string): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const clientId = await registerPublicClient(base, redirectUri, 'linkguard script');
  const authorization = newAuthorizationRequest(base, `${base}/mcp`, clientId, redirectUri);
  const callback = await authorizeInBrowser(authorization.url, credential);
  const code = callback.searchParams.get('code');
  if (code === null) throw new Error(`sign-in refused: ${callback.href}`);
  const response = await request(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: authorization.verifier,
      redirect_uri: redirectUri,
      resource: `${base}/mcp`,
    }).toString(),
  });
  const tokens = (await response.body.json()) as { access_token?: unknown };
  if (response.statusCode !== 200 || typeof tokens.access_token !== 'string') {
    throw new Error(`token exchange failed: HTTP ${String(response.statusCode)}`);
  }
  return tokens.access_token;
}
