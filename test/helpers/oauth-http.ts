/**
 * The authorization server's endpoints driven with `app.inject`, the way a client and a browser
 * call them: PKCE pairs, registration (JSON), the authorization page (GET, reading its hidden
 * fields and CSRF cookie), the page's form (POST, urlencoded, with or without the cookie) and the
 * token endpoint (urlencoded).
 */
import { createHash, randomBytes } from 'node:crypto';

import type { LightMyRequestResponse } from 'fastify';

import type { TestApp } from './test-app.js';

/** A PKCE S256 pair (RFC 7636 §4.1–4.2). */
export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** `POST /oauth/register` with a JSON body. */
export function registerClient(app: TestApp, metadata: unknown): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(metadata),
  });
}

/** Register a client and return its `client_id` (and `client_secret` when one was issued). */
export async function registeredClient(
  app: TestApp,
  metadata: Record<string, unknown>,
): Promise<{ clientId: string; clientSecret: string | undefined }> {
  const response = await registerClient(app, metadata);
  if (response.statusCode !== 201) {
    throw new Error(`registration failed (HTTP ${String(response.statusCode)}): ${response.body}`);
  }
  const body = response.json<{ client_id: string; client_secret?: string }>();
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/**
 * `/oauth/authorize?…` from `params`, in order; a `[name, value]` list allows a name twice.
 */
export function authorizePath(params: Record<string, string> | [string, string][]): string {
  return `/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

/** The query of a good authorization request for `clientId`; `overrides` replace members. */
export function authorizeParams(
  clientId: string,
  redirectUri: string,
  challenge: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    scope: 'mcp',
    ...overrides,
  };
}

/** The sign-in page as a browser received it. */
export interface OpenedPage {
  response: LightMyRequestResponse;
  /** Hidden fields of the form (`request_id`, `csrf_token`). */
  fields: Record<string, string>;
  /** The CSRF cookie as a `Cookie` header value (`lg_csrf_…=…`). */
  cookie: string;
  /** The whole `Set-Cookie` line. */
  setCookie: string;
}

/** `GET` the authorization page and read its form; throws unless it is a 200 page with a form. */
export async function openPage(app: TestApp, path: string): Promise<OpenedPage> {
  const response = await app.inject({ method: 'GET', url: path });
  if (response.statusCode !== 200) {
    throw new Error(`no sign-in page (HTTP ${String(response.statusCode)}): ${response.body}`);
  }
  const fields = hiddenFields(response.body);
  const raw = response.headers['set-cookie'];
  const lines = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const [setCookie] = lines;
  if (lines.length !== 1 || setCookie === undefined) {
    throw new Error(`expected one Set-Cookie, got ${JSON.stringify(raw)}`);
  }
  return { response, fields, cookie: setCookie.split(';')[0] ?? '', setCookie };
}

/** The `name`/`value` of every hidden input of an HTML page. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[match[1] ?? ''] = match[2] ?? '';
  }
  return fields;
}

/**
 * `POST /oauth/authorize` with `form` (urlencoded) and, unless null, the `cookie` header.
 */
export function submitForm(
  app: TestApp,
  form: Record<string, string>,
  cookie: string | null,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie !== null) headers.cookie = cookie;
  return app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers,
    payload: new URLSearchParams(form).toString(),
  });
}

/** Submit an opened page with its own fields and cookie, `credential` and `action`. */
export function submitPage(
  app: TestApp,
  page: OpenedPage,
  credential: string,
  action: 'approve' | 'deny' = 'approve',
): Promise<LightMyRequestResponse> {
  return submitForm(app, { ...page.fields, credential, action }, page.cookie);
}

/** `POST /oauth/token` with an urlencoded `form`. */
export function tokenRequest(
  app: TestApp,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

/** The `Location` of a redirect response as a URL; throws when there is none. */
export function locationOf(response: LightMyRequestResponse): URL {
  const location = response.headers.location;
  if (typeof location !== 'string') {
    throw new Error(`no Location (HTTP ${String(response.statusCode)}): ${response.body}`);
  }
  return new URL(location);
}
