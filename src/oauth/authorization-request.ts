/**
 * @module oauth/authorization-request
 * The authorization endpoint (RFC 6749 §4.1.1–4.1.2, OAuth 2.1 §4.1): `GET /oauth/authorize`
 * checks the request and holds it server-side as a pending authorization, then shows a page
 * asking for a Premium license or an enterprise key; `POST /oauth/authorize` checks the form and
 * the credential and sends the browser back to the client with a one-time code.
 *
 * Errors before the redirect URI is known to belong to the client are shown on a page and never
 * redirected (RFC 6749 §4.1.2.1: no open redirector); later ones go back to the client as
 * `error=…` with `state` and `iss` (RFC 9207). The form carries only the pending request's id and
 * a CSRF token that must equal the value of a cookie set with the page (double submit); every
 * parameter that matters stays on the server.
 */

import { timingSafeEqual } from 'node:crypto';

import { hashesEqual, hashSecret } from '../access/api-key.js';
import type {
  OAuthClientRecord,
  PendingAuthorizationRecord,
  SourceCap,
} from '../store/ports/oauth-store.js';
import { type OAuthContext, type OAuthParams, param } from './oauth-context.js';
import { OAuthError } from './oauth-error.js';
import { MCP_SCOPE, mcpResource, OAUTH_PATHS } from './oauth-metadata.js';
import {
  CODE_TTL_MS,
  generateNonce,
  generateSecret,
  hashPresentedNonce,
  PENDING_AUTHORIZATION_TTL_MS,
} from './oauth-secrets.js';
import { subjectForCredential } from './oauth-subject.js';
import { isS256Challenge } from './pkce.js';
import { matchRedirectUri, redirectUriProblem, withResponseParameters } from './redirect-uri.js';

/** Refused credentials allowed on one page before the request is ended with `access_denied`. */
export const MAX_FAILED_ATTEMPTS = 5;

/** Longest `state` echoed back, in characters. */
const MAX_STATE_LENGTH = 1024;

/** What the authorization page shows and posts. */
export interface AuthorizationPageView {
  /** `client_name` as registered (untrusted: escape it), or null. */
  clientName: string | null;
  clientId: string;
  /** Where the browser goes after approval, shown so the user can recognise the client. */
  redirectUri: string;
  requestId: string;
  csrfToken: string;
  /** Absolute URL of `POST /oauth/authorize`. */
  formAction: string;
  /** Why the last credential was refused, or null. */
  error: string | null;
}

/** The CSRF cookie set with the page. */
export interface CsrfCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/**
 * What the endpoint answers; `credentialRefused` marks the answers to a refused license or key,
 * which count against the source's failure budget (docs/decisions.md, decision 131).
 */
export type AuthorizationOutcome = (
  | { kind: 'page'; status: number; view: AuthorizationPageView; cookie: CsrfCookie | null }
  | { kind: 'redirect'; location: string }
  | { kind: 'error'; status: number; message: string; retryAfter?: number }
) & { credentialRefused?: boolean };

const RESTART = 'Start the connection again from your AI client.';

/**
 * `GET /oauth/authorize`.
 *
 * @param query the query parameters (RFC 6749 §4.1.1 plus `code_challenge`,
 *   `code_challenge_method` (RFC 7636) and `resource` (RFC 8707)).
 * @param source the browser's cap of open sign-in pages (`oauth-source.ts`); past it the answer
 *   is a 429 page with `retryAfter` and nothing is stored. Without it, no cap applies.
 */
export async function startAuthorization(
  ctx: OAuthContext,
  query: OAuthParams,
  source?: SourceCap,
): Promise<AuthorizationOutcome> {
  let clientId: string | undefined;
  let asked: string | undefined;
  try {
    clientId = param(query, 'client_id');
    asked = param(query, 'redirect_uri');
  } catch (error) {
    return errorPage(400, describe(error));
  }
  if (clientId === undefined) return errorPage(400, 'The request does not name a client.');
  const client = await ctx.store.oauth.findClient(clientId);
  if (client === null) {
    return errorPage(
      400,
      'This client is not registered with linkguard. Remove the connector from your AI client and add it again.',
    );
  }
  let redirectUri: string;
  if (asked === undefined) {
    const [only] = client.redirectUris;
    if (client.redirectUris.length !== 1 || only === undefined) {
      return errorPage(400, 'The request does not say where to return (redirect_uri).');
    }
    redirectUri = only;
  } else if (matchRedirectUri(client.redirectUris, asked)) {
    redirectUri = asked;
  } else {
    return errorPage(400, 'The return address (redirect_uri) is not registered for this client.');
  }
  // Registered before the rules of redirect-uri.ts tightened (user information, a backslash, a
  // scheme that is not https, loopback http or a reverse-DNS app scheme): never sent there.
  if (redirectUriProblem(redirectUri) !== null) {
    return errorPage(
      400,
      'The return address registered for this client is not allowed (it could be mistaken for another site). Remove the connector from your AI client and add it again.',
    );
  }

  // From here on the client can be told what went wrong.
  const stateValue = query.state;
  const state = typeof stateValue === 'string' && stateValue !== '' ? stateValue : null;
  const back = (error: string, description: string): AuthorizationOutcome => ({
    kind: 'redirect',
    location: withResponseParameters(redirectUri, {
      error,
      error_description: description,
      state,
      iss: ctx.publicBaseUrl,
    }),
  });
  let codeChallenge: string;
  try {
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) return back('invalid_request', `${name} was given more than once`);
    }
    if (state !== null && state.length > MAX_STATE_LENGTH) {
      return back('invalid_request', 'state is too long');
    }
    if (param(query, 'response_type') !== 'code') {
      return back('unsupported_response_type', 'Only response_type=code is supported');
    }
    const challenge = param(query, 'code_challenge');
    if (challenge === undefined) {
      return back('invalid_request', 'PKCE is required: send a code_challenge (S256)');
    }
    if (param(query, 'code_challenge_method') !== 'S256') {
      return back('invalid_request', 'Only the S256 code_challenge_method is supported');
    }
    if (!isS256Challenge(challenge)) {
      return back('invalid_request', 'code_challenge is not an S256 challenge');
    }
    codeChallenge = challenge;
    const resource = param(query, 'resource');
    if (resource !== undefined && resource !== mcpResource(ctx.publicBaseUrl)) {
      return back('invalid_target', `Tokens are issued only for ${mcpResource(ctx.publicBaseUrl)}`);
    }
  } catch (error) {
    return back('invalid_request', describe(error));
  }

  const id = generateNonce();
  const csrf = generateNonce();
  const now = ctx.clock.now();
  const saved = await ctx.store.oauth.savePendingAuthorization(
    {
      hash: id.hash,
      clientId: client.id,
      redirectUri,
      redirectUriGiven: asked !== undefined,
      codeChallenge,
      state,
      resource: mcpResource(ctx.publicBaseUrl),
      // RFC 6749 §3.3: the server may ignore the requested scope; there is one scope, for all.
      scope: MCP_SCOPE,
      csrfHash: csrf.hash,
      expiresAt: now + PENDING_AUTHORIZATION_TTL_MS,
      failedAttempts: 0,
    },
    now,
    source,
  );
  if (!saved.ok) {
    const wait = Math.max(1, Math.ceil((saved.retryAt - now) / 1000));
    return {
      kind: 'error',
      status: 429,
      message: `Too many sign-in pages are open from this network. Finish or close one, or retry in ${String(wait)} s.`,
      retryAfter: wait,
    };
  }
  return {
    kind: 'page',
    status: 200,
    view: pageView(ctx, client, redirectUri, id.raw, csrf.raw, null),
    cookie: {
      name: csrfCookieName(id.hash),
      value: csrf.raw,
      maxAgeSeconds: PENDING_AUTHORIZATION_TTL_MS / 1000,
    },
  };
}

/**
 * `POST /oauth/authorize`: the page's form.
 *
 * @param form `request_id`, `csrf_token`, `credential` and `action` (`approve` or `deny`).
 * @param cookies the request's cookies.
 */
export async function submitAuthorization(
  ctx: OAuthContext,
  form: OAuthParams,
  cookies: Record<string, string | undefined>,
): Promise<AuthorizationOutcome> {
  const expired = errorPage(400, `This sign-in page has expired or was already used. ${RESTART}`);
  const fields = readForm(form);
  if (fields === null) return errorPage(400, 'The form is incomplete.');
  const hash = hashPresentedNonce(fields.requestId);
  if (hash === null) return expired;
  const pending = await ctx.store.oauth.findPendingAuthorization(hash);
  if (pending === null) return expired;
  if (pending.expiresAt <= ctx.clock.now()) {
    await ctx.store.oauth.takePendingAuthorization(hash);
    return expired;
  }
  const cookie = cookies[csrfCookieName(hash)];
  if (!csrfMatches(fields.csrfToken, cookie, pending)) {
    return errorPage(
      403,
      `The form could not be verified. Allow cookies for this site, then ${RESTART.toLowerCase()}`,
    );
  }
  const client = await ctx.store.oauth.findClient(pending.clientId);
  if (client === null) return expired;

  const back = (parameters: Record<string, string>): AuthorizationOutcome => ({
    kind: 'redirect',
    location: withResponseParameters(pending.redirectUri, {
      ...parameters,
      state: pending.state,
      iss: ctx.publicBaseUrl,
    }),
  });
  if (fields.action === 'deny') {
    if ((await ctx.store.oauth.takePendingAuthorization(hash)) === null) return expired;
    return back({ error: 'access_denied', error_description: 'The user declined' });
  }

  const subject = await subjectForCredential(ctx.store, ctx.clock, fields.credential);
  if (subject === null) {
    const attempts = await ctx.store.oauth.countFailedAttempt(hash);
    if (attempts >= MAX_FAILED_ATTEMPTS) {
      if ((await ctx.store.oauth.takePendingAuthorization(hash)) === null) return expired;
      return {
        ...back({ error: 'access_denied', error_description: 'Too many invalid credentials' }),
        credentialRefused: true,
      };
    }
    const error =
      'That is not a valid Premium license or enterprise key, or it was revoked. Check it and try again.';
    const view = pageView(
      ctx,
      client,
      pending.redirectUri,
      fields.requestId,
      fields.csrfToken,
      error,
    );
    return { kind: 'page', status: 400, view, cookie: null, credentialRefused: true };
  }

  // Taking the pending request is the one-time step: a double submit issues one code.
  const taken = await ctx.store.oauth.takePendingAuthorization(hash);
  if (taken === null) return expired;
  const code = generateSecret('code');
  await ctx.store.oauth.saveCode({
    hash: code.hash,
    clientId: taken.clientId,
    redirectUri: taken.redirectUri,
    redirectUriGiven: taken.redirectUriGiven,
    codeChallenge: taken.codeChallenge,
    resource: taken.resource,
    scope: taken.scope,
    subject,
    expiresAt: ctx.clock.now() + CODE_TTL_MS,
  });
  return back({ code: code.raw });
}

/**
 * Name of the CSRF cookie of one pending request: one per request, so two sign-ins open in two
 * tabs do not overwrite each other's cookie.
 */
export function csrfCookieName(requestHash: Buffer): string {
  return `lg_csrf_${requestHash.toString('hex').slice(0, 16)}`;
}

interface FormFields {
  requestId: string;
  csrfToken: string;
  credential: string;
  action: 'approve' | 'deny';
}

function readForm(form: OAuthParams): FormFields | null {
  try {
    const requestId = param(form, 'request_id');
    const csrfToken = param(form, 'csrf_token');
    const action = param(form, 'action') ?? 'approve';
    if (requestId === undefined || csrfToken === undefined) return null;
    if (action !== 'approve' && action !== 'deny') return null;
    return { requestId, csrfToken, credential: param(form, 'credential') ?? '', action };
  } catch {
    return null;
  }
}

/** Double submit: the form's token equals the cookie, and its hash is the pending request's. */
function csrfMatches(
  token: string,
  cookie: string | undefined,
  pending: PendingAuthorizationRecord,
): boolean {
  if (cookie === undefined) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(cookie);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  return hashesEqual(hashSecret(token), pending.csrfHash);
}

function pageView(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  redirectUri: string,
  requestId: string,
  csrfToken: string,
  error: string | null,
): AuthorizationPageView {
  return {
    clientName: client.name,
    clientId: client.id,
    redirectUri,
    requestId,
    csrfToken,
    formAction: ctx.publicBaseUrl + OAUTH_PATHS.authorize,
    error,
  };
}

function errorPage(status: number, message: string): AuthorizationOutcome {
  return { kind: 'error', status, message };
}

function describe(error: unknown): string {
  if (error instanceof OAuthError) return error.message;
  throw error;
}
