/**
 * @module oauth/client-authentication
 * Who is calling the token and revocation endpoints (RFC 6749 §2.3): a public client names
 * itself with `client_id`; a confidential client proves its secret with HTTP Basic
 * (`client_secret_basic`) or in the form (`client_secret_post`). Either secret method is accepted
 * for a confidential client whatever it registered, since both carry the same secret over TLS
 * (docs/decisions.md §80). Secrets are compared as SHA-256 hashes in constant time.
 */

import { hashesEqual, hashSecret } from '../access/api-key.js';
import { readAuthorization } from '../access/authorization-header.js';
import type { OAuthClientRecord } from '../store/ports/oauth-store.js';
import { type OAuthContext, type OAuthParams, param } from './oauth-context.js';
import { OAuthError } from './oauth-error.js';

/** Presented client credentials. */
interface Presented {
  clientId: string | undefined;
  secret: string | undefined;
}

/**
 * Authenticate the client of a token or revocation request.
 *
 * @param authorization the `Authorization` header, if any.
 * @returns the registered client.
 * @throws {OAuthError} `invalid_client` (401) for a missing, unknown or unauthenticated client
 *   or an Authorization header outside the RFC 9110 §11.4 grammar;
 *   `invalid_request` when credentials are given in two ways at once.
 */
export async function authenticateClient(
  ctx: OAuthContext,
  form: OAuthParams,
  authorization: string | undefined,
): Promise<OAuthClientRecord> {
  const presented = presentedCredentials(form, authorization);
  const refused = () => new OAuthError('invalid_client', 'Client authentication failed');
  if (presented.clientId === undefined) throw refused();
  const client = await ctx.store.oauth.findClient(presented.clientId);
  if (client === null) throw refused();
  if (client.secretHash === null) {
    // A public client has nothing to prove; a secret it sends anyway is a confused client.
    if (presented.secret !== undefined) throw refused();
    return client;
  }
  if (presented.secret === undefined) throw refused();
  if (!hashesEqual(hashSecret(presented.secret), client.secretHash)) throw refused();
  return client;
}

function presentedCredentials(form: OAuthParams, authorization: string | undefined): Presented {
  const formId = param(form, 'client_id');
  const formSecret = param(form, 'client_secret');
  // The one Authorization grammar of every door (access/authorization-header.ts): `Basic`, one or
  // more spaces, one token68. A header outside it is a failed client authentication; another
  // well-formed scheme is not client authentication and leaves the form's credentials in charge.
  const presented = readAuthorization(authorization);
  if (presented.kind === 'malformed') {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  if (presented.kind !== 'basic') return { clientId: formId, secret: formSecret };
  if (formSecret !== undefined) {
    throw new OAuthError('invalid_request', 'Client credentials were sent in two ways at once');
  }
  const decoded = Buffer.from(presented.token68, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'Client authentication failed');
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (formId !== undefined && formId !== clientId) {
    throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
  }
  return { clientId, secret: secret === '' ? undefined : secret };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
}
