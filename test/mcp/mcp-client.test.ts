/**
 * The connector with a real MCP client: the SDK `Client` over streamable HTTP against the app
 * listening on loopback, authenticated with an enterprise key in the `Authorization` header.
 * The SDK client validates every `structuredContent` against the tool's `outputSchema`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type TestContext, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** App on an ephemeral loopback port, a key, and a connected SDK client (optionally keyless). */
async function connect(withKey = true): Promise<{
  ctx: TestContext;
  client: Client;
  keyId: string;
  transport: StreamableHTTPClientTransport;
}> {
  const ctx = await start();
  const key = await createEnterpriseKey(ctx.store);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://127.0.0.1:${String(port)}/mcp`),
    {
      requestInit: withKey ? { headers: { authorization: key.bearer } } : {},
    },
  );
  client = new Client({ name: 'linkguard-test', version: '1.0.0' });
  await client.connect(transport);
  return { ctx, client, keyId: key.id, transport };
}

const structured = (result: unknown): Record<string, unknown> =>
  (result as CallToolResult).structuredContent ?? {};

describe('MCP connector with the SDK client', { timeout: 20_000 }, () => {
  it("initializes on the SDK's latest version (2025-11-25) with version 1.0.0 and lists five tools with schemas", async () => {
    const { client, transport } = await connect();
    // Negotiated: the client asked for its latest version, which the connector speaks; the client
    // sends it as MCP-Protocol-Version on every later request (listTools below).
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toMatchObject({ name: 'linkguard', version: '1.0.0' });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false },
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'check_url',
      'check_urls_batch',
      'official_domain',
      'domain_history',
      'report_url',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const batch = tools.find((t) => t.name === 'check_urls_batch');
    expect(JSON.stringify(batch?.inputSchema)).toContain('"maxItems":10');
  });

  it('check_url: a lookalike is blocked, a bare official domain proceeds', async () => {
    const { client } = await connect();
    await client.listTools(); // the client validates results against the listed output schemas
    const bad = await client.callTool({
      name: 'check_url',
      arguments: { url: 'https://paypal-login-verify.top/signin' },
    });
    expect(bad.isError).toBe(false);
    expect(structured(bad)).toMatchObject({
      verdict: 'danger',
      agent_action: 'block',
      brand: 'PayPal',
      details: { official_domain: 'paypal.com', domain_age: 'unknown' },
    });
    expect((bad.content as { type: string; text: string }[])[0]?.text).toMatch(/^DANGER \(block\)/);
    const good = await client.callTool({ name: 'check_url', arguments: { url: 'paypal.com' } });
    expect(structured(good)).toMatchObject({ verdict: 'safe', agent_action: 'proceed' });
  });

  it('check_url: a URL the service refuses is an isError result asking for a human', async () => {
    const { client } = await connect();
    await client.listTools(); // the client checks structuredContent against the output schema
    const result = await client.callTool({
      name: 'check_url',
      arguments: { url: 'http://127.0.0.1/admin' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: 'invalid_url',
        reason: 'private_address',
        message: 'URL points at a non-public address (loopback); only public hosts can be checked.',
      },
      agent_action: 'ask_human',
    });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/ask_human/);
  });

  it('check_urls_batch: results in input order, an invalid URL gets its own entry, each URL counts', async () => {
    const { ctx, client, keyId } = await connect();
    await client.listTools();
    const urls = ['https://metamask-restore-wallet.xyz/', 'not a url', 'github.com'];
    const result = await client.callTool({ name: 'check_urls_batch', arguments: { urls } });
    expect(result.isError).toBe(false);
    const results = structured(result).results as Record<string, unknown>[];
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ verdict: 'danger', agent_action: 'block' });
    expect(results[1]).toMatchObject({
      url: 'not a url',
      error: { code: 'invalid_url' },
      agent_action: 'ask_human',
    });
    expect(results[2]).toMatchObject({ verdict: 'safe', agent_action: 'proceed' });
    await ctx.store.usage.flush();
    const usage = await ctx.store.usage.usageByMonth(monthOf(ctx.clock.now()), keyId);
    expect(usage[0]?.requests).toBe(2);
  });

  it('check_urls_batch with 11 URLs is invalid params (-32602)', async () => {
    const { client } = await connect();
    const urls = Array.from({ length: 11 }, (_, i) => `https://example${String(i)}.com/`);
    const error = await client
      .callTool({ name: 'check_urls_batch', arguments: { urls } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it('an unknown tool is -32602 "Unknown tool: <name>", with or without a key', async () => {
    for (const withKey of [true, false]) {
      const { client: c } = await connect(withKey);
      const error = await c.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain('Unknown tool: nope');
      await c.close();
      client = undefined;
    }
  });

  it('official_domain: a known brand and its domains; an unknown one with close matches', async () => {
    const { client } = await connect();
    await client.listTools();
    const known = await client.callTool({
      name: 'official_domain',
      arguments: { brand: 'PayPal' },
    });
    expect(structured(known)).toMatchObject({ found: true, brand: 'PayPal', category: 'payment' });
    expect(structured(known).official_domains).toContain('paypal.com');
    const typo = await client.callTool({
      name: 'official_domain',
      arguments: { brand: 'Paypall' },
    });
    expect(structured(typo)).toMatchObject({ found: false, official_domains: [] });
    expect(JSON.stringify(structured(typo).close_matches)).toContain('PayPal');
  });

  it('domain_history: no record is said not to mean safe; a blocked host gets a record', async () => {
    const { ctx, client } = await connect();
    await client.listTools();
    const empty = await client.callTool({
      name: 'domain_history',
      arguments: { domain: 'quiet-example-site.com' },
    });
    expect(structured(empty)).toMatchObject({ records: 0, worst_verdict: null });
    expect(String(structured(empty).note)).toMatch(/does not mean safe/);
    await client.callTool({
      name: 'check_url',
      arguments: { url: 'https://paypal-login-verify.top/signin' },
    });
    await expect
      .poll(async () => ctx.store.intel.domainHistory('paypal-login-verify.top'))
      .not.toBeNull();
    const recorded = await client.callTool({
      name: 'domain_history',
      arguments: { domain: 'https://paypal-login-verify.top/other' },
    });
    expect(structured(recorded)).toMatchObject({
      domain: 'paypal-login-verify.top',
      records: 1,
      worst_verdict: 'danger',
    });
  });

  it('resources: the agent guide is listed and readable', async () => {
    const { client } = await connect(false);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['linkguard://guide/agent-actions']);
    const read = await client.readResource({ uri: 'linkguard://guide/agent-actions' });
    expect(JSON.stringify(read.contents)).toContain('ask_human');
  });
});
