/**
 * @module mcp/mcp-grant
 * Who may call tools (spec §5 "Connector authentication", DESIGN §4.13): the bearer token of a
 * `tools/call` is an enterprise key (`sk_live_…`, checked like on `/v1/detect`: hash look-up,
 * constant-time compare, expiry and revocation) or, with OAuth, an `mcp_at_` access token.
 */
import { authenticateKey } from '../access/authenticate-key.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ApiKeyRecord, KeyStore } from '../store/ports.js';

/**
 * A verified caller of the connector: an enterprise key, or a Premium license (reached through an
 * OAuth access token; the token exchange is not in this version, so only tests build these).
 */
export type McpGrant =
  { kind: 'enterprise'; key: ApiKeyRecord } | { kind: 'license'; licenseId: string };

/** Why a bearer token was refused (the 401's `error_description`). */
export class McpAuthError extends Error {
  override readonly name = 'McpAuthError';
}

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/**
 * Verify the `Authorization` header of a connector request.
 *
 * @returns the grant, or null when no credentials were sent.
 * @throws {McpAuthError} for a header that is not one Bearer token, or a token that is unknown,
 *   expired or revoked (one message for all, so the answer does not tell which tokens exist).
 */
export async function verifyMcpBearer(
  header: string | undefined,
  keys: KeyStore,
  clock: Clock,
): Promise<McpGrant | null> {
  if (header === undefined || header.trim() === '') return null;
  const token = BEARER.exec(header.trim())?.[1];
  if (token === undefined) throw new McpAuthError('Authorization must be "Bearer <token>"');
  try {
    return { kind: 'enterprise', key: await authenticateKey(keys, token, clock) };
  } catch (error) {
    if (error instanceof AppError) {
      throw new McpAuthError('The access token or key is invalid, expired or revoked');
    }
    throw error;
  }
}
