/**
 * The MCP Inspector CLI (pinned dev dependency, 2.12.0) doing the connector's whole OAuth flow by
 * itself (guides/mcp.md §7.4): `tools/call` gets a 401, the Inspector discovers the metadata
 * (RFC 9728, RFC 8414), registers (RFC 7591), listens for the callback on loopback and opens the
 * authorization URL (PKCE S256, `state`, `resource`) in "the browser". `MCP_AUTO_OPEN_ENABLED=true`
 * lets it open one without a TTY; its `open` runs xdg-open, which runs `$BROWSER`: here
 * test/tools/fake-browser.sh, which types the credential from `LINKGUARD_TEST_CREDENTIAL` on the
 * page and follows the redirect to the Inspector's listener. The Inspector then exchanges the code
 * and retries the call.
 *
 * Proves: a third-party client signs in with a Premium license and gets the danger verdict, the
 * check being charged to the license; with an invalid credential the page is re-rendered (400)
 * instead of redirecting, and the Inspector does not succeed (it waits for a callback that never
 * comes, so it is stopped once the fake browser has reported, or at a timeout).
 *
 * Each run has its own HOME (the Inspector keeps DCR clients under ~/.mcp-inspector), an
 * in-memory secret store, its own callback port (no collision on the default 6276), and no
 * desktop session variables, so xdg-open uses `$BROWSER` and never a real browser. Linux only:
 * elsewhere `open` does not go through xdg-open.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import {
  createPremiumLicense,
  freePort,
  type ListeningApp,
  startListeningApp,
} from '../helpers/oauth-app.js';
import { PACKAGE_ROOT } from '../helpers/run-cli.js';
import { useTestApp } from '../helpers/test-app.js';
import type { FakeBrowserVisit } from '../tools/fake-browser.js';

const INSPECTOR = join(PACKAGE_ROOT, 'node_modules', '.bin', 'mcp-inspector');
const FAKE_BROWSER = join(PACKAGE_ROOT, 'test', 'tools', 'fake-browser.sh');
const PHISH = 'https://paypal-login-verify.top/signin';
/** Longest an Inspector run may take before it is stopped. */
const INSPECTOR_TIMEOUT_MS = 30_000;

/** Variables by which xdg-open would pick a desktop's opener (and a real browser) over $BROWSER. */
const DESKTOP_VARIABLES = [
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_CURRENT_DESKTOP',
  'XDG_SESSION_DESKTOP',
  'DESKTOP_SESSION',
  'KDE_FULL_SESSION',
  'GNOME_DESKTOP_SESSION_ID',
  'MATE_DESKTOP_SESSION_ID',
  'LXQT_SESSION_CONFIG',
  'DBUS_SESSION_BUS_ADDRESS',
  'DESKTOP',
  // The Inspector's own defaults, which must not leak in from the developer's shell.
  'MCP_OAUTH_CALLBACK_URL',
  'MCP_CATALOG_PATH',
  'MCP_CLIENT_CONFIG_PATH',
];

const onWsl = (): boolean => {
  try {
    return /microsoft/i.test(readFileSync('/proc/version', 'utf8'));
  } catch {
    return false;
  }
};

const start = useTestApp();
let home: string;

beforeAll(() => {
  // xdg-open splits $BROWSER on ':' and then on white space, and runs it as a command.
  expect(FAKE_BROWSER, 'the package path must not contain white space or ":"').toMatch(/^[^\s:]+$/);
  try {
    accessSync(FAKE_BROWSER, constants.X_OK);
  } catch {
    throw new Error(`${FAKE_BROWSER} must be executable (git mode 100755)`);
  }
});
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'linkguard-inspector-oauth-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

interface InspectorRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why the test ended the run, or null when the Inspector exited by itself. */
  stoppedBy: 'timeout' | 'test' | null;
  /** The callback listener URL given to the Inspector. */
  callbackUrl: string;
  /** What the fake browser saw, one entry per visit. */
  visits: () => FakeBrowserVisit[];
}

/**
 * `mcp-inspector --cli <mcp> --method tools/call --tool-name check_url --tool-arg url=<PHISH>`
 * with the fake browser typing `credential`.
 *
 * @param stopWhen checked every 100 ms with the visits so far: true ends the run (SIGTERM).
 */
async function inspectorCheckUrl(
  app: ListeningApp,
  credential: string,
  stopWhen?: (visits: FakeBrowserVisit[]) => boolean,
): Promise<InspectorRun> {
  const callbackUrl = `http://127.0.0.1:${String(await freePort())}/oauth/callback`;
  const logPath = join(home, 'fake-browser.jsonl');
  const visits = (): FakeBrowserVisit[] =>
    existsSync(logPath)
      ? readFileSync(logPath, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as FakeBrowserVisit)
      : [];
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DESKTOP_VARIABLES) Reflect.deleteProperty(env, name);
  Object.assign(env, {
    HOME: home,
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_AUTO_OPEN_ENABLED: 'true',
    BROWSER: FAKE_BROWSER,
    LINKGUARD_TEST_CREDENTIAL: credential,
    LINKGUARD_FAKE_BROWSER_LOG: logPath,
    NO_COLOR: '1',
  });
  const args = [
    '--cli',
    app.mcpUrl,
    '--format',
    'json',
    '--callback-url',
    callbackUrl,
    '--method',
    'tools/call',
    '--tool-name',
    'check_url',
    '--tool-arg',
    `url=${PHISH}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(INSPECTOR, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    let stoppedBy: InspectorRun['stoppedBy'] = null;
    const stop = (why: 'timeout' | 'test') => {
      if (stoppedBy !== null || child.exitCode !== null || child.signalCode !== null) return;
      stoppedBy = why;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    };
    const timer = setTimeout(() => {
      stop('timeout');
    }, INSPECTOR_TIMEOUT_MS);
    const poll =
      stopWhen === undefined
        ? undefined
        : setInterval(() => {
            if (stopWhen(visits())) stop('test');
          }, 100);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr, stoppedBy, callbackUrl, visits });
    });
  });
}

/** Resolve once `done()` holds, or after `ms` whatever happens (never rejects). */
async function settle(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

describe.skipIf(process.platform !== 'linux' || onWsl())(
  'MCP Inspector CLI with the OAuth flow',
  { timeout: 60_000 },
  () => {
    it('signs in with a Premium license through the fake browser; check_url is danger', async () => {
      const app = await startListeningApp(start);
      const license = await createPremiumLicense(app.ctx.store, app.ctx.clock.now());

      const run = await inspectorCheckUrl(app, license.raw);
      expect(run.stoppedBy, run.stderr).toBeNull();
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

      // The Inspector asked for the page with PKCE, state and the resource, back to our port.
      const asked = /Please navigate to: (\S+)/.exec(run.stderr)?.[1] ?? '';
      const authorize = new URL(asked);
      expect(authorize.origin + authorize.pathname).toBe(`${app.base}/oauth/authorize`);
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
        response_type: 'code',
        code_challenge_method: 'S256',
        redirect_uri: run.callbackUrl,
        resource: app.mcpUrl,
        state: expect.any(String) as unknown,
        client_id: expect.stringMatching(/^mcpc_/) as unknown,
      });
      const visits = run.visits();
      expect(visits).toHaveLength(1);
      expect(visits[0]).toMatchObject({
        outcome: 'redirected',
        exitCode: 0,
        pageStatus: 303,
        callbackStatus: 200,
      });
      // Back to the Inspector's listener with the code, its state (the Inspector does not insist
      // on it, so it is checked here) and the issuer (RFC 9207).
      const back = new URL(visits[0]?.location ?? 'about:blank');
      expect(back.origin + back.pathname).toBe(run.callbackUrl);
      expect(back.searchParams.get('code')).toMatch(/^mcp_ac_[0-9A-Za-z]{43}$/);
      expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
      expect(back.searchParams.get('iss')).toBe(app.base);
      expect(run.stderr).toContain('Authorization complete');
      const usage = await app.ctx.store.licenses.licenseUsage(
        monthOf(app.ctx.clock.now()),
        license.id,
      );
      expect(usage[0]?.checks).toBe(1);
    });

    it('an invalid credential: no redirect from the page, and the Inspector does not succeed', async () => {
      const app = await startListeningApp(start);
      // Well formed, never issued.
      const unknownLicense = `lic_${'7'.repeat(43)}`;

      const run = await inspectorCheckUrl(app, unknownLicense, (visits) => visits.length > 0);
      expect(run.code, run.stdout).not.toBe(0);
      expect(run.stdout).not.toContain('structuredContent');
      expect(run.stderr).toContain('Please navigate to:');
      expect(run.stderr).not.toContain('Authorization complete');
      const [first] = run.visits();
      expect(first).toMatchObject({ outcome: 'no-redirect', exitCode: 1, pageStatus: 400 });
      expect(first?.pageError).toContain('not a valid Premium license or enterprise key');
      // No check ran.
      expect(await app.ctx.store.intel.domainHistory('paypal-login-verify.top')).toBeNull();
      // xdg-open runs a failing $BROWSER twice: let the second visit end before the app closes.
      await settle(() => run.visits().length >= 2, 10_000);
    });
  },
);
