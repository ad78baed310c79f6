/**
 * @module oauth/oauth-error
 * Errors of the authorization server's JSON endpoints in the OAuth shape
 * `{error, error_description}`: RFC 6749 §5.2 (token), RFC 7591 §3.2.2 (registration), RFC 8707
 * §2 (`invalid_target`), RFC 7009 §2.2.1 (revocation).
 */

/** Error codes the endpoints answer with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'rate_limited';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  // RFC 6749 §5.2: 401 when the client tried to authenticate.
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_token_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  rate_limited: 429,
};

/** A refusal with its OAuth error code; `message` is the `error_description` (no secrets). */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly status: number;

  /**
   * @param retryAfter seconds until a retry can succeed (a `Retry-After` header), for
   *   `rate_limited`.
   */
  constructor(
    readonly code: OAuthErrorCode,
    description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
    this.status = STATUS[code];
  }

  /** The response body. */
  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}
