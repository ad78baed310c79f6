/**
 * @module oauth/access-token
 * Checking an `mcp_at_` access token presented to `/mcp` (MCP authorization spec, "Token
 * Handling"; RFC 8707 audience binding): known, of the access kind, not expired, its grant not
 * revoked, bound to this server's `/mcp`, and the license or key behind it still live.
 */

import type { OAuthContext } from './oauth-context.js';
import { mcpResource } from './oauth-metadata.js';
import { hashPresentedSecret, SECRET_PREFIX } from './oauth-secrets.js';
import { type ResolvedSubject, resolveSubject } from './oauth-subject.js';

/** True when `raw` starts like an access token (the caller then needs no other check). */
export function looksLikeAccessToken(raw: string): boolean {
  return raw.startsWith(SECRET_PREFIX.accessToken);
}

/**
 * The live credential an access token speaks for, or null when the token is not valid here
 * (malformed, unknown, expired, revoked, issued for another resource, or its license or key
 * revoked: one answer for all).
 */
export async function authenticateAccessToken(
  ctx: OAuthContext,
  raw: string,
): Promise<ResolvedSubject | null> {
  const hash = hashPresentedSecret('accessToken', raw);
  if (hash === null) return null;
  const token = await ctx.store.oauth.findToken(hash);
  if (token?.kind !== 'access') return null;
  const now = ctx.clock.now();
  if (token.expiresAt <= now || token.grant.revokedAt !== null) return null;
  if (token.grant.resource !== mcpResource(ctx.publicBaseUrl)) return null;
  return resolveSubject(ctx.store, ctx.clock, token.grant.subject);
}
