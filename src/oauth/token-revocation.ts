/**
 * @module oauth/token-revocation
 * `POST /oauth/revoke` (RFC 7009). Revoking either token of a grant ends the whole grant: the
 * user disconnecting a client expects nothing it holds to keep working (RFC 7009 §2.1 allows
 * this for access tokens and asks it for refresh tokens). An unknown token, or one issued to
 * another client, changes nothing and still answers 200 (§2.2), so the endpoint tells nobody
 * which tokens exist.
 */

import { authenticateClient } from './client-authentication.js';
import { type OAuthContext, type OAuthParams, param, requiredParam } from './oauth-context.js';
import { OAuthError } from './oauth-error.js';
import { hashPresentedSecret } from './oauth-secrets.js';

/**
 * Revoke the grant of a token.
 *
 * @param form `token` and optionally `token_type_hint` (`access_token` or `refresh_token`;
 *   only a hint: both kinds are recognised by their prefix).
 * @throws {OAuthError} `invalid_client` for failed client authentication, `invalid_request`
 *   without a token, `unsupported_token_type` for another hint (RFC 7009 §2.2.1).
 */
export async function revokeToken(
  ctx: OAuthContext,
  form: OAuthParams,
  authorization: string | undefined,
): Promise<void> {
  const client = await authenticateClient(ctx, form, authorization);
  const raw = requiredParam(form, 'token');
  const hint = param(form, 'token_type_hint');
  if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') {
    throw new OAuthError('unsupported_token_type', `Token type "${hint}" cannot be revoked here`);
  }
  const hash = hashPresentedSecret('accessToken', raw) ?? hashPresentedSecret('refreshToken', raw);
  if (hash === null) return;
  const token = await ctx.store.oauth.findToken(hash);
  if (token?.grant.clientId !== client.id) return;
  await ctx.store.oauth.revokeGrant(token.grant.id, ctx.clock.now());
}
