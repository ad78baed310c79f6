/**
 * The API reference (`/v1/openapi.json`, shown at `/docs`) says what the service does: its
 * verdict examples are what the engine answers today for the example URLs (so they cannot drift),
 * every other example is the service's real answer where a test can provoke it, every example
 * validates against the schema it illustrates, every response is named by its status, every
 * error response of the API lists its documented codes, and the TypeBox descriptions of bodies and parameters reach the
 * document.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';

import { MAX_BATCH_URLS } from '../../src/api/detect-batch-schemas.js';
import { EXAMPLE_URLS } from '../../src/api/example-urls.js';
import {
  BATCH_RESULT_EXAMPLE,
  COMMENT_TOO_LONG_EXAMPLE,
  EXAMPLE_MESSAGES,
  INVALID_URL_EXAMPLE,
  KEY_REQUIRED_EXAMPLE,
  REPORT_BUDGET_EXAMPLE,
  REPORT_RECEIPT_EXAMPLE,
  STATUS_NAMES,
  TOO_MANY_URLS_EXAMPLE,
  UNKNOWN_KIND_EXAMPLE,
} from '../../src/api/response-docs.js';
import { DANGER_VERDICT_EXAMPLE, SAFE_VERDICT_EXAMPLE } from '../../src/api/verdict-examples.js';
import { type ErrorCode, STATUS_BY_CODE } from '../../src/errors.js';
import { REPORTS_PER_SOURCE } from '../../src/ratelimit/rate-limits.js';
import { detect, detectRaw, detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type TestContext, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  tags?: string[];
  summary?: string;
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface OpenApiDoc {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

async function openApi(context: TestContext): Promise<OpenApiDoc> {
  const response = await context.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(response.statusCode).toBe(200);
  return response.json<OpenApiDoc>();
}

function operation(doc: OpenApiDoc, path: string): Operation {
  const found = doc.paths[path]?.post;
  if (found === undefined) throw new Error(`no POST ${path} in the document`);
  return found;
}

const DETECT_ROUTES = ['/v1/detect', '/v1/detect/batch'] as const;
const API_ROUTES = [...DETECT_ROUTES, '/v1/reports'] as const;

/** Every operation of the document with its path. */
function operations(doc: OpenApiDoc): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.values(item).map((op): [string, Operation] => [path, op]),
  );
}

function batch(
  context: TestContext,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return context.app.inject({
    method: 'POST',
    url: '/v1/detect/batch',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}

describe('verdict examples are real engine answers', () => {
  it('the safe and danger examples are what /v1/detect answers for their URLs today', async () => {
    const context = await start();
    const key = await createEnterpriseKey(context.store);
    const safe = await detectWithKey(context.app, EXAMPLE_URLS.safe, key.bearer);
    const danger = await detectWithKey(context.app, EXAMPLE_URLS.danger, key.bearer);
    // On failure: run `npx tsx scripts/update-api-examples.ts` and review the new examples.
    expect(jsonBody(safe)).toEqual(SAFE_VERDICT_EXAMPLE);
    expect(jsonBody(danger)).toEqual(DANGER_VERDICT_EXAMPLE);
  });

  it('the safe example is not a page of true signals, the danger example names its brand', () => {
    expect(SAFE_VERDICT_EXAMPLE.verdict).toBe('safe');
    const raised = Object.values(SAFE_VERDICT_EXAMPLE.signals).filter((value) => value === true);
    expect(raised).toEqual([]);
    expect(SAFE_VERDICT_EXAMPLE.threat_types).toEqual([]);
    expect(DANGER_VERDICT_EXAMPLE.verdict).toBe('danger');
    expect(DANGER_VERDICT_EXAMPLE.brand).not.toBeNull();
    expect(DANGER_VERDICT_EXAMPLE.signals.brand_impersonation).toBe(true);
    expect(DANGER_VERDICT_EXAMPLE.trust_score).toBeLessThan(20);
  });

  it('the batch example is what /v1/detect/batch answers for the three example URLs', async () => {
    const context = await start();
    const key = await createEnterpriseKey(context.store);
    const response = await batch(
      context,
      { urls: [EXAMPLE_URLS.safe, EXAMPLE_URLS.danger, EXAMPLE_URLS.refused] },
      { authorization: key.bearer },
    );
    expect(response.json()).toEqual(BATCH_RESULT_EXAMPLE);
  });
});

describe('error examples are real answers', () => {
  it('400, 401 and 413/415 examples match what the service answers (the readiness 400 too)', async () => {
    const context = await start();
    const { app } = context;
    const key = await createEnterpriseKey(context.store);
    expect(jsonBody(await detect(app, { url: EXAMPLE_URLS.refused }))).toEqual(INVALID_URL_EXAMPLE);
    expect(jsonBody(await detect(app, {}))).toMatchObject({
      error: 'missing_url',
      message: EXAMPLE_MESSAGES.missingUrl,
    });
    const wrongKey = `Bearer sk_live_${'B'.repeat(43)}`;
    expect(jsonBody(await detectWithKey(app, EXAMPLE_URLS.safe, wrongKey))).toMatchObject({
      error: 'invalid_api_key',
      message: EXAMPLE_MESSAGES.invalidKey,
    });
    expect(jsonBody(await detectRaw(app, 'https://a.org/', 'text/plain'))).toMatchObject({
      error: 'unsupported_media_type',
      message: EXAMPLE_MESSAGES.mediaType,
    });
    expect(
      jsonBody(
        await detectRaw(app, JSON.stringify({ url: `https://a.org/${'a'.repeat(20_000)}` })),
      ),
    ).toMatchObject({ error: 'payload_too_large', message: EXAMPLE_MESSAGES.tooLarge });
    const urls = Array.from({ length: MAX_BATCH_URLS + 1 }, () => EXAMPLE_URLS.safe);
    expect(jsonBody(await batch(context, { urls }, { authorization: key.bearer }))).toEqual(
      TOO_MANY_URLS_EXAMPLE,
    );
    expect(jsonBody(await batch(context, { urls: [EXAMPLE_URLS.safe] }))).toEqual(
      KEY_REQUIRED_EXAMPLE,
    );
    const ready = await app.inject({ method: 'GET', url: '/v1/ready?require=everything' });
    const doc = await openApi(context);
    const readyExample =
      doc.paths['/v1/ready']?.get?.responses['400']?.content?.['application/json']?.examples
        ?.invalid_request?.value;
    expect(jsonBody(ready)).toEqual(readyExample);
  });

  it('the 429 examples carry the messages of the per-minute budget and the monthly cap', async () => {
    const context = await start();
    const { app } = context;
    const fast = await createEnterpriseKey(context.store, { rateLimitPerMinute: 1 });
    await detectWithKey(app, EXAMPLE_URLS.safe, fast.bearer);
    expect(jsonBody(await detectWithKey(app, EXAMPLE_URLS.safe, fast.bearer))).toMatchObject({
      error: 'rate_limited',
      message: EXAMPLE_MESSAGES.rateLimited,
    });
    const capped = await createEnterpriseKey(context.store, { monthlyAllowance: 0, hardCap: true });
    expect(jsonBody(await detectWithKey(app, EXAMPLE_URLS.safe, capped.bearer))).toMatchObject({
      error: 'rate_limited',
      reason: 'monthly_allowance',
      message: EXAMPLE_MESSAGES.monthly,
    });
  });
});

describe('report examples are real answers', () => {
  function fileReport(context: TestContext, body: unknown): Promise<LightMyRequestResponse> {
    return context.app.inject({
      method: 'POST',
      url: '/v1/reports',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  }

  it('the 202, 400 and 429 examples of POST /v1/reports are what it answers', async () => {
    const context = await start();
    const { url, kind } = REPORT_RECEIPT_EXAMPLE;
    const filed = await fileReport(context, { url, kind });
    expect(filed.statusCode).toBe(202);
    // The id and the time are the report's own; the rest is the example's.
    expect({ ...jsonBody(filed), id: 'x', created_at: 'x' }).toEqual({
      ...REPORT_RECEIPT_EXAMPLE,
      id: 'x',
      created_at: 'x',
    });
    expect(jsonBody(await fileReport(context, { url, kind: 'spam' }))).toEqual(
      UNKNOWN_KIND_EXAMPLE,
    );
    const comment = 'a'.repeat(1001);
    expect(jsonBody(await fileReport(context, { url, kind, comment }))).toEqual(
      COMMENT_TOO_LONG_EXAMPLE,
    );
    expect(jsonBody(await fileReport(context, { url: EXAMPLE_URLS.refused, kind }))).toEqual(
      INVALID_URL_EXAMPLE,
    );
    for (let i = 1; i < REPORTS_PER_SOURCE; i += 1) await fileReport(context, { url, kind });
    const refused = jsonBody(await fileReport(context, { url, kind }));
    expect({ ...refused, retry_after: 0 }).toEqual({ ...REPORT_BUDGET_EXAMPLE, retry_after: 0 });
  });
});

describe('the document', () => {
  it('every example in the document validates against the schema it illustrates', async () => {
    const doc = await openApi(await start());
    let checked = 0;
    for (const [path, op] of operations(doc)) {
      const media = [
        ...Object.values(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((response) => Object.values(response.content ?? {})),
      ];
      for (const { schema, example, examples } of media) {
        const values = [
          ...(example === undefined ? [] : [example]),
          ...Object.values(examples ?? {}).map((e) => e.value),
        ];
        const check = Compile(schema as never);
        for (const value of values) {
          expect(check.Check(value), `${path}: ${JSON.stringify(value).slice(0, 120)}`).toBe(true);
          checked += 1;
        }
      }
    }
    // Two verdicts, the batch, the request bodies, status and readiness, one or more per error.
    expect(checked).toBeGreaterThanOrEqual(25);
  });

  it('every response in the document is named by its status', async () => {
    const doc = await openApi(await start());
    for (const [path, op] of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const name = STATUS_NAMES[Number(status)];
        expect(name, `${path} ${status}`).toBeDefined();
        expect(response.description, `${path} ${status}`).toMatch(new RegExp(`^${name ?? ''} — `));
      }
    }
  });

  it('every error response of the API lists its codes, with an example of each', async () => {
    const doc = await openApi(await start());
    for (const path of [...API_ROUTES, '/v1/ready']) {
      const op = doc.paths[path]?.post ?? doc.paths[path]?.get;
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        if (Number(status) < 400 || (path === '/v1/ready' && status === '503')) continue;
        const media = response.content?.['application/json'];
        const examples = Object.values(media?.examples ?? {});
        expect(examples.length, `${path} ${status} has examples`).toBeGreaterThan(0);
        // Each example's code is one the description names and one documented for the status.
        for (const { value } of examples) {
          const code = (value as { error: string }).error;
          expect(STATUS_BY_CODE[code as ErrorCode], `${path} ${status} ${code}`).toBe(
            Number(status),
          );
          expect(response.description, `${path} ${status}`).toContain(`\`${code}\``);
        }
        // And every code the description names is a documented code of that status.
        for (const [, code] of response.description.matchAll(/`([a-z_]+)`/g)) {
          if (code === undefined || !(code in STATUS_BY_CODE)) continue;
          expect(STATUS_BY_CODE[code as ErrorCode], `${path} ${status} names ${code}`).toBe(
            Number(status),
          );
        }
      }
    }
  });

  it('the descriptions of bodies and parameters reach the document', async () => {
    const doc = await openApi(await start());
    const detectBody = operation(doc, '/v1/detect').requestBody?.content['application/json']
      ?.schema as { properties: Record<string, { description?: string }> };
    expect(detectBody.properties.url?.description).toMatch(/bare host/);
    const batchBody = operation(doc, '/v1/detect/batch').requestBody?.content['application/json']
      ?.schema as {
      properties: Record<string, { description?: string; items?: { description?: string } }>;
    };
    expect(batchBody.properties.urls?.description).toMatch(/1 to 100 URLs/);
    expect(batchBody.properties.urls?.items?.description).toMatch(/own error entry/);
    const proofHeaders = operation(doc, '/v1/detect').parameters ?? [];
    expect(proofHeaders.length).toBeGreaterThan(0);
    for (const parameter of proofHeaders) expect(parameter.description).toBeTruthy();
    const ready = doc.paths['/v1/ready']?.get?.parameters ?? [];
    expect(ready.find((p) => p.name === 'require')?.description).toBeTruthy();
    const reportBody = operation(doc, '/v1/reports').requestBody?.content['application/json']
      ?.schema as { properties: Record<string, { description?: string }> };
    for (const field of ['url', 'kind', 'comment', 'contact']) {
      expect(reportBody.properties[field]?.description, field).toBeTruthy();
    }
  });

  it('describes the connector and its OAuth endpoints under their own tags', async () => {
    const doc = await openApi(await start());
    expect(doc.tags.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(['detect', 'reports', 'status', 'connector', 'oauth']),
    );
    expect(doc.paths['/v1/reports']?.post?.tags).toEqual(['reports']);
    expect(doc.paths['/mcp']?.post?.tags).toEqual(['connector']);
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke']) {
      expect(doc.paths[path]?.post?.tags, path).toEqual(['oauth']);
    }
    expect(doc.paths['/oauth/authorize']?.get?.summary).toMatch(/sign-in page/);
    expect(doc.paths['/.well-known/oauth-protected-resource/mcp']?.get?.summary).toMatch(
      /RFC 9728/,
    );
  });
});
