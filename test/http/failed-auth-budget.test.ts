/**
 * The failed-authentication budget (README "API", docs/decisions.md, decision 131): every door
 * counts failed credentials per source — `/v1/detect` keys, `/mcp` tokens and keys,
 * `/oauth/token` client authentication and codes, `/oauth/revoke`, the sign-in form — against
 * one budget of 20 per 10 minutes. Once it is spent, that source's credentials are refused with
 * 429 and `Retry-After` unchecked, the right ones too; other sources are untouched, and an IPv6
 * source is its /64 (decision 132). Real app, real SQLite store, requests through `inject()`
 * with the client address set.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import {
  AUTH_FAILURE_WINDOW_SECONDS,
  AUTH_FAILURES_PER_SOURCE,
} from '../../src/ratelimit/rate-limits.js';
import { detect, detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { createPremiumLicense } from '../helpers/oauth-app.js';
import {
  authorizeParams,
  authorizePath,
  pkcePair,
  registeredClient,
} from '../helpers/oauth-http.js';
import { type TestApp, useTestApp } from '../helpers/test-app.js';

const start = useTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '1000' } });

const PAYPAL = 'https://paypal.com/';
const ATTACKER = '203.0.113.66';
const OTHER = '198.51.100.7';
const WRONG_KEY = `Bearer sk_live_${'W'.repeat(43)}`;
const ACCEPT = 'application/json, text/event-stream';

function mcpCall(
  app: TestApp,
  authorization: string | null,
  remoteAddress: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      ...(authorization === null ? {} : { authorization }),
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'check_url', arguments: { url: 'https://example.com/' } },
    }),
  });
}

function oauthPost(
  app: TestApp,
  path: '/oauth/token' | '/oauth/revoke',
  form: Record<string, string>,
  remoteAddress: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: path,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

/** `n` wrong keys on /v1/detect from `remoteAddress`, each a 401. */
async function failOnDetect(app: TestApp, n: number, remoteAddress: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const response = await detectWithKey(app, PAYPAL, WRONG_KEY, { remoteAddress });
    expect(response.statusCode).toBe(401);
  }
}

/** A 429 of the failure budget on /v1/detect: documented code, reason, Retry-After. */
function expectDetectRefused(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(429);
  const body = jsonBody(response);
  expect(body).toMatchObject({ status: 429, error: 'rate_limited', reason: 'auth_failures' });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(AUTH_FAILURE_WINDOW_SECONDS);
  expect(body.retry_after).toBe(retryAfter);
  expect(body.message).toBe(
    `Too many failed authentications from this address. Retry in ${String(retryAfter)} s.`,
  );
}

describe('failed authentications per source', () => {
  it('/v1/detect: after 20 wrong keys a right key from that source is 429; elsewhere 200', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    expect(AUTH_FAILURES_PER_SOURCE).toBe(20);
    await failOnDetect(app, AUTH_FAILURES_PER_SOURCE, ATTACKER);
    expectDetectRefused(await detectWithKey(app, PAYPAL, key.bearer, { remoteAddress: ATTACKER }));
    // Wrong keys too: the answer no longer depends on the key.
    expectDetectRefused(await detectWithKey(app, PAYPAL, WRONG_KEY, { remoteAddress: ATTACKER }));
    // Only credentials are refused: the payment flow of that source goes on.
    expect((await detect(app, { url: PAYPAL }, { remoteAddress: ATTACKER })).statusCode).toBe(402);
    // The budget is the source's, not the key's: its holder elsewhere is served.
    expect(
      (await detectWithKey(app, PAYPAL, key.bearer, { remoteAddress: OTHER })).statusCode,
    ).toBe(200);
  });

  it('/mcp: 20 wrong tokens, then the right key is 429 with Retry-After; tools/list stays public', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    for (let i = 0; i < AUTH_FAILURES_PER_SOURCE; i++) {
      const token = i % 2 === 0 ? WRONG_KEY : `Bearer mcp_at_${'0'.repeat(43)}${String(i % 10)}`;
      expect((await mcpCall(app, token, ATTACKER)).statusCode).toBe(401);
    }
    const refused = await mcpCall(app, key.bearer, ATTACKER);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32001,
        message: `Too many failed authentications from this address. Retry in ${String(retryAfter)} s.`,
        data: { error: 'rate_limited', reason: 'auth_failures', retry_after: retryAfter },
      },
    });
    // Without credentials nothing is checked, so nothing is refused beyond the usual 401.
    expect((await mcpCall(app, null, ATTACKER)).statusCode).toBe(401);
    const list = await app.inject({
      method: 'POST',
      url: '/mcp',
      remoteAddress: ATTACKER,
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(list.statusCode).toBe(200);
    expect((await mcpCall(app, key.bearer, OTHER)).statusCode).toBe(200);
  });

  it('one budget for every door: /mcp, /oauth/token and /oauth/revoke failures add up', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    const client = await registeredClient(app, {
      redirect_uris: ['http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    for (let i = 0; i < 5; i++) {
      expect((await mcpCall(app, WRONG_KEY, ATTACKER)).statusCode).toBe(401);
      // A wrong client secret.
      const badClient = await oauthPost(
        app,
        '/oauth/token',
        {
          grant_type: 'refresh_token',
          refresh_token: 'mcp_rt_x',
          client_id: client.clientId,
          client_secret: 'wrong',
        },
        ATTACKER,
      );
      expect(badClient.statusCode).toBe(401);
      // A guessed authorization code (the client authenticates).
      const badCode = await oauthPost(
        app,
        '/oauth/token',
        {
          grant_type: 'authorization_code',
          code: `mcp_code_${String(i)}`,
          code_verifier: pkcePair().verifier,
          client_id: client.clientId,
          client_secret: client.clientSecret ?? '',
        },
        ATTACKER,
      );
      expect(badCode.json()).toMatchObject({ error: 'invalid_grant' });
      const badRevoke = await oauthPost(
        app,
        '/oauth/revoke',
        { token: 'mcp_at_x', client_id: client.clientId, client_secret: 'wrong' },
        ATTACKER,
      );
      expect(badRevoke.statusCode).toBe(401);
    }
    expectDetectRefused(await detectWithKey(app, PAYPAL, key.bearer, { remoteAddress: ATTACKER }));
    // The OAuth endpoints refuse that source before checking anything, right secret or not.
    for (const path of ['/oauth/token', '/oauth/revoke'] as const) {
      const refused = await oauthPost(
        app,
        path,
        {
          grant_type: 'refresh_token',
          refresh_token: 'mcp_rt_x',
          token: 'mcp_at_x',
          client_id: client.clientId,
          client_secret: client.clientSecret ?? '',
        },
        ATTACKER,
      );
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    }
    // The right client secret from another source is checked as usual.
    const elsewhere = await oauthPost(
      app,
      '/oauth/revoke',
      { token: 'mcp_at_x', client_id: client.clientId, client_secret: client.clientSecret ?? '' },
      OTHER,
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('the sign-in form: a wrong license counts, and an exhausted source gets a 429 page', async () => {
    const { app, store, clock } = await start();
    const license = await createPremiumLicense(store, clock.now());
    const redirectUri = 'http://127.0.0.1:9/cb';
    const { clientId } = await registeredClient(app, {
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const open = async () => {
      const page = await app.inject({
        method: 'GET',
        url: authorizePath(authorizeParams(clientId, redirectUri, pkcePair().challenge)),
        remoteAddress: ATTACKER,
      });
      expect(page.statusCode).toBe(200);
      const fields: Record<string, string> = {};
      for (const m of page.body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
        fields[m[1] ?? ''] = m[2] ?? '';
      }
      const setCookie = page.headers['set-cookie'];
      const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
      return (credential: string) =>
        app.inject({
          method: 'POST',
          url: '/oauth/authorize',
          remoteAddress: ATTACKER,
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          payload: new URLSearchParams({ ...fields, credential, action: 'approve' }).toString(),
        });
    };
    const submit = await open();
    expect((await submit(`lic_${'0'.repeat(43)}`)).statusCode).toBe(400);
    await failOnDetect(app, AUTH_FAILURES_PER_SOURCE - 1, ATTACKER);
    // 19 on detect + 1 on the form: the budget is spent.
    const refused = await submit(license.raw);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain('Too many failed authentications from this address.');
  });

  it('IPv6 sources are /64s: another address of the /64 is refused, the next /64 is not', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    for (let i = 1; i <= AUTH_FAILURES_PER_SOURCE; i++) {
      // A fresh interface identifier for every guess, as an attacker with a /64 would.
      await failOnDetect(app, 1, `2001:db8:aa:bb:${i.toString(16)}::1`);
    }
    expectDetectRefused(
      await detectWithKey(app, PAYPAL, key.bearer, { remoteAddress: '2001:db8:aa:bb:ffff::9' }),
    );
    const nextNet = await detectWithKey(app, PAYPAL, key.bearer, {
      remoteAddress: '2001:db8:aa:bc::1',
    });
    expect(nextNet.statusCode).toBe(200);
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    await failOnDetect(app, AUTH_FAILURES_PER_SOURCE, '::ffff:192.0.2.44');
    expectDetectRefused(
      await detectWithKey(app, PAYPAL, key.bearer, { remoteAddress: '192.0.2.44' }),
    );
  });
});
