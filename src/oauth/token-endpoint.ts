/**
 * @module oauth/token-endpoint
 * `POST /oauth/token` (RFC 6749 §4.1.3 and §6, OAuth 2.1 §4.1.3, §4.3): an authorization code
 * with its PKCE verifier, or a refresh token, for an `mcp_at_` access token bound to `/mcp`
 * (RFC 8707) and, for clients registered with `refresh_token`, a new `mcp_rt_` refresh token.
 *
 * Codes are single-use: a second use is refused and revokes what the first one issued (RFC 6749
 * §4.1.2). Refresh tokens rotate on every use; presenting a rotated one revokes the whole grant,
 * since either the client or a thief holds a copy (RFC 9700 §4.14.2). The license or key behind
 * the grant is checked at every exchange.
 */

import type {
  AuthorizationCodeRecord,
  IssuedTokenHashes,
  OAuthClientRecord,
  OAuthGrantRecord,
} from '../store/ports/oauth-store.js';
import { authenticateClient } from './client-authentication.js';
import { type OAuthContext, type OAuthParams, param, requiredParam } from './oauth-context.js';
import { OAuthError } from './oauth-error.js';
import { mcpResource } from './oauth-metadata.js';
import {
  ACCESS_TOKEN_TTL_MS,
  generateGrantId,
  generateSecret,
  hashPresentedSecret,
  REFRESH_TOKEN_TTL_MS,
} from './oauth-secrets.js';
import { resolveSubject } from './oauth-subject.js';
import { verifyS256 } from './pkce.js';

/** A successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds. */
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/**
 * Answer a token request.
 *
 * @param form the urlencoded body.
 * @param authorization the `Authorization` header (client_secret_basic), if any.
 * @throws {OAuthError} with the RFC 6749 §5.2 code (`invalid_request`, `invalid_client`,
 *   `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope`) or
 *   RFC 8707's `invalid_target`.
 */
export async function exchangeToken(
  ctx: OAuthContext,
  form: OAuthParams,
  authorization: string | undefined,
): Promise<TokenResponse> {
  const grantType = requiredParam(form, 'grant_type');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', `Grant type "${grantType}" is not supported`);
  }
  const client = await authenticateClient(ctx, form, authorization);
  if (!client.grantTypes.includes(grantType)) {
    throw new OAuthError('unauthorized_client', `This client did not register ${grantType}`);
  }
  return grantType === 'authorization_code'
    ? exchangeCode(ctx, client, form)
    : refresh(ctx, client, form);
}

async function exchangeCode(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: OAuthParams,
): Promise<TokenResponse> {
  const rawCode = requiredParam(form, 'code');
  const verifier = requiredParam(form, 'code_verifier');
  const redirectUri = param(form, 'redirect_uri');
  const resource = param(form, 'resource');
  const invalid = (why: string) => new OAuthError('invalid_grant', why);

  const hash = hashPresentedSecret('code', rawCode);
  if (hash === null) throw invalid('The authorization code is invalid');
  const now = ctx.clock.now();
  // Spent before any check, so a code fails for good after one wrong verifier.
  const redemption = await ctx.store.oauth.redeemCode(hash, now);
  if (redemption.status === 'unknown') throw invalid('The authorization code is invalid');
  if (redemption.status === 'reused') {
    if (redemption.grantId !== null) await ctx.store.oauth.revokeGrant(redemption.grantId, now);
    throw invalid('The authorization code was already used');
  }
  const code: AuthorizationCodeRecord = redemption.code;
  if (code.clientId !== client.id) throw invalid('The code was issued to another client');
  if (code.expiresAt <= now) throw invalid('The authorization code has expired');
  if (code.redirectUriGiven && redirectUri !== code.redirectUri) {
    throw invalid('redirect_uri differs from the authorization request');
  }
  if (!verifyS256(verifier, code.codeChallenge)) {
    throw invalid('The code_verifier does not match the code_challenge');
  }
  checkResource(resource, code.resource);
  if (code.resource !== mcpResource(ctx.publicBaseUrl)) {
    throw invalid('The code was issued for another server');
  }
  if ((await resolveSubject(ctx.store, ctx.clock, code.subject)) === null) {
    throw invalid('The license or key was revoked');
  }

  const grant: OAuthGrantRecord = {
    id: generateGrantId(),
    clientId: client.id,
    subject: code.subject,
    resource: code.resource,
    scope: code.scope,
    createdAt: now,
    revokedAt: null,
  };
  const issued = newTokens(client, now);
  if (!(await ctx.store.oauth.createGrant(grant, issued.hashes, hash))) {
    throw invalid('The authorization code was already used');
  }
  return issued.response(grant.scope);
}

async function refresh(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: OAuthParams,
): Promise<TokenResponse> {
  const raw = requiredParam(form, 'refresh_token');
  const resource = param(form, 'resource');
  const scope = param(form, 'scope');
  const invalid = () => new OAuthError('invalid_grant', 'The refresh token is invalid or expired');

  const hash = hashPresentedSecret('refreshToken', raw);
  if (hash === null) throw invalid();
  const now = ctx.clock.now();
  const token = await ctx.store.oauth.findToken(hash);
  if (token?.kind !== 'refresh' || token.grant.clientId !== client.id) throw invalid();
  if (token.grant.revokedAt !== null || token.expiresAt <= now) throw invalid();
  // A store shared by deployments with other PUBLIC_BASE_URLs holds their grants too.
  if (token.grant.resource !== mcpResource(ctx.publicBaseUrl)) throw invalid();
  checkResource(resource, token.grant.resource);
  if (scope?.split(' ').some((s) => s !== token.grant.scope)) {
    throw new OAuthError('invalid_scope', `Only the scope "${token.grant.scope}" can be granted`);
  }
  if ((await resolveSubject(ctx.store, ctx.clock, token.grant.subject)) === null) {
    await ctx.store.oauth.revokeGrant(token.grant.id, now);
    throw invalid();
  }

  const issued = newTokens(client, now);
  const rotation = await ctx.store.oauth.rotateRefreshToken(hash, now, issued.hashes);
  if (rotation.status === 'reused') {
    await ctx.store.oauth.revokeGrant(rotation.grantId, now);
    throw invalid();
  }
  if (rotation.status === 'invalid') throw invalid();
  return issued.response(rotation.grant.scope);
}

/** RFC 8707 §2: a `resource` in the token request must be the one the grant is bound to. */
function checkResource(requested: string | undefined, bound: string): void {
  if (requested !== undefined && requested !== bound) {
    throw new OAuthError('invalid_target', `Tokens are issued only for ${bound}`);
  }
}

function newTokens(client: OAuthClientRecord, now: number) {
  const access = generateSecret('accessToken');
  const refresh = client.grantTypes.includes('refresh_token')
    ? generateSecret('refreshToken')
    : null;
  const hashes: IssuedTokenHashes = {
    access: { hash: access.hash, expiresAt: now + ACCESS_TOKEN_TTL_MS },
    refresh:
      refresh === null ? null : { hash: refresh.hash, expiresAt: now + REFRESH_TOKEN_TTL_MS },
  };
  return {
    hashes,
    response: (scope: string): TokenResponse => ({
      access_token: access.raw,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_MS / 1000,
      ...(refresh === null ? {} : { refresh_token: refresh.raw }),
      scope,
    }),
  };
}
