/**
 * The connector's `report_url` tool with the official SDK client over streamable HTTP against
 * the app on loopback (the client checks every `structuredContent` against the listed output
 * schema): listed with write annotations; files a report whose source is `connector` with the id
 * of the key, or of the license behind an OAuth access token; arguments outside the schema are
 * -32602 with the explanation `POST /v1/reports` gives; a submission the service refuses and a
 * spent report budget (100 an hour per credential) are `isError` results asking for a human.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import { engineDataDigest } from '../../src/engine-data/load-engine-data.js';
import { REPORTS_PER_CREDENTIAL } from '../../src/ratelimit/rate-limits.js';
import { SERVICE_VERSION } from '../../src/version.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  createPremiumLicense,
  type ListeningApp,
  startListeningApp,
} from '../helpers/oauth-app.js';
import { signIn } from '../helpers/oauth-request.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A connected SDK client sending `bearer` (a key or an access token), tools listed. */
async function connect(app: ListeningApp, bearer: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl), {
    requestInit: { headers: { authorization: bearer } },
  });
  client = new Client({ name: 'linkguard-report-test', version: '1.0.0' });
  await client.connect(transport);
  // The client validates results against the output schemas it has listed.
  await client.listTools();
  return client;
}

const structured = (result: unknown): Record<string, unknown> =>
  (result as CallToolResult).structuredContent ?? {};
const text = (result: unknown): string =>
  ((result as CallToolResult).content as { text: string }[])[0]?.text ?? '';

describe('MCP report_url', { timeout: 30_000 }, () => {
  it('is listed as a tool that writes, with the report fields as its input schema', async () => {
    const app = await startListeningApp(start);
    const key = await createEnterpriseKey(app.ctx.store);
    const { tools } = await (await connect(app, key.bearer)).listTools();
    const tool = tools.find((t) => t.name === 'report_url');
    expect(tool?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(tool?.description).toMatch(/^Use when your human disputes a verdict/);
    expect(tool?.inputSchema.required).toEqual(['url', 'kind']);
    expect(JSON.stringify(tool?.inputSchema.properties?.kind)).toContain('false_negative');
  });

  it('with an enterprise key: a report of source connector with the key id, free', async () => {
    const app = await startListeningApp(start);
    const { store } = app.ctx;
    const key = await createEnterpriseKey(store);
    const mcp = await connect(app, key.bearer);
    const result = await mcp.callTool({
      name: 'report_url',
      arguments: {
        url: 'METAMASK-restore-wallet.com',
        kind: 'false_positive',
        comment: 'My human runs this site: it is their wallet-recovery help page.',
      },
    });
    expect(result.isError).toBe(false);
    const receipt = structured(result);
    expect(receipt).toMatchObject({
      id: expect.stringMatching(/^rpt_[0-9A-Za-z]{16}$/) as string,
      status: 'open',
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      verdict: 'danger',
      created_at: new Date(app.ctx.clock.now()).toISOString(),
    });
    expect(String(receipt.note)).toMatch(/operator reviews every report/);
    const id = String(receipt.id);
    expect(text(result)).toContain(`Report ${id} filed`);
    expect(text(result)).toContain('verdict at filing: danger');

    const stored = await store.reports.findReport(id);
    expect(stored).toMatchObject({
      source: 'connector',
      sourceId: key.id,
      url: 'https://metamask-restore-wallet.com/',
      comment: 'My human runs this site: it is their wallet-recovery help page.',
      contact: null,
      engineVersion: SERVICE_VERSION,
      dataVersion: engineDataDigest(),
    });
    expect(stored?.verdict.verdict).toBe('danger');
    await store.usage.flush();
    expect(await store.usage.usageByMonth(monthOf(app.ctx.clock.now()), key.id)).toEqual([]);
  });

  it('with an access token from the OAuth sign-in: the license id, no check spent', async () => {
    const app = await startListeningApp(start);
    const { store } = app.ctx;
    const license = await createPremiumLicense(store, app.ctx.clock.now());
    const token = await signIn(app.base, license.raw);
    const mcp = await connect(app, `Bearer ${token}`);
    const result = await mcp.callTool({
      name: 'report_url',
      arguments: { url: 'https://docs.github.com/', kind: 'false_negative', contact: null },
    });
    expect(result.isError).toBe(false);
    expect(structured(result)).toMatchObject({ verdict: 'safe', kind: 'false_negative' });
    const stored = await store.reports.findReport(String(structured(result).id));
    expect(stored).toMatchObject({ source: 'connector', sourceId: license.id });
    expect(await store.licenses.licenseUsage(monthOf(app.ctx.clock.now()), license.id)).toEqual([]);
  });

  it('bad input: -32602 for arguments outside the schema, isError for what the service refuses', async () => {
    const app = await startListeningApp(start);
    const key = await createEnterpriseKey(app.ctx.store);
    const mcp = await connect(app, key.bearer);
    const good = { url: 'https://metamask-restore-wallet.com/', kind: 'false_positive' };
    const invalidParams: [Record<string, unknown>, string][] = [
      [{ ...good, kind: 'spam' }, 'kind must be one of false_positive, false_negative'],
      [{ ...good, comment: 'x'.repeat(1001) }, 'comment is longer than 1000 characters'],
      [{ kind: 'false_positive' }, 'The body has no url field'],
      [
        { ...good, email: 'a@b.org' },
        'Unknown field "email"; the body takes only url, kind, comment, contact',
      ],
    ];
    for (const [args, message] of invalidParams) {
      const error = await mcp
        .callTool({ name: 'report_url', arguments: args })
        .catch((e: unknown) => e);
      expect(error, message).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain(
        `Invalid arguments for tool report_url: ${message}`,
      );
    }

    const localhost = await mcp.callTool({
      name: 'report_url',
      arguments: { ...good, url: 'http://localhost/' },
    });
    expect(localhost.isError).toBe(true);
    expect(structured(localhost)).toEqual({
      error: {
        code: 'invalid_url',
        reason: 'special_use_name',
        message: '"localhost" is a special-use name, not a public site.',
      },
      agent_action: 'ask_human',
    });
    expect(text(localhost)).toMatch(/^The report was not filed: .*ask_human/);
    const contact = await mcp.callTool({
      name: 'report_url',
      arguments: { ...good, contact: 'not an address' },
    });
    expect(contact.isError).toBe(true);
    expect(structured(contact)).toMatchObject({
      error: { code: 'invalid_request', reason: 'invalid_contact' },
      agent_action: 'ask_human',
    });
    expect(await app.ctx.store.reports.listReports()).toEqual([]);
  });

  it('the 101st report of an hour with one credential is an isError rate_limited result', async () => {
    const app = await startListeningApp(start);
    const key = await createEnterpriseKey(app.ctx.store);
    const mcp = await connect(app, key.bearer);
    const args = { url: 'https://metamask-restore-wallet.com/', kind: 'false_positive' };
    for (let i = 0; i < REPORTS_PER_CREDENTIAL; i += 1) {
      const filed = await mcp.callTool({ name: 'report_url', arguments: args });
      expect(filed.isError).toBe(false);
    }
    const refused = await mcp.callTool({ name: 'report_url', arguments: args });
    expect(refused.isError).toBe(true);
    const { error } = structured(refused) as {
      error: { code: string; message: string; retry_after: number };
    };
    expect(error.code).toBe('rate_limited');
    expect(error.retry_after).toBeGreaterThan(0);
    expect(error.retry_after).toBeLessThanOrEqual(3600);
    expect(error.message).toBe(
      `Too many reports with this credential: at most 100 per hour. Retry in ${String(error.retry_after)} s.`,
    );
    expect(structured(refused).agent_action).toBe('ask_human');
    expect(await app.ctx.store.reports.listReports()).toHaveLength(REPORTS_PER_CREDENTIAL);
  });
});
