/**
 * @module errors
 * The one error type of linkguard and its stable string codes. Every failure a caller can see
 * carries one of these codes; the HTTP layer maps code → status in `http/error-body.ts`, and
 * nothing branches on message text. Codes marked "spec" are the fixed public ones of the README
 * error table; the others are linkguard's own and documented in docs/decisions.md.
 */

/** Stable machine-readable error codes. */
export type ErrorCode =
  /** spec · 400: the detect body has no `url` field (absent or null). */
  | 'missing_url'
  /**
   * spec · 400: the URL is malformed, too long, not http(s), or points at a private/reserved
   * address or a special-use name. `data.reason` says which.
   */
  | 'invalid_url'
  /** 400: the request itself is malformed: not JSON, unknown fields, wrong content type. */
  | 'invalid_request'
  /** spec · 401: a Bearer key is unknown, expired or revoked. Never falls back to payment. */
  | 'invalid_api_key'
  /**
   * 401: a route for enterprise keys only (`POST /v1/detect/batch`) was called without a key;
   * it cannot be paid per request (docs/decisions.md, decision 186).
   */
  | 'api_key_required'
  /** spec · 402: no payment proof; the body carries a fresh nonce and the payment instructions. */
  | 'payment_required'
  /**
   * spec · 402: a proof was sent but did not verify; `data.reason` holds the payment sub-code
   * (README, "Paying per request (x402)").
   */
  | 'payment_invalid'
  /** 404: no such route. */
  | 'not_found'
  /** 405: the route exists but not for this method. */
  | 'method_not_allowed'
  /** spec · 409: the nonce of the proof was already claimed. */
  | 'nonce_already_used'
  /** 413: the request body is larger than the body limit. */
  | 'payload_too_large'
  /** 415: the body is not `application/json`. */
  | 'unsupported_media_type'
  /**
   * spec · 429: per-IP or per-key rate limit, or a key's hard monthly cap; `data.retryAfter`
   * in seconds.
   */
  | 'rate_limited'
  /** 500: a bug or an infrastructure failure; the nonce of a paid request is not consumed. */
  | 'internal_error'
  /**
   * 503 (README, "Paying per request (x402)"): a chain RPC is unavailable; nothing was
   * consumed; `data.retryAfter` in seconds.
   */
  | 'chain_unavailable'
  /** 503: the store (database) is unavailable. */
  | 'service_unavailable';

/** HTTP status for each code: the single source of truth for the mapping. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  missing_url: 400,
  invalid_url: 400,
  invalid_request: 400,
  invalid_api_key: 401,
  api_key_required: 401,
  payment_required: 402,
  payment_invalid: 402,
  not_found: 404,
  method_not_allowed: 405,
  nonce_already_used: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  chain_unavailable: 503,
  service_unavailable: 503,
});

/** Optional structured details of an {@link AppError}. */
export interface AppErrorOptions {
  /** The underlying error, for logs only; never serialized to callers. */
  cause?: unknown;
  /** Seconds until a retry may succeed (429, 503); becomes `retry_after` and `Retry-After`. */
  retryAfter?: number;
  /** A finer reason code, e.g. why a URL is invalid (`too_long`, `private_address`). */
  reason?: string;
}

/**
 * An expected failure with a stable code. Thrown from services and mapped to an HTTP response
 * (or a CLI message) in one place.
 *
 * @example throw new AppError('invalid_url', 'URL is longer than 2048 characters', { reason:
 * 'too_long' })
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly reason: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.retryAfter = options.retryAfter;
    this.reason = options.reason;
  }
}

/** True when `value` is an {@link AppError} (also across module copies). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof Error && value.name === 'AppError' && 'code' in value;
}

/**
 * A message for a person: `message` as a sentence (a full stop added when it ends without
 * one), followed by `Retry in N s.` when `retryAfter` is given and the message does not say so
 * already (docs/decisions.md, decision 135).
 *
 * @param message an error message, e.g. an {@link AppError}'s.
 * @param retryAfter seconds, or undefined.
 * @example withRetryHint('The rate limit of this key is spent', 12) // 'The rate limit of this
 * key is spent. Retry in 12 s.'
 */
export function withRetryHint(message: string, retryAfter: number | undefined): string {
  const trimmed = message.trim();
  const sentence = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  if (retryAfter === undefined || /\bRetry in \d+ s\.$/.test(sentence)) return sentence;
  return `${sentence} Retry in ${String(retryAfter)} s.`;
}
