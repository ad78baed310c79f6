/**
 * The MCP SDK client's own OAuth flow against the connector, end to end on loopback: the SDK
 * `Client` over `StreamableHTTPClientTransport` with an `OAuthClientProvider`. `initialize` and
 * `tools/list` are public, so the first `tools/call` is what gets the 401; the SDK then discovers
 * the protected-resource and authorization-server metadata, registers (RFC 7591), and asks for
 * the authorization page (PKCE S256, `state`, `resource`). The scripted browser types the
 * credential; the code goes back through `transport.finishAuth(code)` and the tool call is retried
 * on the same connection (a 401 on `tools/call` leaves the session usable, so there is nothing to
 * reconnect).
 *
 * Proves: a Premium license and an enterprise key both work from the page and are charged per
 * URL; a refused credential re-renders the page (400, no redirect) and the same page then accepts
 * the right one; a spent month is an `isError` result asking for a human; an expired access token
 * is refreshed by the SDK on its own (rotation, no new sign-in); a revoked grant ends in a 401 and
 * a new sign-in; a confidential client (client_secret_basic) works too.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import { PREMIUM_MONTHLY_CHECKS } from '../../src/access/license.js';
import { monthOf } from '../../src/clock.js';
import { ACCESS_TOKEN_TTL_MS } from '../../src/oauth/oauth-secrets.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import {
  createPremiumLicense,
  type ListeningApp,
  startListeningApp,
} from '../helpers/oauth-app.js';
import {
  authorizeInBrowser,
  openAuthorizationPage,
  submitAuthorizationForm,
} from '../helpers/scripted-browser.js';
import {
  RecordingOAuthProvider,
  SDK_REDIRECT_URL,
  sdkClientMetadata,
} from '../helpers/sdk-oauth-provider.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
const PHISH = 'https://paypal-login-verify.top/signin';
const CHECK_PHISH = { name: 'check_url', arguments: { url: PHISH } };

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

interface Session extends ListeningApp {
  provider: RecordingOAuthProvider;
  transport: StreamableHTTPClientTransport;
  client: Client;
}

/** The app on loopback and an SDK client connected without credentials (as a user starts). */
async function connect(provider = new RecordingOAuthProvider()): Promise<Session> {
  const app = await startListeningApp(start);
  const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl), {
    authProvider: provider,
  });
  const client = new Client({ name: 'linkguard-oauth-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  // The client validates structuredContent against the output schemas listed here.
  await client.listTools();
  return { ...app, provider, transport, client };
}

/**
 * The first tool call: refused with a 401, after which the SDK has registered and asked to open
 * the authorization page.
 */
async function callUntilSignInIsAsked(session: Session): Promise<URL> {
  const refused = await session.client.callTool(CHECK_PHISH).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(UnauthorizedError);
  const url = session.provider.lastAuthorizationUrl;
  expect(url.origin + url.pathname).toBe(`${session.base}/oauth/authorize`);
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    response_type: 'code',
    client_id: session.provider.registered.client_id,
    code_challenge_method: 'S256',
    redirect_uri: SDK_REDIRECT_URL,
    state: session.provider.expectedState,
    scope: 'mcp',
    resource: session.mcpUrl,
  });
  return url;
}

/** The code from the page's redirect, after checking it came back to us with state and iss. */
function codeFrom(session: Session, location: string | URL): string {
  const callback = new URL(location);
  expect(callback.origin + callback.pathname).toBe(SDK_REDIRECT_URL);
  expect(callback.searchParams.get('error')).toBeNull();
  expect(callback.searchParams.get('state')).toBe(session.provider.expectedState);
  expect(callback.searchParams.get('iss')).toBe(session.base);
  const code = callback.searchParams.get('code') ?? '';
  expect(code).toMatch(/^mcp_ac_[0-9A-Za-z]{43}$/);
  return code;
}

/** The whole sign-in: 401, the page with `credential`, the code exchanged by the SDK. */
async function signIn(session: Session, credential: string): Promise<void> {
  const url = await callUntilSignInIsAsked(session);
  const callback = await authorizeInBrowser(url.href, credential);
  await session.transport.finishAuth(codeFrom(session, callback));
}

/** Checks a license spent in the month of `at`. */
async function checksUsed(session: Session, licenseId: string, at: number): Promise<number> {
  const rows = await session.ctx.store.licenses.licenseUsage(monthOf(at), licenseId);
  return rows[0]?.checks ?? 0;
}

/** A raw `tools/call` of check_url with a bearer token, outside the SDK. */
async function rawToolCall(session: Session, accessToken: string) {
  const response = await request(session.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: CHECK_PHISH }),
  });
  return {
    status: response.statusCode,
    challenge: String(response.headers['www-authenticate'] ?? ''),
    body: (await response.body.json()) as Record<string, unknown>,
  };
}

const structured = (result: unknown): Record<string, unknown> =>
  (result as CallToolResult).structuredContent ?? {};
const text = (result: unknown): string =>
  ((result as CallToolResult).content as { type: string; text: string }[])
    .map((c) => c.text)
    .join('\n');

function expectBlockedPhish(result: unknown): void {
  expect((result as CallToolResult).isError).toBe(false);
  expect(structured(result)).toMatchObject({
    verdict: 'danger',
    agent_action: 'block',
    brand: 'PayPal',
  });
}

describe('MCP SDK client OAuth flow', { timeout: 30_000 }, () => {
  it('Premium license: DCR, sign-in page, code, tokens; each checked URL spends one check', async () => {
    const session = await connect();
    const { ctx, provider } = session;
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());

    await signIn(session, license.raw);
    expect(provider.registered.client_id).toMatch(/^mcpc_[0-9A-Za-z]{12}$/);
    expect(provider.savedTokens).toHaveLength(1);
    expect(provider.currentTokens).toMatchObject({
      access_token: expect.stringMatching(/^mcp_at_[0-9A-Za-z]{43}$/) as unknown,
      refresh_token: expect.stringMatching(/^mcp_rt_[0-9A-Za-z]{43}$/) as unknown,
      expires_in: 30 * 24 * 3600,
      scope: 'mcp',
    });
    expect(provider.currentTokens.token_type.toLowerCase()).toBe('bearer');
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(0);

    const checked = await session.client.callTool(CHECK_PHISH);
    expectBlockedPhish(checked);
    expect(text(checked)).toMatch(/^DANGER \(block\)/);
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(1);

    const batch = await session.client.callTool({
      name: 'check_urls_batch',
      arguments: { urls: ['https://metamask-restore-wallet.xyz/', 'github.com', 'paypal.com'] },
    });
    expect(batch.isError).toBe(false);
    const results = structured(batch).results as Record<string, unknown>[];
    expect(results.map((r) => r.verdict)).toEqual(['danger', 'safe', 'safe']);
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(4);
    // One sign-in served every call.
    expect(provider.authorizationUrls).toHaveLength(1);
    expect(provider.savedTokens).toHaveLength(1);
  });

  it('an enterprise key typed on the page: the calls count against the key', async () => {
    const session = await connect();
    const { ctx } = session;
    const key = await createEnterpriseKey(ctx.store);

    await signIn(session, key.raw);
    expect(session.provider.currentTokens.access_token).toMatch(/^mcp_at_/);
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));

    await ctx.store.usage.flush();
    const month = monthOf(ctx.clock.now());
    const usage = await ctx.store.usage.usageByMonth(month, key.id);
    expect(usage[0]?.requests).toBe(1);
    expect(await ctx.store.licenses.licenseUsage(month, null)).toEqual([]);
  });

  it('an invalid key re-renders the page with 400 and no redirect; the right license then succeeds there', async () => {
    const session = await connect();
    const { ctx } = session;
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const url = await callUntilSignInIsAsked(session);

    const page = await openAuthorizationPage(url.href);
    expect(page.status).toBe(200);
    // A one-character typo of the real license.
    const typo = license.raw.slice(0, -1) + (license.raw.endsWith('A') ? 'B' : 'A');
    const refused = await submitAuthorizationForm(page, typo);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('not a valid Premium license or enterprise key');
    expect(refused.body).toContain(`value="${page.fields.request_id ?? '?'}"`);

    const accepted = await submitAuthorizationForm(page, license.raw);
    expect(accepted.status).toBe(303);
    await session.transport.finishAuth(codeFrom(session, accepted.location ?? 'about:blank'));
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(1);
    expect(session.provider.authorizationUrls).toHaveLength(1);
  });

  it("the month's Premium checks spent: check_url is an isError result asking for a human", async () => {
    const session = await connect();
    const { ctx } = session;
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    await signIn(session, license.raw);
    const month = monthOf(ctx.clock.now());
    const spent = await ctx.store.licenses.reserveChecks(
      license.id,
      month,
      PREMIUM_MONTHLY_CHECKS,
      PREMIUM_MONTHLY_CHECKS,
    );
    expect(spent).toEqual({ ok: true, used: PREMIUM_MONTHLY_CHECKS });

    const single = await session.client.callTool(CHECK_PHISH);
    expect(single.isError).toBe(true);
    expect(single.structuredContent).toMatchObject({
      error: { code: 'rate_limited', reason: 'monthly_allowance' },
      agent_action: 'ask_human',
    });
    expect(text(single)).toContain(`1,000 checks of ${month} are used up`);
    expect(text(single)).toContain('agent_action: ask_human');

    // A batch is reserved whole: with nothing left it is refused whole, nothing is checked.
    const batch = await session.client.callTool({
      name: 'check_urls_batch',
      arguments: { urls: ['github.com', PHISH] },
    });
    expect(batch.isError).toBe(true);
    expect(structured(batch)).toMatchObject({
      error: { code: 'rate_limited', reason: 'monthly_allowance' },
      agent_action: 'ask_human',
    });
    expect(text(batch)).toMatch(/^The batch was not checked: /);
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(PREMIUM_MONTHLY_CHECKS);
  });

  it('an expired access token: the SDK refreshes on the 401 by itself and the call succeeds', async () => {
    const session = await connect();
    const { ctx, provider } = session;
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    await signIn(session, license.raw);
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));
    const first = provider.currentTokens;

    ctx.clock.advance(ACCESS_TOKEN_TTL_MS + 60_000);
    const stale = await rawToolCall(session, first.access_token);
    expect(stale.status).toBe(401);
    expect(stale.challenge).toContain('error="invalid_token"');

    // No explicit auth(): the transport answers the 401 with the refresh token.
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));
    expect(provider.savedTokens).toHaveLength(2);
    const second = provider.currentTokens;
    expect(second.access_token).toMatch(/^mcp_at_[0-9A-Za-z]{43}$/);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toMatch(/^mcp_rt_[0-9A-Za-z]{43}$/);
    expect(second.refresh_token).not.toBe(first.refresh_token); // rotated
    expect(provider.authorizationUrls).toHaveLength(1); // no second sign-in
    expect(provider.invalidations).toEqual([]);
    expect((await rawToolCall(session, second.access_token)).status).toBe(200);
    // The call after the refresh was charged to the new month.
    expect(await checksUsed(session, license.id, ctx.clock.now())).toBe(2);
  });

  it('revocation through /oauth/revoke: the next tools/call gets 401 and the SDK must sign in again', async () => {
    const session = await connect();
    const { provider } = session;
    const license = await createPremiumLicense(session.ctx.store, session.ctx.clock.now());
    await signIn(session, license.raw);
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));
    const tokens = provider.currentTokens;

    const revoked = await request(`${session.base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: tokens.refresh_token ?? '',
        client_id: provider.registered.client_id,
      }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await revoked.body.dump();

    const raw = await rawToolCall(session, tokens.access_token);
    expect(raw.status).toBe(401);
    expect(raw.challenge).toContain(
      `resource_metadata="${session.base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(raw.challenge).toContain('error="invalid_token"');
    expect(raw.body).toMatchObject({ id: 7, error: { code: -32001 } });

    // The SDK gets the same 401, tries the revoked refresh token (invalid_grant), drops its
    // tokens and asks for the sign-in page again.
    const refused = await session.client.callTool(CHECK_PHISH).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(provider.invalidations).toContain('tokens');
    expect(provider.tokens()).toBeUndefined();
    expect(provider.authorizationUrls).toHaveLength(2);
    expect(await checksUsed(session, license.id, session.ctx.clock.now())).toBe(1);
  });

  it('a confidential client (client_secret_basic) signs in, calls and refreshes', async () => {
    const session = await connect(
      new RecordingOAuthProvider(
        sdkClientMetadata({ token_endpoint_auth_method: 'client_secret_basic' }),
      ),
    );
    const { ctx, provider } = session;
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    await signIn(session, license.raw);
    expect(provider.registered.client_secret).toMatch(/^mcp_cs_[0-9A-Za-z]{43}$/);
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));

    ctx.clock.advance(ACCESS_TOKEN_TTL_MS + 60_000);
    expectBlockedPhish(await session.client.callTool(CHECK_PHISH));
    expect(provider.savedTokens).toHaveLength(2);
    expect(provider.authorizationUrls).toHaveLength(1);
  });
});
