/**
 * @module http/routes/detect-batch-route
 * `POST /v1/detect/batch` (README, "API"; docs/decisions.md, decisions 184–188): up to 100 URLs
 * for an enterprise key, answered with one result per URL in input order — the verdict
 * `POST /v1/detect` would give it, or the error body `/v1/detect` would answer for it alone.
 * Each URL is counted against the key exactly like a `/v1/detect` request (per-minute budget,
 * month, usage row), in input order; judging runs at most {@link BATCH_CONCURRENCY} URLs at a time.
 * No key, no batch: it cannot be paid per request (401 `api_key_required`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import pLimit from 'p-limit';

import { bearerChallenge } from '../../access/authorization-header.js';
import {
  API_KEY_REQUIRED_MESSAGE,
  BATCH_BODY_LIMIT_BYTES,
  type BatchErrorItem,
  type BatchVerdictItem,
  DetectBatchRequestSchema,
  MAX_BATCH_URLS,
  TOO_MANY_URLS_REASON,
} from '../../api/detect-batch-schemas.js';
import { detectBatchResponses } from '../../api/response-docs.js';
import type { Clock } from '../../clock.js';
import type { ParsedUrl } from '../../engine/url/normalize-url.js';
import { AppError } from '../../errors.js';
import type { RateLimits, RateLimitState } from '../../ratelimit/rate-limits.js';
import { admitKeyRequest } from '../../service/admit-key-request.js';
import type { DetectionService } from '../../service/detection-service.js';
import type { ApiKeyRecord } from '../../store/ports/key-store.js';
import type { Store } from '../../store/ports/store.js';
import { toErrorResponse } from '../error-body.js';
import { requestKey } from '../key-access.js';
import {
  enforceRateLimit,
  rateLimitHeadersOnSend,
  setRateLimitHeaders,
} from '../rate-limit-headers.js';
import type { TypedApp } from '../typed-app.js';

interface DetectBatchDeps {
  store: Store;
  clock: Clock;
  limits: RateLimits;
  service: DetectionService;
}

/**
 * URLs of one batch judged at the same time (docs/decisions.md, decision 188): half the
 * process's default page-fetch slots (`PAGE_FETCH_CONCURRENCY`, 32), so two batches cannot take
 * every slot; a batch of 100 URLs whose pages all take the whole default 4 s page budget answers
 * within 7 rounds, about 28 s.
 */
export const BATCH_CONCURRENCY = 16;

const JSON_TYPE = 'application/json; charset=utf-8';

type BatchItem = BatchVerdictItem | BatchErrorItem;

export function registerDetectBatchRoute(app: TypedApp, deps: DetectBatchDeps): void {
  app.post(
    '/v1/detect/batch',
    {
      schema: {
        summary: `Verdicts for up to ${String(MAX_BATCH_URLS)} URLs (enterprise keys)`,
        description:
          `Judges 1–${String(MAX_BATCH_URLS)} URLs in one request and answers one result per URL ` +
          'in input order: the verdict POST /v1/detect would give it (with `url`), or the error ' +
          'body /v1/detect would answer for it alone (with `url` and `error`), so one refused URL ' +
          "never costs the others their verdicts. Each URL counts against the key's per-minute " +
          'rate limit, monthly allowance and usage log exactly like one /v1/detect request, in ' +
          'input order: when the budget or a hard monthly cap runs out in the middle, the URLs ' +
          'after it get a 429 rate_limited entry (with retry_after) and the ones before keep their ' +
          'verdicts. URLs that /v1/detect would refuse cost nothing. Enterprise keys only: ' +
          'without a key the answer is 401 api_key_required (this route cannot be paid per ' +
          `request). Body at most ${String(BATCH_BODY_LIMIT_BYTES / 1024)} KiB. The rate-limit ` +
          "header fields report the key's budget after the last URL counted.",
        tags: ['detect'],
        body: DetectBatchRequestSchema,
        security: [{ enterpriseKey: [] }],
        response: detectBatchResponses(),
      },
      bodyLimit: BATCH_BODY_LIMIT_BYTES,
      // Body errors are mapped here, with the batch's own field names (not /v1/detect's `url`).
      attachValidation: true,
      onSend: rateLimitHeadersOnSend(deps.limits),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (request.validationError !== undefined) {
        throw batchBodyError(request.validationError, request.body);
      }
      const key = await requestKey(deps, request, reply);
      if (key === null) {
        // Like a /v1/detect request without a key, it spends the source's public budget.
        enforceRateLimit(reply, await deps.limits.consumePublic(request.ip));
        // RFC 6750 §3.1: no credentials, so a challenge without an error code.
        reply.header('www-authenticate', bearerChallenge(null, ''));
        throw new AppError('api_key_required', API_KEY_REQUIRED_MESSAGE);
      }
      const results = await judgeBatch(deps, request, reply, key, request.body.urls);
      const judged = results.filter((item) => !('error' in item)).length;
      request.log.info(
        { batch: { urls: results.length, verdicts: judged, errors: results.length - judged } },
        'batch judged',
      );
      return (reply as FastifyReply).type(JSON_TYPE).send(JSON.stringify({ results }));
    },
  );

  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ status: 405, error: 'method_not_allowed', message: 'Use POST /v1/detect/batch' });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/detect/batch',
    handler: methodNotAllowed,
    schema: { hide: true },
  });
}

/**
 * Judge every URL of a batch for `key`. URLs are parsed and counted one by one in input order
 * (`admitKeyRequest`, as `/v1/detect` counts its URL), so which URLs a spent budget refuses does
 * not depend on timing; the admitted ones are judged {@link BATCH_CONCURRENCY} at a time.
 *
 * @returns one item per input, in input order; never throws for one URL's failure (an unexpected
 *   one is logged, without the URL, and becomes that item's 500 `internal_error`).
 */
async function judgeBatch(
  deps: DetectBatchDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  key: ApiKeyRecord,
  inputs: readonly string[],
): Promise<BatchItem[]> {
  const slots = pLimit(BATCH_CONCURRENCY);
  const errorItem = (input: string, error: unknown): BatchErrorItem => {
    const { response, unexpected } = toErrorResponse(error, undefined);
    // The error only: a submitted URL is never logged (README, "Limitations and security considerations").
    if (unexpected) request.log.error({ err: error }, 'batch item failed');
    return { url: input, error: response.body };
  };
  const pending: Promise<BatchItem>[] = [];
  let last: RateLimitState | null = null;
  for (const input of inputs) {
    let url: ParsedUrl;
    try {
      url = deps.service.parse(input);
    } catch (error) {
      pending.push(Promise.resolve(errorItem(input, error)));
      continue;
    }
    try {
      const admitted = await admitKeyRequest(deps, key);
      last = admitted.limit;
      if (!admitted.ok) {
        pending.push(Promise.resolve(errorItem(input, admitted.error)));
        continue;
      }
      const { admission } = admitted;
      pending.push(
        slots(() => deps.service.judgeAdmitted(admission, url)).then(
          (verdict): BatchItem => ({ url: input, ...verdict }),
          (error: unknown) => errorItem(input, error),
        ),
      );
    } catch (error) {
      pending.push(Promise.resolve(errorItem(input, error)));
    }
  }
  // The key's budget after the last URL counted; none counted: the onSend hook reports the
  // source's public budget, as for a 400.
  if (last !== null) setRateLimitHeaders(reply, last);
  return Promise.all(pending);
}

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * The 400 for a batch body that breaks {@link DetectBatchRequestSchema}, in the codes of
 * `/v1/detect` (README, "API"): no URL at all (`urls` absent, null or empty) is `missing_url`;
 * more than {@link MAX_BATCH_URLS} is `invalid_request` with reason `too_many_urls`; anything
 * else the schema refuses (not an object, `urls` not an array, an entry that is not a string, an
 * unknown field) is `invalid_request`.
 */
function batchBodyError(error: { validation?: ValidationIssue[] }, body: unknown): AppError {
  const issue = error.validation?.[0] ?? {};
  const urls =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).urls
      : undefined;
  const path = issue.instancePath ?? '';
  if (issue.keyword === 'required' && issue.params?.missingProperty === 'urls') {
    return new AppError('missing_url', 'The body has no urls field');
  }
  if (path === '/urls') {
    if (urls === null) return new AppError('missing_url', 'The body has no urls (urls is null)');
    if (issue.keyword === 'minItems') return new AppError('missing_url', 'urls is empty');
    if (issue.keyword === 'maxItems') {
      const count = Array.isArray(urls) ? urls.length : 0;
      return new AppError(
        'invalid_request',
        `At most ${String(MAX_BATCH_URLS)} URLs per request; this one has ${String(count)}`,
        { reason: TOO_MANY_URLS_REASON },
      );
    }
    return new AppError('invalid_request', 'urls must be an array of URL strings');
  }
  const item = /^\/urls\/(\d+)$/.exec(path);
  if (item !== null) {
    return new AppError('invalid_request', `urls[${item[1] ?? ''}] must be a string`);
  }
  if (issue.keyword === 'additionalProperties') {
    const extra = issue.params?.additionalProperty;
    const name = typeof extra === 'string' ? extra : '';
    return new AppError(
      'invalid_request',
      `Unknown field "${name.slice(0, 40)}"; the body takes only "urls"`,
    );
  }
  if (path === '' && issue.keyword === 'type') {
    return new AppError('invalid_request', 'The body must be a JSON object');
  }
  return new AppError('invalid_request', 'The request body does not match the schema');
}
