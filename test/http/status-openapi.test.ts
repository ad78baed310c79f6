/**
 * `GET /v1/status` (README "API"), `GET /v1/ready`, the OpenAPI 3.1 document
 * (spec §9) validated against the official schema, and the Swagger UI at /docs.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';

import { startCountingRpc } from '../helpers/counting-rpc.js';
import {
  BASE_RECIPIENT,
  CHAIN_ENV,
  SOLANA_RECIPIENT,
  type TestContext,
  useTestApp,
} from '../helpers/test-app.js';

const startApp = useTestApp({ env: { PUBLIC_BASE_URL: 'https://api.linkguard.example.com' } });

/** An app offering both chains unless `env` says otherwise. */
function start(env: Record<string, string> = { ...CHAIN_ENV }): Promise<TestContext> {
  return startApp({ env });
}

describe('GET /v1/status', () => {
  it('answers ok, version 1.0.0 and the offered chains, without credentials', async () => {
    const { app } = await start();
    const response = await app.inject({ method: 'GET', url: '/v1/status' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      version: '1.0.0',
      chain: 'solana',
      chains: ['solana', 'base'],
    });
  });

  it('reports base as the chain when only Base is configured', async () => {
    const { app } = await start({ BASE_RECIPIENT });
    const response = await app.inject({ method: 'GET', url: '/v1/status' });
    expect(response.json()).toEqual({
      status: 'ok',
      version: '1.0.0',
      chain: 'base',
      chains: ['base'],
    });
  });

  it('reports no chain when no recipient is configured (the 402 then offers none)', async () => {
    const { app } = await start({});
    const response = await app.inject({ method: 'GET', url: '/v1/status' });
    expect(response.json()).toEqual({ status: 'ok', version: '1.0.0', chain: null, chains: [] });
    const challenge = await app.inject({
      method: 'POST',
      url: '/v1/detect',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(challenge.json()).toMatchObject({ payment: null, accepts: [] });
  });
});

describe('GET /v1/ready', () => {
  it('is 200 while the store is up and 503 once it is closed', async () => {
    const { app, store } = await start();
    const up = await app.inject({ method: 'GET', url: '/v1/ready' });
    expect(up.statusCode).toBe(200);
    // The chain RPCs of test apps point at a closed loopback port.
    expect(up.json()).toEqual({
      status: 'ready',
      store: 'ok',
      payments: 'unavailable',
      chains: { solana: 'unavailable', base: 'unavailable' },
    });
    await store.close();
    const down = await app.inject({ method: 'GET', url: '/v1/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'unavailable', store: 'unavailable' });
  });

  it('with both chain RPCs down, says payments unavailable; ?require=payments makes it 503', async () => {
    const { app } = await start();
    const lenient = await app.inject({ method: 'GET', url: '/v1/ready' });
    expect(lenient.statusCode).toBe(200);
    expect(lenient.json()).toMatchObject({ status: 'ready', payments: 'unavailable' });
    const strict = await app.inject({ method: 'GET', url: '/v1/ready?require=payments' });
    expect(strict.statusCode).toBe(503);
    expect(strict.json()).toMatchObject({
      status: 'unavailable',
      store: 'ok',
      payments: 'unavailable',
    });
    const unknown = await app.inject({ method: 'GET', url: '/v1/ready?require=everything' });
    expect(unknown.statusCode).toBe(400);
  });

  it('says payments degraded when one chain answers, and stays ready with require=payments', async () => {
    // A JSON-RPC node answering every method (getSlot included) stands in for a live Solana RPC;
    // Base's RPC answers 500.
    const answering = await startCountingRpc('ethereum');
    const failing = await startCountingRpc('fail');
    try {
      const { app } = await start({
        ...CHAIN_ENV,
        SOLANA_RPC_URL: answering.url,
        BASE_RPC_URL: failing.url,
      });
      const response = await app.inject({ method: 'GET', url: '/v1/ready?require=payments' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'ready',
        store: 'ok',
        payments: 'degraded',
        chains: { solana: 'ok', base: 'unavailable' },
      });
    } finally {
      await answering.close();
      await failing.close();
    }
  });

  it('an enterprise-key-only deployment (no chain offered) is ready with payments off', async () => {
    const { app } = await start({});
    const response = await app.inject({ method: 'GET', url: '/v1/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', store: 'ok', payments: 'off', chains: {} });
    const strict = await app.inject({ method: 'GET', url: '/v1/ready?require=payments' });
    expect(strict.statusCode).toBe(503);
  });

  it('probes each RPC at most once per 5 s, however many checks arrive', async () => {
    const rpc = await startCountingRpc('fail');
    try {
      const { app, clock } = await start({
        ...CHAIN_ENV,
        SOLANA_RPC_URL: rpc.url,
        BASE_RPC_URL: rpc.url,
      });
      const storm = await Promise.all(
        Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/v1/ready' })),
      );
      expect(storm.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      // One probe per chain (viem and kit send one HTTP request each).
      expect(rpc.requests()).toBe(2);
      clock.advance(4_999);
      await app.inject({ method: 'GET', url: '/v1/ready' });
      expect(rpc.requests()).toBe(2);
      clock.advance(1);
      await app.inject({ method: 'GET', url: '/v1/ready' });
      expect(rpc.requests()).toBe(4);
    } finally {
      await rpc.close();
    }
  });

  it(
    'answers within the probe bound when an RPC never answers, whatever CHAIN_RPC_TIMEOUT_MS',
    { timeout: 8_000 },
    async () => {
      const hung = await startCountingRpc('hang');
      try {
        const { app } = await start({
          SOLANA_RECIPIENT,
          SOLANA_RPC_URL: hung.url,
          CHAIN_RPC_TIMEOUT_MS: '30000',
        });
        // The test's own 8 s timeout is the bound: a probe waiting for the RPC budget would take 30 s.
        const response = await app.inject({ method: 'GET', url: '/v1/ready' });
        expect(response.json()).toMatchObject({
          payments: 'unavailable',
          chains: { solana: 'unavailable' },
        });
      } finally {
        await hung.close();
      }
    },
  );
});

interface OpenApiDoc {
  openapi: string;
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationDoc>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
}
interface OperationDoc {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

async function fetchDoc(): Promise<OpenApiDoc> {
  const { app } = await start();
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<OpenApiDoc>();
}

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document that passes the official schema', async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: 'https://api.linkguard.example.com' }]);
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    // On failure the diff prints the validator's errors.
    expect(result.errors ?? []).toEqual([]);
    expect(result).toEqual({ valid: true });
  });

  it('lists both security schemes and uses them on POST /v1/detect', async () => {
    const doc = await fetchDoc();
    const schemes = doc.components.securitySchemes;
    expect(schemes.enterpriseKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.x402).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-PAYMENT' });
    const detect = doc.paths['/v1/detect']?.post;
    expect(detect?.security).toEqual([{ enterpriseKey: [] }, { x402: [] }]);
    expect(detect?.requestBody?.content).toHaveProperty('application/json');
    // The proof headers, both forms, and the x402 v2 payment header; none required.
    const headers = (detect?.parameters ?? []).filter((p) => p.in === 'header');
    expect(headers.map((p) => p.name).sort()).toEqual([
      'payment-signature',
      'x-402-chain',
      'x-402-nonce',
      'x-402-signature',
      'x-402-wallet-sig',
      'x-payment',
    ]);
    expect(headers.some((p) => p.required === true)).toBe(false);
  });

  it('documents every status POST /v1/detect can return, each with a JSON body schema', async () => {
    const doc = await fetchDoc();
    const responses = doc.paths['/v1/detect']?.post?.responses ?? {};
    const expected = ['200', '400', '401', '402', '409', '413', '415', '429', '500', '503'];
    expect(Object.keys(responses).sort()).toEqual(expect.arrayContaining(expected));
    for (const status of expected) {
      const schema = responses[status]?.content?.['application/json']?.schema;
      expect(schema, `response ${status}`).toMatchObject({ type: 'object' });
      expect(schema?.required, `response ${status}`).toEqual(expect.any(Array));
    }
    expect(responses['200']?.content?.['application/json']?.schema?.required).toEqual(
      expect.arrayContaining(['verdict', 'trust_score', 'brand', 'signals', 'details']),
    );
    expect(responses['402']?.content?.['application/json']?.schema?.required).toEqual(
      expect.arrayContaining(['payment', 'x402Version', 'accepts']),
    );
    expect(responses['429']?.content?.['application/json']?.schema?.required).toEqual(
      expect.arrayContaining(['status', 'error', 'message']),
    );
  });

  it('documents the API routes and the connector and OAuth endpoints, but not internal ones', async () => {
    const doc = await fetchDoc();
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/mcp',
      '/mcp',
      '/oauth/authorize',
      '/oauth/register',
      '/oauth/revoke',
      '/oauth/token',
      '/v1/detect',
      '/v1/detect/batch',
      '/v1/ready',
      '/v1/reports',
      '/v1/status',
    ]);
    expect(Object.keys(doc.paths['/v1/detect'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/reports'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/detect/batch'] ?? {})).toEqual(['post']);
  });
});

describe('GET /docs', () => {
  it.each(['/docs', '/docs/'])('%s serves the Swagger UI page', async (url) => {
    const { app } = await start();
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('swagger-ui');
    // Assets are served locally, not from a CDN.
    expect(response.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });

  it('serves the UI bundle itself', async () => {
    const { app } = await start();
    const response = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
  });
});
