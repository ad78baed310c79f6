/**
 * The connector's servers are built once and lent to one request at a time, and a single JSON-RPC
 * request goes straight to a server (docs/decisions.md, decisions 171–173): callers running at
 * the same time, with the same JSON-RPC ids, each get the answer to their own request under their
 * own grant, and the direct path answers exactly what the SDK's transport answers.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type TestContext, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
const ACCEPT = 'application/json, text/event-stream';

function post(
  ctx: TestContext,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    payload: JSON.stringify(body),
  });
}

const call = (id: number | string, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

interface ToolAnswer {
  id: unknown;
  result?: { isError: boolean; structuredContent: { url?: string; error?: { code: string } } };
  error?: { code: number; message: string };
}

describe('shared connector servers', () => {
  it('concurrent callers with the same ids each get their own answer under their own grant', async () => {
    const ctx = await start();
    const open = await createEnterpriseKey(ctx.store);
    // A hard cap of 0: every check of this key is refused, so a grant taken from the other
    // caller would show as a success here, or a refusal there.
    const capped = await createEnterpriseKey(ctx.store, { monthlyAllowance: 0, hardCap: true });
    const calls = Array.from({ length: 24 }, (_, i) => {
      const mine = i % 2 === 0 ? open : capped;
      const url = `https://shop-${String(i)}.example.com/`;
      return {
        mine,
        url,
        answer: post(ctx, call(1, 'check_url', { url }), { authorization: mine.bearer }),
      };
    });
    for (const { mine, url, answer } of calls) {
      const response = await answer;
      expect(response.statusCode).toBe(200);
      const body = response.json<ToolAnswer>();
      expect(body.id).toBe(1);
      if (mine === open) {
        expect(body.result?.isError).toBe(false);
        expect(body.result?.structuredContent.url).toBe(url);
      } else {
        expect(body.result?.isError).toBe(true);
        expect(body.result?.structuredContent.error?.code).toBe('rate_limited');
      }
    }
    await ctx.store.usage.flush();
    const month = new Date(ctx.clock.now()).toISOString().slice(0, 7);
    const usage = await ctx.store.usage.usageByMonth(month, null);
    // Only the open key's twelve checks were judged and logged.
    expect(usage.map((row) => [row.keyId, row.requests])).toEqual([[open.id, 12]]);
  });

  it.each([
    ['tools/list', { jsonrpc: '2.0', id: 'a', method: 'tools/list' }],
    ['an unknown method', { jsonrpc: '2.0', id: 2, method: 'prompts/list' }],
    ['ping', { jsonrpc: '2.0', id: 3, method: 'ping' }],
    ['a tools/call without a name', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} }],
    ['an unknown tool', call(5, 'nope', {})],
    [
      'a resource read',
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'resources/read',
        params: { uri: 'linkguard://guide/agent-actions' },
      },
    ],
  ])('%s: the direct path answers what the SDK transport answers', async (_name, message) => {
    const ctx = await start();
    const direct = await post(ctx, message);
    // A batch of one takes the SDK's streamable HTTP transport, which answers it with the one
    // response (not an array), like a single request.
    const viaSdk = await post(ctx, [message]);
    expect(direct.statusCode).toBe(200);
    expect(viaSdk.statusCode).toBe(200);
    expect(direct.headers['content-type']).toMatch(/^application\/json/);
    expect(direct.json()).toEqual(viaSdk.json());
  });

  it('a tool call with a key answers the same on both paths', async () => {
    const ctx = await start();
    const key = await createEnterpriseKey(ctx.store);
    const message = call(9, 'check_url', { url: 'paypal.com' });
    const direct = await post(ctx, message, { authorization: key.bearer });
    const viaSdk = await post(ctx, [message], { authorization: key.bearer });
    expect(direct.json()).toEqual(viaSdk.json());
    expect(direct.json()).toMatchObject({ result: { structuredContent: { verdict: 'safe' } } });
  });

  it('both paths carry the headers of the app (CORS, request id)', async () => {
    const ctx = await start();
    const origin = { origin: 'https://agent.example.org' };
    const direct = await post(ctx, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin);
    const initialize = await post(
      ctx,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      },
      origin,
    );
    for (const response of [direct, initialize]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('the SDK transport still refuses what it refuses, for single requests too', async () => {
    const ctx = await start();
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const noSse = await post(ctx, message, { accept: 'application/json' });
    expect(noSse.statusCode).toBe(406);
    const notRpc = await post(ctx, { jsonrpc: '1.0', id: 1, method: 'tools/list' });
    expect(notRpc.statusCode).toBe(400);
    expect(notRpc.json()).toMatchObject({ error: { code: -32700 } });
  });
});
