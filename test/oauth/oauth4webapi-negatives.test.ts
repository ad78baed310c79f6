/**
 * The authorization server's refusals, seen by oauth4webapi's strict client against the app on
 * loopback (guides/mcp.md §7.5): codes are single-use and burned by a wrong PKCE verifier, a
 * reused code or refresh token revokes the whole grant, `resource` is bound to this server's
 * `/mcp` (RFC 8707) at both endpoints and on `/mcp` itself, redirect URIs match exactly except
 * for a loopback port (RFC 8252) and an unknown one is never redirected to, only PKCE S256 is
 * accepted, confidential clients authenticate (RFC 6749 §2.3, §5.2), revocation follows RFC 7009,
 * and revoking the license or key behind a grant ends its tokens at once. Every refusal is
 * checked by exact status, error code and header.
 */
import * as oauth from 'oauth4webapi';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { createPremiumLicense, freePort, startListeningApp } from '../helpers/oauth-app.js';
import {
  authorizationParams,
  authorizationUrl,
  authorize,
  type Authorized,
  callCheckUrl,
  discover,
  exchangeCode,
  type ExchangeOptions,
  expectTokenError,
  expectToolCallRefused,
  expectToolCallWorks,
  insecure,
  obtainTokens,
  REDIRECT_URI,
  refreshTokens,
  registerClient,
  revoke,
  tokenRefusal,
} from '../helpers/oauth4webapi-client.js';
import { logCapture, NO_CHAIN_RPC, sharedEngine, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

/** A resource of another server (RFC 8707 `invalid_target`). */
const OTHER_RESOURCE = 'https://other.example/mcp';

/** An app on loopback, its metadata, a public client and a Premium license to sign in with. */
async function setUp() {
  const listening = await startListeningApp(start);
  const { ctx, base } = listening;
  const license = await createPremiumLicense(ctx.store, ctx.clock.now());
  const as = await discover(base);
  const { client } = await registerClient(as);
  return { ...listening, license, as, client };
}

/** GET an authorization URL the server must answer with a redirect; returns its Location. */
async function authorizationRedirect(url: string): Promise<URL> {
  const response = await request(url, { method: 'GET' });
  await response.body.dump();
  expect(response.statusCode).toBe(302);
  const location = response.headers.location;
  if (typeof location !== 'string') throw new Error('no Location on the redirect');
  return new URL(location);
}

/** Expect the code exchange (`options` override what was authorized) to be 400 invalid_grant. */
async function expectExchangeInvalidGrant(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  authorized: Authorized,
  mcpUrl: string,
  options: ExchangeOptions = {},
): Promise<void> {
  const response = await exchangeCode(as, client, authorized, mcpUrl, options);
  await expectTokenError(as, client, response, 400, 'invalid_grant');
}

/** Expect a refresh with `refreshToken` (a public client's) to be 400 invalid_grant. */
async function expectRefreshInvalidGrant(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  refreshToken: string,
): Promise<void> {
  const response = await refreshTokens(as, client, refreshToken);
  await expectTokenError(as, client, response, 400, 'invalid_grant');
}

/** Expect oauth4webapi to read `callback` as the authorization error `error` (after its checks). */
function expectAuthorizationError(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  callback: URL,
  state: string,
  error: string,
): void {
  let thrown: unknown = null;
  try {
    oauth.validateAuthResponse(as, client, callback, state);
  } catch (caught) {
    thrown = caught;
  }
  expect(thrown).toBeInstanceOf(oauth.AuthorizationResponseError);
  expect((thrown as oauth.AuthorizationResponseError).error).toBe(error);
}

describe('authorization server refusals with oauth4webapi', { timeout: 20_000 }, () => {
  it('a wrong code_verifier is invalid_grant and burns the code', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    const wrong = oauth.generateRandomCodeVerifier();
    await expectExchangeInvalidGrant(as, client, authorized, mcpUrl, { verifier: wrong });
    // The right verifier is too late: the code was spent by the failed attempt.
    await expectExchangeInvalidGrant(as, client, authorized, mcpUrl);
  });

  it('a reused code is invalid_grant and revokes the tokens the first use issued', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl),
    );
    await expectToolCallWorks(mcpUrl, tokens.access_token);
    await expectExchangeInvalidGrant(as, client, authorized, mcpUrl);
    await expectToolCallRefused(mcpUrl, tokens.access_token);
    await expectRefreshInvalidGrant(as, client, tokens.refresh_token ?? '');
  });

  it('a resource of another server is invalid_target at the token endpoint', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    await expectTokenError(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, { resource: OTHER_RESOURCE }),
      400,
      'invalid_target',
    );
  });

  it('a resource of another server at the authorize endpoint goes back as invalid_target', async () => {
    const { as, client, base, mcpUrl } = await setUp();
    const state = oauth.generateRandomState();
    const params = await authorizationParams(
      client,
      oauth.generateRandomCodeVerifier(),
      state,
      REDIRECT_URI,
      mcpUrl,
    );
    const callback = await authorizationRedirect(
      authorizationUrl(as, { ...params, resource: OTHER_RESOURCE }),
    );
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('error')).toBe('invalid_target');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(base);
    expect(callback.searchParams.get('code')).toBeNull();
    expectAuthorizationError(as, client, callback, state, 'invalid_target');
  });

  it('a redirect_uri at the token endpoint other than the authorization request’s is invalid_grant', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    await expectExchangeInvalidGrant(as, client, authorized, mcpUrl, {
      redirectUri: 'http://127.0.0.1:6276/other/callback',
    });
  });

  it('an unregistered redirect_uri gets a 400 page and is never redirected to', async () => {
    const { as, client, mcpUrl } = await setUp();
    const state = oauth.generateRandomState();
    for (const redirectUri of [
      'https://attacker.example/callback',
      'http://127.0.0.1:6276/oauth/other',
      `${REDIRECT_URI}?next=x`,
      'http://localhost:6276/oauth/callback',
      'http://127.0.0.1:51789/oauth/callback#x',
      'http://attacker@127.0.0.1:51789/oauth/callback',
    ]) {
      const params = await authorizationParams(
        client,
        oauth.generateRandomCodeVerifier(),
        state,
        redirectUri,
        mcpUrl,
      );
      const response = await request(authorizationUrl(as, params), { method: 'GET' });
      const body = await response.body.text();
      expect(response.statusCode, redirectUri).toBe(400);
      expect(response.headers.location, redirectUri).toBeUndefined();
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(body).toContain('not registered for this client');
      expect(body).not.toContain('attacker.example');
    }
  });

  it('a loopback redirect_uri on another port is accepted and bound to the code (RFC 8252)', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const ephemeral = 'http://127.0.0.1:51789/oauth/callback';
    const authorized = await authorize(as, client, license.raw, mcpUrl, ephemeral);
    // The code is bound to the port it was sent to, not to the registered one.
    const other = await authorize(as, client, license.raw, mcpUrl, ephemeral);
    await expectExchangeInvalidGrant(as, client, other, mcpUrl, { redirectUri: REDIRECT_URI });
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl),
    );
    await expectToolCallWorks(mcpUrl, tokens.access_token);
  });

  it('PKCE plain, a missing code_challenge or a missing method go back as invalid_request', async () => {
    const { as, client, base, mcpUrl } = await setUp();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const s256 = await authorizationParams(client, verifier, state, REDIRECT_URI, mcpUrl);
    const without = (name: string) =>
      Object.fromEntries(Object.entries(s256).filter(([key]) => key !== name));
    for (const [label, params] of [
      ['plain', { ...s256, code_challenge: verifier, code_challenge_method: 'plain' }],
      ['no code_challenge', without('code_challenge')],
      ['no code_challenge_method', without('code_challenge_method')],
    ] as const) {
      const callback = await authorizationRedirect(authorizationUrl(as, params));
      expect(callback.origin + callback.pathname, label).toBe(REDIRECT_URI);
      expect(callback.searchParams.get('error'), label).toBe('invalid_request');
      expect(callback.searchParams.get('state'), label).toBe(state);
      expect(callback.searchParams.get('iss'), label).toBe(base);
      expectAuthorizationError(as, client, callback, state, 'invalid_request');
    }
  });

  it('an expired code (after its 5 minutes) is invalid_grant', async () => {
    const { ctx, as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    ctx.clock.advance(6 * 60 * 1000);
    await expectExchangeInvalidGrant(as, client, authorized, mcpUrl);
  });

  it('refresh rotates both tokens; a rotated refresh token reused revokes the grant', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const first = await obtainTokens(as, client, license.raw, mcpUrl);
    const firstRefresh = first.refresh_token ?? '';
    expect(firstRefresh).toMatch(/^mcp_rt_/);
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await refreshTokens(as, client, firstRefresh),
    );
    expect(second.access_token).toMatch(/^mcp_at_[0-9A-Za-z]{43}$/);
    expect(second.refresh_token).toMatch(/^mcp_rt_[0-9A-Za-z]{43}$/);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(firstRefresh);
    expect(second.token_type).toBe('bearer');
    expect(second.scope).toBe('mcp');
    const secondRefresh = second.refresh_token ?? '';
    await expectToolCallWorks(mcpUrl, second.access_token);

    // Replay of the rotated token: refused, and everything of the grant stops working.
    await expectRefreshInvalidGrant(as, client, firstRefresh);
    await expectToolCallRefused(mcpUrl, second.access_token);
    await expectToolCallRefused(mcpUrl, first.access_token);
    await expectRefreshInvalidGrant(as, client, secondRefresh);
  });

  it('confidential clients authenticate with client_secret_basic or client_secret_post', async () => {
    const { as, license, mcpUrl } = await setUp();
    for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
      const { client, secret } = await registerClient(as, { token_endpoint_auth_method: method });
      expect(secret, method).toMatch(/^mcp_cs_[0-9A-Za-z]{43}$/);
      const auth =
        method === 'client_secret_basic'
          ? oauth.ClientSecretBasic(secret ?? '')
          : oauth.ClientSecretPost(secret ?? '');
      const tokens = await obtainTokens(as, client, license.raw, mcpUrl, auth);
      expect(tokens.access_token, method).toMatch(/^mcp_at_/);
      await expectToolCallWorks(mcpUrl, tokens.access_token);
      // The refresh needs the secret too.
      await expectTokenError(
        as,
        client,
        await refreshTokens(as, client, tokens.refresh_token ?? ''),
        401,
        'invalid_client',
      );
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await refreshTokens(as, client, tokens.refresh_token ?? '', auth),
      );
      expect(refreshed.access_token, method).toMatch(/^mcp_at_/);
    }
  });

  it('a wrong client secret is 401 invalid_client, with a Basic challenge when Basic was used', async () => {
    const { as, license, mcpUrl } = await setUp();
    const { client, secret } = await registerClient(as, {
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    const wrongSecret = 'mcp_cs_' + 'A'.repeat(43);

    const basic = await tokenRefusal(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, {
        auth: oauth.ClientSecretBasic(wrongSecret),
      }),
    );
    expect(basic).toMatchObject({ status: 401, error: 'invalid_client', cacheControl: 'no-store' });
    expect(basic.wwwAuthenticate).toBe('Basic realm="linkguard"');
    expect(basic.thrown).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenges = (basic.thrown as oauth.WWWAuthenticateChallengeError).cause;
    expect(challenges.map((challenge) => challenge.scheme)).toEqual(['basic']);

    // In the form there is no Basic challenge to send.
    await expectTokenError(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, {
        auth: oauth.ClientSecretPost(wrongSecret),
      }),
      401,
      'invalid_client',
    );
    // Without any secret, a confidential client is refused too.
    await expectTokenError(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, { auth: oauth.None() }),
      401,
      'invalid_client',
    );
    // Client authentication comes before the code: the failures above did not spend it.
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, {
        auth: oauth.ClientSecretBasic(secret ?? ''),
      }),
    );
    expect(tokens.access_token).toMatch(/^mcp_at_/);
  });

  it('a public client that sends a client_secret is invalid_client', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const authorized = await authorize(as, client, license.raw, mcpUrl);
    await expectTokenError(
      as,
      client,
      await exchangeCode(as, client, authorized, mcpUrl, {
        auth: oauth.ClientSecretPost('mcp_cs_' + 'B'.repeat(43)),
      }),
      401,
      'invalid_client',
    );
  });

  it('client_credentials is unsupported_grant_type', async () => {
    const { as, client } = await setUp();
    await expectTokenError(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(
        as,
        client,
        oauth.None(),
        { scope: 'mcp' },
        insecure,
      ),
      400,
      'unsupported_grant_type',
    );
  });

  it('a client registered without refresh_token gets no refresh token and cannot refresh', async () => {
    const { as, license, mcpUrl } = await setUp();
    const { client } = await registerClient(as, { grant_types: ['authorization_code'] });
    expect(client.grant_types).toEqual(['authorization_code']);
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);
    expect(tokens.access_token).toMatch(/^mcp_at_/);
    expect(tokens.refresh_token).toBeUndefined();
    expect(Object.keys(tokens).sort()).toEqual([
      'access_token',
      'expires_in',
      'scope',
      'token_type',
    ]);
    await expectTokenError(
      as,
      client,
      await refreshTokens(as, client, 'mcp_rt_' + 'C'.repeat(43)),
      400,
      'unauthorized_client',
    );
  });

  it('revoking the refresh token (RFC 7009) ends the access token too', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);
    await expectToolCallWorks(mcpUrl, tokens.access_token);
    await revoke(as, client, tokens.refresh_token ?? '');
    await expectToolCallRefused(mcpUrl, tokens.access_token);
    await expectRefreshInvalidGrant(as, client, tokens.refresh_token ?? '');
    // Revoking again is not an error (RFC 7009 §2.2).
    await revoke(as, client, tokens.refresh_token ?? '');
  });

  it('revoking an unknown token, or another client’s, is 200 and changes nothing', async () => {
    const { as, client, license, mcpUrl } = await setUp();
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);
    await revoke(as, client, 'mcp_at_' + 'D'.repeat(43));
    await revoke(as, client, 'not-a-token');
    const { client: other } = await registerClient(as);
    await revoke(as, other, tokens.access_token);
    await revoke(as, other, tokens.refresh_token ?? '');
    await expectToolCallWorks(mcpUrl, tokens.access_token);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await refreshTokens(as, client, tokens.refresh_token ?? ''),
    );
    expect(refreshed.access_token).toMatch(/^mcp_at_/);
  });

  it('revoking the license behind a grant ends its access and refresh tokens', async () => {
    const { ctx, as, client, license, mcpUrl } = await setUp();
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);
    await expectToolCallWorks(mcpUrl, tokens.access_token);
    expect(await ctx.store.licenses.revokeLicense(license.id, ctx.clock.now())).toBe('revoked');
    await expectToolCallRefused(mcpUrl, tokens.access_token);
    await expectRefreshInvalidGrant(as, client, tokens.refresh_token ?? '');
  });

  it('revoking the enterprise key behind a grant ends its access and refresh tokens', async () => {
    const { ctx, as, client, mcpUrl } = await setUp();
    const key = await createEnterpriseKey(ctx.store);
    const tokens = await obtainTokens(as, client, key.raw, mcpUrl);
    expect(tokens.access_token).toMatch(/^mcp_at_/);
    await expectToolCallWorks(mcpUrl, tokens.access_token);
    expect(await ctx.store.keys.revokeKey(key.id, ctx.clock.now())).toBe('revoked');
    await expectToolCallRefused(mcpUrl, tokens.access_token);
    await expectRefreshInvalidGrant(as, client, tokens.refresh_token ?? '');
  });

  it('a token is refused, and not refreshed, by a server with another PUBLIC_BASE_URL on the same database', async () => {
    const { ctx, as, client, license, mcpUrl } = await setUp();
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);

    // A second app on the same SQLite file, with its own public address (and so its own /mcp).
    const port = await freePort();
    const otherBase = `http://127.0.0.1:${String(port)}`;
    const config = loadConfig({
      ...NO_CHAIN_RPC,
      PAGE_ANALYSIS: 'off',
      PUBLIC_BASE_URL: otherBase,
      DATABASE_URL: `sqlite:${ctx.dbPath}`,
    });
    const store = await openStore(config.store);
    try {
      const app = await buildApp({
        config,
        store,
        engine: sharedEngine(),
        clock: ctx.clock,
        logger: createLogger('error', logCapture()),
      });
      try {
        await app.listen({ port, host: '127.0.0.1' });
        // Same store: the grant is visible there, yet the token was issued for the first /mcp.
        const otherMcp = `${otherBase}/mcp`;
        await expectToolCallRefused(otherMcp, tokens.access_token);
        // The other server's own tokens work there, so the refusal is the audience.
        const otherAs = await discover(otherBase);
        const { client: otherClient } = await registerClient(otherAs);
        const own = await obtainTokens(otherAs, otherClient, license.raw, otherMcp);
        await expectToolCallWorks(otherMcp, own.access_token);
        await expectToolCallRefused(mcpUrl, own.access_token);
        // Nor does the other server refresh a grant bound to the first /mcp.
        await expectRefreshInvalidGrant(otherAs, client, tokens.refresh_token ?? '');
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
    await expectToolCallWorks(mcpUrl, tokens.access_token);
  });

  it('tools/call with a token from an enterprise key counts one request on that key', async () => {
    const { ctx, as, client, mcpUrl } = await setUp();
    const key = await createEnterpriseKey(ctx.store);
    const other = await createEnterpriseKey(ctx.store);
    const tokens = await obtainTokens(as, client, key.raw, mcpUrl);
    const call = await callCheckUrl(mcpUrl, tokens.access_token);
    expect(call.status).toBe(200);
    expect(call.body).toMatchObject({
      result: { isError: false, structuredContent: { verdict: 'danger' } },
    });
    await ctx.store.usage.flush();
    const month = monthOf(ctx.clock.now());
    const usage = await ctx.store.usage.usageByMonth(month, key.id);
    expect(usage).toHaveLength(1);
    expect(usage[0]?.requests).toBe(1);
    expect(await ctx.store.usage.usageByMonth(month, other.id)).toEqual([]);
  });
});
