/**
 * The MCP Inspector CLI (pinned dev dependency, 2.12.0) against the app listening on loopback:
 * `tools/list` without credentials and `tools/call` with an enterprise key in a header — a real
 * third-party client speaking streamable HTTP.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { PACKAGE_ROOT } from '../helpers/run-cli.js';
import { sharedEngine } from '../helpers/test-app.js';
import { createTestApp, type TestContext } from '../helpers/test-app.js';

const INSPECTOR = join(PACKAGE_ROOT, 'node_modules', '.bin', 'mcp-inspector');
let ctx: TestContext;
let url: string;
let bearer: string;
let home: string;

beforeAll(async () => {
  ctx = await createTestApp(sharedEngine());
  bearer = (await createEnterpriseKey(ctx.store)).bearer;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  url = `http://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}/mcp`;
  home = mkdtempSync(join(tmpdir(), 'linkguard-inspector-'));
});
afterAll(async () => {
  await ctx.cleanup();
  rmSync(home, { recursive: true, force: true });
});

function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      ['--cli', url, '--format', 'json', ...args],
      {
        // Its own HOME and an in-memory secret store: nothing read from or left on the machine.
        env: { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory', NO_COLOR: '1' },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('MCP Inspector CLI', { timeout: 60_000 }, () => {
  it('tools/list needs no credentials', async () => {
    const run = await inspector(['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as { result: { tools: { name: string }[] } };
    expect(listed.result.tools.map((t) => t.name)).toEqual([
      'check_url',
      'check_urls_batch',
      'official_domain',
      'domain_history',
      'report_url',
    ]);
  });

  it('tools/call check_url with an enterprise key in a header', async () => {
    const run = await inspector([
      '--header',
      `Authorization: ${bearer}`,
      '--method',
      'tools/call',
      '--tool-name',
      'check_url',
      '--tool-args-json',
      JSON.stringify({ url: 'https://paypal-login-verify.top/signin' }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const called = JSON.parse(run.stdout) as {
      result: { isError: boolean; structuredContent: Record<string, unknown> };
    };
    expect(called.result.isError).toBe(false);
    expect(called.result.structuredContent).toMatchObject({
      verdict: 'danger',
      agent_action: 'block',
      brand: 'PayPal',
    });
  });
});
