/**
 * One Authorization grammar on every door (docs/decisions.md, decision 133): RFC 6750 §2.1's
 * `"Bearer" 1*SP b64token` (scheme in any letter case, one or more spaces, never a tab) on
 * `/v1/detect` and `/mcp`, RFC 7617's `"Basic" 1*SP token68` for client authentication at
 * `/oauth/token`. The same header gets the same verdict on both Bearer doors; a malformed one is
 * 401 with `WWW-Authenticate: Bearer error="invalid_request"` on each. Real app and store.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { registeredClient, tokenRequest } from '../helpers/oauth-http.js';
import { type TestApp, useTestApp } from '../helpers/test-app.js';

const start = useTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '1000' } });

function mcpCall(app: TestApp, authorization: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'check_url', arguments: { url: 'https://example.com/' } },
    }),
  });
}

/** Headers built around a valid key: accepted on both doors. */
const ACCEPTED: [string, (key: string) => string][] = [
  ['one space', (k) => `Bearer ${k}`],
  ['two spaces', (k) => `Bearer  ${k}`],
  ['five spaces', (k) => `Bearer     ${k}`],
  ['a lower-case scheme', (k) => `bearer ${k}`],
  ['an upper-case scheme', (k) => `BEARER ${k}`],
  ['spaces around the value (not part of a field value)', (k) => ` Bearer ${k} `],
];

/** Headers refused as malformed on both doors. */
const MALFORMED: [string, (key: string) => string][] = [
  ['a tab after Bearer', (k) => `Bearer\t${k}`],
  ['a space and a tab', (k) => `Bearer \t${k}`],
  ['two tokens', (k) => `Bearer ${k} ${k}`],
  ['no token', () => 'Bearer'],
  ['no space', (k) => `Bearer${k}`],
  ['a character outside b64token', (k) => `Bearer ${k}!`],
  ['a comma after the token', (k) => `Bearer ${k},`],
  ['another scheme', () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
];

describe('Bearer on /v1/detect and /mcp', () => {
  it.each(ACCEPTED)('%s is accepted on both doors', async (_label, header) => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    expect((await detectWithKey(app, 'https://paypal.com/', header(key.raw))).statusCode).toBe(200);
    expect((await mcpCall(app, header(key.raw))).statusCode).toBe(200);
  });

  it.each(MALFORMED)('%s is 401 invalid_request on both doors', async (_label, header) => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store);
    const challenge =
      'error="invalid_request", error_description="Authorization must be Bearer, one or more spaces and one token (RFC 6750 section 2.1)"';

    const detected = await detectWithKey(app, 'https://paypal.com/', header(key.raw));
    expect(detected.statusCode).toBe(401);
    expect(jsonBody(detected)).toMatchObject({
      status: 401,
      error: 'invalid_api_key',
      reason: 'malformed_authorization',
    });
    expect(detected.headers['www-authenticate']).toBe(`Bearer ${challenge}`);

    const called = await mcpCall(app, header(key.raw));
    expect(called.statusCode).toBe(401);
    expect(called.headers['www-authenticate']).toMatch(
      new RegExp(`^Bearer resource_metadata="[^"]+", ${challenge.replace(/[()]/g, '\\$&')}$`),
    );
    expect(called.json()).toMatchObject({ error: { code: -32001 } });
  });

  it('a well-formed unknown key is invalid_token on both doors', async () => {
    const { app } = await start();
    const header = `Bearer sk_live_${'Z'.repeat(43)}`;
    const detected = await detectWithKey(app, 'https://paypal.com/', header);
    expect(detected.statusCode).toBe(401);
    expect(jsonBody(detected)).not.toHaveProperty('reason');
    expect(detected.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect((await mcpCall(app, header)).headers['www-authenticate']).toMatch(
      /error="invalid_token"/,
    );
  });
});

describe('Basic client authentication at /oauth/token', () => {
  const basic = (id: string, secret: string) =>
    Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');

  it('two spaces after Basic authenticate the client; a tab is invalid_client', async () => {
    const { app } = await start();
    const client = await registeredClient(app, {
      redirect_uris: ['http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const credentials = basic(client.clientId, client.clientSecret ?? '');
    const form = { grant_type: 'authorization_code', code: 'mcp_code_x', code_verifier: 'v' };
    // Authenticated: the code is what is refused.
    const spaced = await tokenRequest(app, form, { authorization: `Basic  ${credentials}` });
    expect(spaced.json()).toMatchObject({ error: 'invalid_grant' });
    const tabbed = await tokenRequest(app, form, { authorization: `Basic\t${credentials}` });
    expect(tabbed.statusCode).toBe(401);
    expect(tabbed.json()).toMatchObject({ error: 'invalid_client' });
    expect(tabbed.headers['www-authenticate']).toBe('Basic realm="linkguard"');
  });
});
