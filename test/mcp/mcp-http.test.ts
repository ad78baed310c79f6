/**
 * The connector at the HTTP level (README "MCP connector"; the MCP specification's Streamable
 * HTTP transport): what the streamable-HTTP
 * transport refuses, the 401 challenge of an unauthenticated tool call (RFC 9728 / RFC 6750),
 * notifications, batches, GET/DELETE, and the protected-resource metadata.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type TestContext, useTestApp } from '../helpers/test-app.js';

const BASE = 'https://linkguard.example.com';
const start = useTestApp({ env: { PUBLIC_BASE_URL: BASE } });
const ACCEPT = 'application/json, text/event-stream';
const PRM_URL = `${BASE}/.well-known/oauth-protected-resource/mcp`;

function post(
  ctx: TestContext,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const call = (id: number, name: string, args: unknown = { url: 'https://example.com/' }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

const initialize = (protocolVersion: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});

describe('POST /mcp at the HTTP level', () => {
  // MCP lifecycle, version negotiation: the client's version when supported, else the latest.
  it.each([
    ['2025-03-26', '2025-03-26'],
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2024-11-05', '2025-11-25'],
    ['2026-01-01', '2025-11-25'],
    ['not a version', '2025-11-25'],
  ])('initialize asking %s answers %s, with JSON, no session id', async (asked, answered) => {
    const ctx = await start();
    const response = await post(ctx, initialize(asked));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(response.json()).toMatchObject({
      id: 1,
      result: {
        protocolVersion: answered,
        serverInfo: { name: 'linkguard', version: '1.0.0' },
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      },
    });
  });

  it('initialize is negotiated from its body whatever MCP-Protocol-Version header it carries', async () => {
    const ctx = await start();
    const response = await post(ctx, initialize('2025-03-26'), {
      'mcp-protocol-version': '1999-01-01',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
  });

  it.each([undefined, '2025-03-26', '2025-06-18', '2025-11-25'])(
    'a later request with MCP-Protocol-Version %s is served',
    async (version) => {
      const ctx = await start();
      const response = await post(
        ctx,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        version === undefined ? {} : { 'mcp-protocol-version': version },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json<{ result: { tools: unknown[] } }>().result.tools).toHaveLength(5);
    },
  );

  // The SDK alone would accept these two older versions, which the connector does not speak.
  it.each(['2024-11-05', '2024-10-07', '2025-06-18, 2025-06-18', '1999-01-01'])(
    'a later request with MCP-Protocol-Version %s is 400 naming the supported versions',
    async (version) => {
      const ctx = await start();
      const response = await post(
        ctx,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-protocol-version': version },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message:
            'Bad Request: unsupported MCP-Protocol-Version (supported: 2025-11-25, 2025-06-18, 2025-03-26)',
        },
      });
    },
  );

  it('tools/list is public', async () => {
    const ctx = await start();
    const response = await post(ctx, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ result: { tools: unknown[] } }>().result.tools).toHaveLength(5);
  });

  it('a tools/call without a token is 401 with the resource-metadata challenge and a JSON-RPC body', async () => {
    const ctx = await start();
    const response = await post(ctx, call(3, 'check_url'));
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${PRM_URL}"`);
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32001, message: 'Authentication required' },
    });
  });

  it.each([
    ['an unknown key', 'Bearer sk_live_0000000000000000000000000000000000000000000'],
    ['an unknown mcp_at_ token', 'Bearer mcp_at_00000000000000000000000000000000000000000000'],
  ])('%s is 401 invalid_token', async (_what, authorization) => {
    const ctx = await start();
    const response = await post(ctx, call(4, 'check_url'), { authorization });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(
      new RegExp(`^Bearer resource_metadata="${PRM_URL}", error="invalid_token"`),
    );
  });

  it('not a bearer token is 401 invalid_request (RFC 6750 §3.1)', async () => {
    const ctx = await start();
    const response = await post(ctx, call(4, 'check_url'), {
      authorization: 'Basic dXNlcjpwYXNz',
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(
      new RegExp(`^Bearer resource_metadata="${PRM_URL}", error="invalid_request"`),
    );
  });

  it('an unknown tool is -32602 even without a token', async () => {
    const ctx = await start();
    const response = await post(ctx, call(5, 'nope'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: 5,
      error: { code: -32602, message: 'Unknown tool: nope' },
    });
  });

  it('an enterprise key in the header calls a tool', async () => {
    const ctx = await start();
    const key = await createEnterpriseKey(ctx.store);
    const response = await post(ctx, call(6, 'check_url', { url: 'paypal.com' }), {
      authorization: key.bearer,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: 6,
      result: { isError: false, structuredContent: { verdict: 'safe', agent_action: 'proceed' } },
    });
  });

  it('a batch array holding an unauthenticated tools/call is refused whole with 401', async () => {
    const ctx = await start();
    const response = await post(ctx, [
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      call(8, 'check_url'),
    ]);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ id: 8 });
  });

  it('a notification is 202 with no body', async () => {
    const ctx = await start();
    const response = await post(ctx, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe('');
  });

  it('without Accept for both JSON and SSE the transport answers 406', async () => {
    const ctx = await start();
    const response = await post(
      ctx,
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      {
        accept: 'application/json',
      },
    );
    expect(response.statusCode).toBe(406);
  });

  it('a body that is not JSON is refused', async () => {
    const ctx = await start();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'text/plain', accept: ACCEPT },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
  });

  it('an unsupported MCP-Protocol-Version is 400', async () => {
    const ctx = await start();
    const response = await post(
      ctx,
      { jsonrpc: '2.0', id: 10, method: 'tools/list' },
      {
        'mcp-protocol-version': '1999-01-01',
      },
    );
    expect(response.statusCode).toBe(400);
  });

  it.each(['GET', 'DELETE', 'PUT', 'PATCH'] as const)(
    '%s /mcp is 405 with Allow: POST',
    async (method) => {
      const ctx = await start();
      const response = await ctx.app.inject({ method, url: '/mcp' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toMatchObject({ status: 405, error: 'method_not_allowed' });
    },
  );

  // What a client closing its session sends (a JSON content type, an empty body, a session id),
  // and junk bodies: the method is refused before any body is read.
  it.each([
    ['a JSON content type and no body', { 'content-type': 'application/json' }, undefined],
    ['a session id', { 'content-type': 'application/json', 'mcp-session-id': 'abc' }, ''],
    ['a body that is not JSON', { 'content-type': 'application/json' }, '{'],
    ['a text body', { 'content-type': 'text/plain' }, 'bye'],
  ])('DELETE /mcp with %s is 405 with Allow: POST', async (_what, headers, payload) => {
    const ctx = await start();
    const response = await ctx.app.inject({ method: 'DELETE', url: '/mcp', headers, payload });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.json()).toMatchObject({ status: 405, error: 'method_not_allowed' });
  });

  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    '%s names the resource exactly',
    async (url) => {
      const ctx = await start();
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        resource: `${BASE}/mcp`,
        authorization_servers: [BASE],
        bearer_methods_supported: ['header'],
      });
    },
  );
});
