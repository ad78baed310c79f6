/**
 * What a documented answer is, door by door: the properties of the fuzz suite hold every answer
 * to these rules. A rule broken is returned as a sentence (the fuzz failure); null means the
 * answer is documented.
 *
 * - Every door: no 5xx.
 * - The HTTP API (`/v1/*`, `/v1/detect/batch` and `/v1/reports` too, unknown paths): a 4xx is `{status, error, message}` with `error` a
 *   code of `src/errors.ts` (the README error table) whose status is the HTTP status; `reason`
 *   of `invalid_url` is a URL rejection (docs/decisions.md, decision 1) and of `payment_invalid`
 *   a payment sub-code (README, "Paying per request"); a 429 has `Retry-After`.
 * - `/mcp`: a JSON-RPC error code is one of JSON-RPC 2.0 §5.1 (-32700, -32600, -32601, -32602),
 *   the MCP SDK transport's -32000 (wrong Accept or content type, unsupported protocol version)
 *   or linkguard's -32001 (401); never -32603 (internal error), whatever the HTTP status. Errors
 *   raised before the route (body too large, not JSON) take the API shape.
 * - `/oauth/*` JSON endpoints: a 4xx is `{error, error_description}` with an RFC 6749 §5.2,
 *   RFC 7591 §3.2.2, RFC 7009 §2.2.1 or RFC 8707 code (plus `rate_limited` on 429).
 * - `/report` (the page for site owners): an HTML page (200, or 400/403/413/415/429, `Retry-After`
 *   on a 429), a 303 back to `/report`, or the API shape for a body refused before the route.
 * - `/oauth/authorize`: an HTML page (200, or 400/403/429 for a refused request), a redirect whose
 *   `error` is an RFC 6749 §4.1.2.1 or RFC 8707 code, or the OAuth JSON shape for a body that is
 *   not a form.
 */
import { type ErrorCode, STATUS_BY_CODE } from '../../src/errors.js';
import { PAYMENT_INVALID_REASONS } from '../../src/payments/payment-invalid-reason.js';

/** The doors the suite knocks on, as the tables of `npm run fuzz` name them. */
export type Door =
  | 'detect'
  | 'batch'
  | 'reports'
  | 'report-page'
  | 'payment'
  | 'url'
  | 'api'
  | 'mcp'
  | 'oauth-register'
  | 'oauth-authorize'
  | 'oauth-token'
  | 'oauth-revoke'
  | 'oauth-metadata';

/** An answer as the suite sees it. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const API_CODES = new Set(Object.keys(STATUS_BY_CODE));

const URL_REJECTIONS = new Set([
  'empty',
  'too_long',
  'unsupported_scheme',
  'malformed',
  'invalid_host',
  'private_address',
  'special_use_name',
  'unknown_tld',
]);

const PAYMENT_REASONS = new Set<string>(PAYMENT_INVALID_REASONS);

/** JSON-RPC 2.0 §5.1, the SDK transport's -32000 and linkguard's unauthenticated call. */
const MCP_RPC_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32001]);

/** RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1, RFC 8707 §2, and linkguard's 429. */
const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_token_type',
  'invalid_scope',
  'invalid_target',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'rate_limited',
]);

/** RFC 6749 §4.1.2.1 and RFC 8707 §2: errors an authorization response may carry. */
const AUTHORIZE_REDIRECT_CODES = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'invalid_target',
]);

function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name];
  return value === undefined ? undefined : String(value);
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why an API error body is not documented, or null. */
function apiErrorProblem(answer: Answer): string | null {
  const body = parseJson(answer.body);
  if (!isObject(body)) return `${answer.status} without a JSON error body`;
  const code = body.error;
  if (typeof code !== 'string' || !API_CODES.has(code)) {
    return `${answer.status} with undocumented error code ${JSON.stringify(code)}`;
  }
  if (STATUS_BY_CODE[code as ErrorCode] !== answer.status || body.status !== answer.status) {
    return `${answer.status} with error ${code}, documented as ${STATUS_BY_CODE[code as ErrorCode]}`;
  }
  if (typeof body.message !== 'string' || body.message === '') return `${code} without a message`;
  if (code === 'invalid_url' && body.reason !== undefined) {
    if (typeof body.reason !== 'string' || !URL_REJECTIONS.has(body.reason)) {
      return `invalid_url with undocumented reason ${JSON.stringify(body.reason)}`;
    }
  }
  if (code === 'payment_invalid') {
    if (typeof body.reason !== 'string' || !PAYMENT_REASONS.has(body.reason)) {
      return `payment_invalid with undocumented reason ${JSON.stringify(body.reason)}`;
    }
  }
  if (answer.status === 429 && header(answer, 'retry-after') === undefined) {
    return '429 without Retry-After';
  }
  return null;
}

/** JSON-RPC error codes in an `/mcp` body (a response or a batch of them). */
function rpcErrorCodes(body: unknown): unknown[] {
  const list = Array.isArray(body) ? body : [body];
  return list.flatMap((message) =>
    isObject(message) && isObject(message.error) ? [message.error.code] : [],
  );
}

function mcpProblem(answer: Answer): string | null {
  const body = parseJson(answer.body);
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isObject(message) || !isObject(message.error)) continue;
    const { code } = message.error;
    if (typeof code !== 'number' || !MCP_RPC_CODES.has(code)) {
      return `JSON-RPC error code ${JSON.stringify(code)} (HTTP ${answer.status})`;
    }
  }
  if (answer.status >= 400) {
    if (rpcErrorCodes(body).length > 0) return null;
    // Refused before the route: Fastify's body parsing and routing speak the API's shape.
    return apiErrorProblem(answer);
  }
  return null;
}

function oauthJsonProblem(answer: Answer): string | null {
  const body = parseJson(answer.body);
  if (!isObject(body)) return `${answer.status} without a JSON OAuth error body`;
  if (typeof body.error !== 'string' || !OAUTH_CODES.has(body.error)) {
    return `${answer.status} with undocumented OAuth error ${JSON.stringify(body.error)}`;
  }
  if (typeof body.error_description !== 'string') return `${body.error} without a description`;
  const expected =
    body.error === 'rate_limited' ? 429 : body.error === 'invalid_client' ? 401 : 400;
  if (answer.status !== expected) return `${body.error} answered with ${answer.status}`;
  return null;
}

function authorizeProblem(answer: Answer): string | null {
  const type = header(answer, 'content-type') ?? '';
  if (answer.status === 302 || answer.status === 303) {
    const location = header(answer, 'location');
    const target = location === undefined ? null : URL.parse(location);
    if (target === null) return `${answer.status} without a usable Location`;
    const error = target.searchParams.get('error');
    if (error !== null && !AUTHORIZE_REDIRECT_CODES.has(error)) {
      return `redirect with undocumented error ${JSON.stringify(error)}`;
    }
    return null;
  }
  if (type.startsWith('text/html')) {
    return [200, 400, 403, 429].includes(answer.status)
      ? null
      : `HTML page with status ${answer.status}`;
  }
  if (answer.status >= 400) return oauthJsonProblem(answer);
  return `${answer.status} ${type}: neither a page nor a redirect`;
}

function reportPageProblem(answer: Answer): string | null {
  const type = header(answer, 'content-type') ?? '';
  if (answer.status === 303) {
    const location = header(answer, 'location') ?? '';
    return location.endsWith('/report') ? null : `303 to ${JSON.stringify(location)}`;
  }
  if (type.startsWith('text/html')) {
    if (![200, 400, 403, 413, 415, 429].includes(answer.status)) {
      return `page with status ${answer.status}`;
    }
    if (answer.status === 429 && header(answer, 'retry-after') === undefined) {
      return '429 page without Retry-After';
    }
    return null;
  }
  if (answer.status >= 400) return apiErrorProblem(answer);
  return `${answer.status} ${type}: neither a page nor a redirect`;
}

/**
 * Why `answer`, from `door`, breaks the documented contract, or null when it keeps it.
 */
export function answerProblem(door: Door, answer: Answer): string | null {
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  switch (door) {
    case 'mcp':
      return mcpProblem(answer);
    case 'oauth-register':
    case 'oauth-token':
    case 'oauth-revoke':
      return answer.status >= 400 ? oauthJsonProblem(answer) : null;
    case 'oauth-authorize':
      return authorizeProblem(answer);
    case 'report-page':
      return reportPageProblem(answer);
    case 'oauth-metadata':
      return answer.status === 200 ? null : apiErrorProblem(answer);
    default:
      return answer.status >= 400 ? apiErrorProblem(answer) : null;
  }
}
