/**
 * @module api/detect-batch-schemas
 * Body and answer of `POST /v1/detect/batch` (README, "API"): up to {@link MAX_BATCH_URLS} URLs
 * for an enterprise key; one result per URL in input order — the verdict `POST /v1/detect` would
 * give, or the error body it would answer (docs/decisions.md, decisions 184–188).
 */
import Type, { type Static } from 'typebox';

import { MAX_URL_LENGTH } from '../engine/url/normalize-url.js';
import { ErrorBodySchema } from './error-schemas.js';
import { VerdictSchema } from './verdict-schema.js';

/** Most URLs one batch may hold; more is 400 `invalid_request`, reason `too_many_urls`. */
export const MAX_BATCH_URLS = 100;

/** `reason` of the 400 for a batch of more than {@link MAX_BATCH_URLS} URLs. */
export const TOO_MANY_URLS_REASON = 'too_many_urls';

/**
 * Largest batch body, bytes: {@link MAX_BATCH_URLS} URLs of {@link MAX_URL_LENGTH} ASCII
 * characters with their quotes and commas take 205,013 bytes; 256 KiB leaves room for escapes
 * (docs/decisions.md, decision 187). More is 413 `payload_too_large`.
 */
export const BATCH_BODY_LIMIT_BYTES = 256 * 1024;

/** The 401 message of a batch without a key (docs/decisions.md, decision 186). */
export const API_KEY_REQUIRED_MESSAGE =
  'POST /v1/detect/batch takes an enterprise key (Authorization: Bearer sk_live_…); without ' +
  'one, send each URL to POST /v1/detect and pay per request';

export const DetectBatchRequestSchema = Type.Object(
  {
    urls: Type.Array(
      Type.String({
        description:
          'An http(s) URL or a bare host, as for POST /v1/detect. A URL that /v1/detect would ' +
          `refuse (longer than ${String(MAX_URL_LENGTH)} characters, private or special-use host, …) ` +
          'gets its own error entry; the others are still judged.',
      }),
      {
        minItems: 1,
        maxItems: MAX_BATCH_URLS,
        description: `1 to ${String(MAX_BATCH_URLS)} URLs. Each one is judged and counted, a repeated URL too.`,
      },
    ),
  },
  {
    additionalProperties: false,
    $id: 'DetectBatchRequest',
    examples: [
      {
        urls: [
          'https://www.paypal.com/',
          'https://metamask-restore-wallet.com/',
          'http://10.0.0.1/',
        ],
      },
    ],
  },
);

/** A judged URL: the URL as sent, then the fields of the `/v1/detect` verdict. */
export const BatchVerdictItemSchema = Type.Object(
  {
    url: Type.String({ description: 'The URL exactly as sent in `urls`' }),
    ...VerdictSchema.properties,
  },
  {
    additionalProperties: false,
    description: 'A verdict: the body POST /v1/detect answers 200 for this URL, plus `url`.',
  },
);

/** A URL that got no verdict: the URL as sent and the error body `/v1/detect` would answer. */
export const BatchErrorItemSchema = Type.Object(
  {
    url: Type.String({ description: 'The URL exactly as sent in `urls`' }),
    error: Type.Object(ErrorBodySchema.properties, {
      description:
        'The error body of POST /v1/detect: {status, error, message, reason?, retry_after?}',
    }),
  },
  {
    additionalProperties: false,
    description:
      'No verdict: `error` is the body POST /v1/detect would answer for this URL alone — ' +
      '400 missing_url / invalid_url (with `reason`), 429 rate_limited (per-minute budget, or ' +
      '`reason` monthly_allowance for a hard monthly cap; with `retry_after`), 503 ' +
      'service_unavailable (the store), 500 internal_error.',
  },
);

export const DetectBatchResponseSchema = Type.Object(
  {
    results: Type.Array(Type.Union([BatchVerdictItemSchema, BatchErrorItemSchema]), {
      description: 'One entry per URL of the request, in the same order.',
    }),
  },
  { additionalProperties: false, $id: 'DetectBatchResult' },
);

export type BatchVerdictItem = Static<typeof BatchVerdictItemSchema>;
export type BatchErrorItem = Static<typeof BatchErrorItemSchema>;
export type DetectBatchResponse = Static<typeof DetectBatchResponseSchema>;
