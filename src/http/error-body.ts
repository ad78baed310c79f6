/**
 * @module http/error-body
 * The one place where failures become HTTP responses (DESIGN §4.3): every error leaves as
 * `{status, error, message}` with the stable code, plus `reason` where a finer sub-code exists and
 * `retry_after` (and the `Retry-After` header) on 429 and 503. Internal errors never leak their
 * message or stack.
 */
import { type AppError, type ErrorCode, isAppError, STATUS_BY_CODE } from '../errors.js';

/** An HTTP error response ready to send. */
export interface ErrorResponse {
  status: number;
  body: {
    status: number;
    error: ErrorCode;
    message: string;
    reason?: string;
    retry_after?: number;
  };
  /** Headers to add (Retry-After). */
  headers: Record<string, string>;
}

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  validation?: ValidationIssue[];
  validationContext?: string;
}

/** Build the response for an {@link AppError}. */
function appErrorResponse(error: AppError): ErrorResponse {
  return respond(error.code, error.message, error.reason, error.retryAfter);
}

/**
 * Map any thrown value to a response.
 *
 * @param error what was thrown.
 * @param body the parsed request body, to tell `{"url": null}` (missing) from a wrong type.
 * @returns the response, and whether it is an unexpected (5xx) failure worth logging as an error.
 */
export function toErrorResponse(
  error: unknown,
  body: unknown,
): { response: ErrorResponse; unexpected: boolean } {
  if (isAppError(error))
    return { response: appErrorResponse(error), unexpected: error.status >= 500 };
  const fastify = (typeof error === 'object' && error !== null ? error : {}) as FastifyLikeError;
  if (Array.isArray(fastify.validation)) {
    return {
      response: validationResponse(fastify.validation, fastify.validationContext, body),
      unexpected: false,
    };
  }
  switch (fastify.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return expected('unsupported_media_type', 'The body must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return expected('payload_too_large', 'The request body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return expected('missing_url', 'The body has no url field');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return expected('invalid_request', 'Content-Length does not match the body');
    default:
      break;
  }
  if (
    typeof fastify.statusCode === 'number' &&
    fastify.statusCode >= 400 &&
    fastify.statusCode < 500
  ) {
    // JSON syntax errors and other client errors raised by the body parser.
    return expected('invalid_request', 'The request body is not valid JSON');
  }
  return {
    response: respond(
      'internal_error',
      'Internal error; nothing was charged or consumed. Retry later.',
    ),
    unexpected: true,
  };
}

function expected(
  code: ErrorCode,
  message: string,
): { response: ErrorResponse; unexpected: boolean } {
  return { response: respond(code, message), unexpected: false };
}

function validationResponse(
  issues: ValidationIssue[],
  context: string | undefined,
  body: unknown,
): ErrorResponse {
  const issue = issues[0] ?? {};
  if (context !== 'body')
    return respond('invalid_request', `Invalid request ${context ?? ''}`.trim());
  const urlValue =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).url : undefined;
  if (issue.keyword === 'required' && issue.params?.missingProperty === 'url') {
    return respond('missing_url', 'The body has no url field');
  }
  if (issue.instancePath === '/url') {
    if (urlValue === null) return respond('missing_url', 'The body has no url field (url is null)');
    if (issue.keyword === 'maxLength')
      return respond('invalid_url', 'URL is longer than 2048 characters', 'too_long');
    return respond('invalid_url', 'url must be a string', 'malformed');
  }
  if (issue.keyword === 'additionalProperties') {
    const extra = issue.params?.additionalProperty;
    const name = typeof extra === 'string' ? extra : '';
    return respond(
      'invalid_request',
      `Unknown field "${name.slice(0, 40)}"; the body takes only "url"`,
    );
  }
  if (issue.keyword === 'type' && issue.instancePath === '') {
    return respond('invalid_request', 'The body must be a JSON object');
  }
  return respond('invalid_request', 'The request body does not match the schema');
}

function respond(
  code: ErrorCode,
  message: string,
  reason?: string,
  retryAfter?: number,
): ErrorResponse {
  const status = STATUS_BY_CODE[code];
  const headers: Record<string, string> = {};
  const body: ErrorResponse['body'] = { status, error: code, message };
  if (reason !== undefined) body.reason = reason;
  if (retryAfter !== undefined) {
    body.retry_after = retryAfter;
    headers['retry-after'] = String(retryAfter);
  }
  return { status, body, headers };
}
