/**
 * @module api/response-docs
 * The responses of the detect routes and of `POST /v1/reports` as the API reference shows them (`/v1/openapi.json`,
 * `/docs`): each status with its name (RFC 9110 §15), the error codes it carries (README, "API")
 * and examples. The verdict examples are real engine answers (`verdict-examples.ts`); an
 * `invalid_url` example is what the URL validator says of {@link EXAMPLE_URLS}.refused; the other
 * messages are the service's own, checked against real answers by
 * `test/http/api-examples.test.ts`. Schemas carry the name as `description` and the examples as
 * `x-examples`, which @fastify/swagger turns into the response's description and its media
 * type's `examples` (OpenAPI 3.1 §4.8.17, §4.8.14).
 */
import type { TSchema } from 'typebox';

import { normalizeUrl } from '../engine/url/normalize-url.js';
import { REPORTS_PER_CREDENTIAL, REPORTS_PER_SOURCE } from '../ratelimit/rate-limits.js';
import {
  API_KEY_REQUIRED_MESSAGE,
  DetectBatchResponseSchema,
  MAX_BATCH_URLS,
  TOO_MANY_URLS_REASON,
} from './detect-batch-schemas.js';
import { ErrorBodySchema, PaymentChallengeSchema } from './error-schemas.js';
import { EXAMPLE_URLS } from './example-urls.js';
import { reportBodyError, ReportReceiptSchema } from './report-schemas.js';
import { DANGER_VERDICT_EXAMPLE, SAFE_VERDICT_EXAMPLE } from './verdict-examples.js';
import { VerdictSchema } from './verdict-schema.js';

/** An OpenAPI Example Object (OpenAPI 3.1 §4.8.19). */
interface Example {
  summary: string;
  value: unknown;
}

/**
 * A response schema with its status name and examples, as @fastify/swagger reads them.
 *
 * @param schema the body's schema (copied, without its `$id`).
 * @param description `<RFC 9110 status name> — <what it means, its error codes>`.
 * @param examples named OpenAPI Example Objects of the body.
 */
export function documented(
  schema: TSchema,
  description: string,
  examples: Record<string, Example>,
): TSchema {
  // A copy without $id: one schema object per status (the same $id twice in a route clashes).
  const copy: Record<string, unknown> = { ...schema, description, 'x-examples': examples };
  delete copy.$id;
  return copy;
}

const errorBody = (status: number, error: string, message: string, extra = {}) => ({
  status,
  error,
  message,
  ...extra,
});

const refused = normalizeUrl(EXAMPLE_URLS.refused);
/** The validator's own refusal of the example's private address. */
export const INVALID_URL_EXAMPLE = errorBody(
  400,
  'invalid_url',
  refused.ok ? '' : refused.message,
  refused.ok ? {} : { reason: refused.reason },
);

/** Messages of the answers the examples show (the service's own; checked by the test). */
export const EXAMPLE_MESSAGES = {
  missingUrl: 'The body has no url field',
  invalidKey: 'The API key is invalid, expired or revoked',
  tooLarge: 'The request body is too large',
  mediaType: 'The body must be application/json',
  rateLimited: 'Too many requests; back off and retry.',
  monthly: 'The monthly allowance of this key is used up',
  internal: 'Internal error; nothing was charged or consumed. Retry later.',
} as const;

const NONCE = '3b0f5a9e-2c7d-4e1a-9b8c-6d5e4f3a2b1c';
const SOLANA_RECIPIENT = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const BASE_RECIPIENT = '0x1111111111111111111111111111111111111111';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const EXPIRES = '2026-11-27T12:10:00.000Z';

/** A 402 with both chains offered (recipients and nonce are placeholders). */
const CHALLENGE_EXAMPLE = {
  status: 402,
  error: 'payment_required',
  message: 'Payment required: 0.01 USDC per request on Solana or Base, or an enterprise key.',
  payment: {
    amount: '0.01',
    token: 'USDC',
    token_mint: SOLANA_USDC,
    chain: 'solana',
    recipient: SOLANA_RECIPIENT,
    nonce: NONCE,
    memo_format: `linkguard:${NONCE}`,
    expires_at: EXPIRES,
    alternatives: [
      {
        amount: '0.01',
        token: 'USDC',
        chain: 'base',
        chain_id: 8453,
        token_contract: BASE_USDC,
        recipient: BASE_RECIPIENT,
        nonce: NONCE,
        nonce_binding: 'eip191',
        sign_message: `linkguard:${NONCE}`,
        expires_at: EXPIRES,
      },
    ],
  },
  x402Version: 1,
  accepts: [
    {
      scheme: 'exact',
      network: 'solana',
      maxAmountRequired: '10000',
      resource: 'https://linkguard.example.com/v1/detect',
      description: 'linkguard URL verdict, 0.01 USDC per request',
      mimeType: 'application/json',
      payTo: SOLANA_RECIPIENT,
      maxTimeoutSeconds: 600,
      asset: SOLANA_USDC,
      extra: { nonce: NONCE, memo_template: 'linkguard:<nonce>', memo: `linkguard:${NONCE}` },
    },
    {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '10000',
      resource: 'https://linkguard.example.com/v1/detect',
      description: 'linkguard URL verdict, 0.01 USDC per request',
      mimeType: 'application/json',
      payTo: BASE_RECIPIENT,
      maxTimeoutSeconds: 600,
      asset: BASE_USDC,
      extra: {
        nonce: NONCE,
        sign_message_template: 'linkguard:<nonce>',
        min_confirmations: 2,
        message: `linkguard:${NONCE}`,
      },
    },
  ],
};

const STORE_DOWN = {
  summary: 'The store (PostgreSQL) does not answer',
  value: errorBody(
    503,
    'service_unavailable',
    'The store is unavailable; nothing was recorded. Retry in 5 s.',
    { reason: 'store_unavailable', retry_after: 5 },
  ),
};

const RATE_LIMITED = errorBody(429, 'rate_limited', EXAMPLE_MESSAGES.rateLimited, {
  retry_after: 42,
});
const MONTHLY = errorBody(429, 'rate_limited', EXAMPLE_MESSAGES.monthly, {
  reason: 'monthly_allowance',
  retry_after: 345_600,
});

/** The 400 of a batch of {@link MAX_BATCH_URLS} + 1 URLs. */
export const TOO_MANY_URLS_EXAMPLE = errorBody(
  400,
  'invalid_request',
  `At most ${String(MAX_BATCH_URLS)} URLs per request; this one has ${String(MAX_BATCH_URLS + 1)}`,
  { reason: TOO_MANY_URLS_REASON },
);

/** The 401 of a batch without a key. */
export const KEY_REQUIRED_EXAMPLE = errorBody(401, 'api_key_required', API_KEY_REQUIRED_MESSAGE);

/** The answer of a batch of the three example URLs (a verdict, a verdict, a refusal). */
export const BATCH_RESULT_EXAMPLE = {
  results: [
    { url: EXAMPLE_URLS.safe, ...SAFE_VERDICT_EXAMPLE },
    { url: EXAMPLE_URLS.danger, ...DANGER_VERDICT_EXAMPLE },
    { url: EXAMPLE_URLS.refused, error: INVALID_URL_EXAMPLE },
  ],
};

const err = ErrorBodySchema;

/** Statuses both detect routes share, by status. */
function sharedErrors(): Record<number, TSchema> {
  return {
    413: documented(err, 'Content Too Large — `payload_too_large`: the body is over the limit.', {
      payload_too_large: {
        summary: 'Body over the limit',
        value: errorBody(413, 'payload_too_large', EXAMPLE_MESSAGES.tooLarge),
      },
    }),
    415: documented(
      err,
      'Unsupported Media Type — `unsupported_media_type`: the body is not application/json.',
      {
        unsupported_media_type: {
          summary: 'Not JSON',
          value: errorBody(415, 'unsupported_media_type', EXAMPLE_MESSAGES.mediaType),
        },
      },
    ),
    500: documented(
      err,
      'Internal Server Error — `internal_error`: nothing was charged or consumed; retry (the same payment proof works).',
      {
        internal_error: {
          summary: 'A failure of the service',
          value: errorBody(500, 'internal_error', EXAMPLE_MESSAGES.internal),
        },
      },
    ),
  };
}

const INVALID_KEY = {
  summary: 'Unknown, expired or revoked key (WWW-Authenticate: Bearer error="invalid_token")',
  value: errorBody(401, 'invalid_api_key', EXAMPLE_MESSAGES.invalidKey),
};

const AUTH_FAILURES = {
  summary: 'Too many failed authentications from this source (20 per 10 minutes)',
  value: errorBody(
    429,
    'rate_limited',
    'Too many failed authentications from this address. Retry in 300 s.',
    { reason: 'auth_failures', retry_after: 300 },
  ),
};

/** Every response of `POST /v1/detect`, 200 included. */
export function detectResponses(): Record<number, TSchema> {
  return {
    200: documented(VerdictSchema, 'OK — the verdict.', {
      safe: { summary: `${EXAMPLE_URLS.safe}: a brand's own site`, value: SAFE_VERDICT_EXAMPLE },
      danger: {
        summary: `${EXAMPLE_URLS.danger}: a look-alike of a wallet's name`,
        value: DANGER_VERDICT_EXAMPLE,
      },
    }),
    400: documented(
      err,
      'Bad Request — `missing_url` (no `url`, or null), `invalid_url` (`reason`: empty, too_long, ' +
        'unsupported_scheme, malformed, invalid_host, private_address, special_use_name, ' +
        'unknown_tld) or `invalid_request` (not JSON, not an object, unknown fields).',
      {
        invalid_url: { summary: 'A private address', value: INVALID_URL_EXAMPLE },
        missing_url: {
          summary: 'No url field',
          value: errorBody(400, 'missing_url', EXAMPLE_MESSAGES.missingUrl),
        },
      },
    ),
    401: documented(
      err,
      'Unauthorized — `invalid_api_key`: the key is unknown, expired or revoked, or the ' +
        'Authorization header is not `Bearer <token>` (reason `malformed_authorization`). Never ' +
        'falls back to payment.',
      { invalid_api_key: INVALID_KEY },
    ),
    402: documented(
      PaymentChallengeSchema,
      'Payment Required — `payment_required` (no proof: pay, then re-send with it) or ' +
        '`payment_invalid` (the proof did not verify; `reason` says why) with fresh payment ' +
        'instructions in both shapes: `payment` and the x402 `accepts` list (null and empty when ' +
        'no chain is offered: use an enterprise key).',
      { payment_required: { summary: 'No key, no proof', value: CHALLENGE_EXAMPLE } },
    ),
    409: documented(
      err,
      'Conflict — `nonce_already_used`: the nonce already paid for a request; get a fresh one.',
      {
        nonce_already_used: {
          summary: 'A replayed proof',
          value: errorBody(
            409,
            'nonce_already_used',
            'This nonce already paid for a request. Request a fresh nonce (send the request without proof) and pay again.',
          ),
        },
      },
    ),
    ...sharedErrors(),
    429: documented(
      err,
      'Too Many Requests — `rate_limited`: the per-IP or per-key budget (no reason), a hard ' +
        'monthly cap (`monthly_allowance`) or failed authentications (`auth_failures`); ' +
        '`retry_after` and Retry-After in seconds.',
      {
        rate_limited: { summary: 'Per-minute budget spent', value: RATE_LIMITED },
        monthly_allowance: { summary: "The key's hard monthly cap is reached", value: MONTHLY },
        auth_failures: AUTH_FAILURES,
      },
    ),
    503: documented(
      err,
      'Service Unavailable — `chain_unavailable`: the chain RPC did not answer; nothing was ' +
        'consumed; retry the same proof after `retry_after`. `service_unavailable` (reason ' +
        '`store_unavailable`): the store does not answer; retry after `retry_after`.',
      {
        service_unavailable: STORE_DOWN,
        chain_unavailable: {
          summary: 'Chain RPC down',
          value: errorBody(
            503,
            'chain_unavailable',
            'The Solana RPC is unavailable; nothing was consumed. Retry the same proof later.',
            { retry_after: 5 },
          ),
        },
      },
    ),
  };
}

/** Every response of `POST /v1/detect/batch`, 200 included. */
export function detectBatchResponses(): Record<number, TSchema> {
  return {
    200: documented(
      DetectBatchResponseSchema,
      'OK — one result per URL, in input order: a verdict, or the error /v1/detect would answer for that URL.',
      {
        mixed: {
          summary: `${EXAMPLE_URLS.safe}, ${EXAMPLE_URLS.danger} and a private address`,
          value: BATCH_RESULT_EXAMPLE,
        },
      },
    ),
    400: documented(
      err,
      `Bad Request — \`missing_url\` (no \`urls\`, null or empty), \`invalid_request\` with reason \`${TOO_MANY_URLS_REASON}\` (more than ${String(MAX_BATCH_URLS)} URLs), or \`invalid_request\` (not JSON, not an object, \`urls\` not an array of strings, unknown fields). A URL the validator refuses is not a 400: it gets its own entry.`,
      {
        too_many_urls: {
          summary: `${String(MAX_BATCH_URLS + 1)} URLs`,
          value: TOO_MANY_URLS_EXAMPLE,
        },
      },
    ),
    401: documented(
      err,
      'Unauthorized — `api_key_required` (no Authorization header; WWW-Authenticate: Bearer): this ' +
        'route is for enterprise keys and cannot be paid per request; or `invalid_api_key` (as on ' +
        '/v1/detect).',
      {
        api_key_required: { summary: 'No key', value: KEY_REQUIRED_EXAMPLE },
        invalid_api_key: INVALID_KEY,
      },
    ),
    ...sharedErrors(),
    429: documented(
      err,
      'Too Many Requests — `rate_limited`: the request itself was refused, before any URL was ' +
        'counted: failed authentications from this source (`auth_failures`), or the per-IP ' +
        "budget of a request without a key. A key's spent budget or monthly cap is reported per " +
        'URL in a 200.',
      { auth_failures: AUTH_FAILURES },
    ),
    503: documented(
      err,
      'Service Unavailable — `service_unavailable` (reason `store_unavailable`): the store did ' +
        'not answer while the key was checked; nothing was counted; retry after `retry_after`. ' +
        'An outage while URLs are judged is reported per URL in a 200.',
      { service_unavailable: STORE_DOWN },
    ),
  };
}

/** The answer to a report of {@link EXAMPLE_URLS}.danger (its id and time are placeholders). */
export const REPORT_RECEIPT_EXAMPLE = {
  id: 'rpt_4kT9bXq2LmN8pR3s',
  status: 'open',
  url: EXAMPLE_URLS.danger,
  kind: 'false_positive',
  verdict: DANGER_VERDICT_EXAMPLE.verdict,
  created_at: '2026-11-27T09:12:44.512Z',
};

/** The body of an error `reportBodyError()` gives for `body` (the route's own answer). */
function reportBodyExample(body: unknown) {
  const error = reportBodyError(body);
  return errorBody(
    error.status,
    error.code,
    error.message,
    error.reason === undefined ? {} : { reason: error.reason },
  );
}

/** The 400 of a report whose kind is neither false_positive nor false_negative. */
export const UNKNOWN_KIND_EXAMPLE = reportBodyExample({ url: EXAMPLE_URLS.danger, kind: 'spam' });
/** The 400 of a report whose comment has 1,001 characters. */
export const COMMENT_TOO_LONG_EXAMPLE = reportBodyExample({
  url: EXAMPLE_URLS.danger,
  kind: 'false_positive',
  comment: 'a'.repeat(1001),
});

/** The 429 of an 11th report within the hour from one address without a credential. */
export const REPORT_BUDGET_EXAMPLE = errorBody(
  429,
  'rate_limited',
  `Too many reports from this address: at most ${String(REPORTS_PER_SOURCE)} per hour`,
  { retry_after: 2917 },
);

/** Every response of `POST /v1/reports`, 202 included. */
export function reportResponses(): Record<number, TSchema> {
  return {
    202: documented(
      ReportReceiptSchema,
      'Accepted — the report is stored, `open` until the operator reviews it; `verdict` is the ' +
        'verdict the URL had when it was filed.',
      {
        filed: {
          summary: `${EXAMPLE_URLS.danger} reported as a false positive`,
          value: REPORT_RECEIPT_EXAMPLE,
        },
      },
    ),
    400: documented(
      err,
      'Bad Request — `missing_url` (no `url`, or null), `invalid_url` (the URL is refused as ' +
        'on /v1/detect; `reason` says why) or `invalid_request`: `reason` `unknown_kind` (`kind` ' +
        'absent or not false_positive / false_negative), `comment_too_long` (over 1,000 ' +
        'characters), `invalid_comment` (not a string, or control characters), ' +
        '`invalid_contact` (not an email address of at most 254 characters); without a reason: ' +
        'not JSON, not an object, unknown fields. Nothing is counted.',
      {
        unknown_kind: { summary: 'kind is "spam"', value: UNKNOWN_KIND_EXAMPLE },
        comment_too_long: {
          summary: 'A comment of 1,001 characters',
          value: COMMENT_TOO_LONG_EXAMPLE,
        },
        invalid_url: { summary: 'A private address', value: INVALID_URL_EXAMPLE },
        missing_url: {
          summary: 'No url field',
          value: errorBody(400, 'missing_url', EXAMPLE_MESSAGES.missingUrl),
        },
      },
    ),
    401: documented(
      err,
      'Unauthorized — `invalid_api_key`: the key or connector access token is unknown, expired ' +
        'or revoked, or the Authorization header is not `Bearer <token>` (reason ' +
        '`malformed_authorization`). Send no Authorization header to report anonymously.',
      { invalid_api_key: INVALID_KEY },
    ),
    ...sharedErrors(),
    429: documented(
      err,
      'Too Many Requests — `rate_limited`: the report budget is spent ' +
        `(${String(REPORTS_PER_SOURCE)} per hour per source address without a credential, ` +
        `${String(REPORTS_PER_CREDENTIAL)} per hour per key or license), or failed ` +
        'authentications from this source (`auth_failures`); `retry_after` and Retry-After in ' +
        'seconds.',
      {
        rate_limited: { summary: 'An 11th report within the hour', value: REPORT_BUDGET_EXAMPLE },
        auth_failures: AUTH_FAILURES,
      },
    ),
    503: documented(
      err,
      'Service Unavailable — `service_unavailable` (reason `store_unavailable`): the store does ' +
        'not answer; the report may not be stored; retry after `retry_after`.',
      { service_unavailable: STORE_DOWN },
    ),
  };
}

/** The OpenAPI status names the reference uses, for the test that every status has one. */
export const STATUS_NAMES: Readonly<Record<number, string>> = Object.freeze({
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
});
