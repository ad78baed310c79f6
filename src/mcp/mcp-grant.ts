/**
 * @module mcp/mcp-grant
 * Who may call tools (README, "MCP connector"): the bearer token of a
 * `tools/call` is an `mcp_at_` access token from the OAuth flow, which speaks for a Premium
 * license or an enterprise key, or an enterprise key itself (`sk_live_…`, checked like on
 * `/v1/detect`: hash look-up, constant-time compare, expiry and revocation). A license is never
 * a bearer token: it is exchanged for one through the authorization page.
 */
import { authenticateKey } from '../access/authenticate-key.js';
import { BEARER_GRAMMAR_MESSAGE, readAuthorization } from '../access/authorization-header.js';
import { AppError } from '../errors.js';
import { authenticateAccessToken, looksLikeAccessToken } from '../oauth/access-token.js';
import type { OAuthContext } from '../oauth/oauth-context.js';
import type { ApiKeyRecord } from '../store/ports/key-store.js';

/** A verified caller of the connector: an enterprise key, or a Premium license (by id). */
export type McpGrant =
  { kind: 'enterprise'; key: ApiKeyRecord } | { kind: 'license'; licenseId: string };

/** Why a bearer token was refused (the 401's `error_description`). */
export class McpAuthError extends Error {
  override readonly name = 'McpAuthError';

  /**
   * @param error the RFC 6750 §3.1 code: `invalid_request` for a header outside the Bearer
   *   grammar, `invalid_token` for a token that is not accepted.
   */
  constructor(
    readonly error: 'invalid_request' | 'invalid_token',
    message: string,
  ) {
    super(message);
  }
}

const REFUSED = 'The access token or key is invalid, expired or revoked';

/**
 * Verify the `Authorization` header of a connector request.
 *
 * @returns the grant, or null when no credentials were sent.
 * @throws {McpAuthError} for a header that is not one Bearer token in the RFC 6750 §2.1 grammar
 *   (`readAuthorization()`), or a token that is unknown,
 *   expired, revoked or issued for another resource (one message for all, so the answer does not
 *   tell which tokens exist).
 */
export async function verifyMcpBearer(
  header: string | undefined,
  ctx: OAuthContext,
): Promise<McpGrant | null> {
  const presented = readAuthorization(header);
  if (presented.kind === 'none') return null;
  if (presented.kind !== 'bearer')
    throw new McpAuthError('invalid_request', BEARER_GRAMMAR_MESSAGE);
  const { token } = presented;
  if (looksLikeAccessToken(token)) {
    const subject = await authenticateAccessToken(ctx, token);
    if (subject === null) throw new McpAuthError('invalid_token', REFUSED);
    return subject.kind === 'enterprise'
      ? { kind: 'enterprise', key: subject.key }
      : { kind: 'license', licenseId: subject.license.id };
  }
  try {
    return { kind: 'enterprise', key: await authenticateKey(ctx.store.keys, token, ctx.clock) };
  } catch (error) {
    if (error instanceof AppError) throw new McpAuthError('invalid_token', REFUSED);
    throw error;
  }
}
