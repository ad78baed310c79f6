/**
 * The authorization server's endpoints over HTTP (`app.inject`, issuer
 * `https://linkguard.example.com`): the RFC 8414 metadata document field for field and the RFC
 * 9728 document of `/mcp`; RFC 7591 registration (public and confidential clients, refused
 * redirect URIs and metadata, durability across an app restart, the per-IP limit); `GET
 * /oauth/authorize` (errors shown on a page when the redirect URI is not the client's, redirected
 * with `error`, `state` and `iss` once it is; the sign-in page's security headers and CSRF cookie;
 * escaping of the client's name); `POST /oauth/authorize` (the double-submit CSRF check, Cancel,
 * five wrong credentials, expiry, a double submit); and the token endpoint's content type and
 * `no-store` responses.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { hashSecret } from '../../src/access/api-key.js';
import { generateLicense } from '../../src/access/license.js';
import { generateNonce } from '../../src/oauth/oauth-secrets.js';
import { createLogger } from '../../src/observability/logger.js';
import { buildApp } from '../../src/server/build-app.js';
import { openStore } from '../../src/store/open-store.js';
import { createPremiumLicense } from '../helpers/oauth-app.js';
import {
  authorizeParams,
  authorizePath,
  hiddenFields,
  locationOf,
  type OpenedPage,
  openPage,
  pkcePair,
  registerClient,
  registeredClient,
  submitForm,
  submitPage,
  tokenRequest,
} from '../helpers/oauth-http.js';
import {
  logCapture,
  sharedEngine,
  type TestApp,
  type TestContext,
  useTestApp,
} from '../helpers/test-app.js';

const BASE = 'https://linkguard.example.com';
const start = useTestApp({ env: { PUBLIC_BASE_URL: BASE } });
const REDIRECT_URI = 'https://client.example.com/oauth/callback';
const PUBLIC_CLIENT = {
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  client_name: 'Test client',
};
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const EXPIRED = 'This sign-in page has expired or was already used.';

function expectOAuthError(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ error, error_description: expect.any(String) as string });
  expect(response.headers['cache-control']).toBe('no-store');
}

/** An HTML page answered in place (never a redirect), with the page headers. */
function expectPage(response: LightMyRequestResponse, status: number, text: string): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers.location).toBeUndefined();
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.body).toContain(text);
}

/** A redirect to REDIRECT_URI with exactly `parameters` plus `state` and `iss`. */
function expectBack(
  response: LightMyRequestResponse,
  status: number,
  parameters: Record<string, string>,
  state: string | null = 'st-123',
): URL {
  expect(response.statusCode).toBe(status);
  const location = locationOf(response);
  expect(location.origin + location.pathname).toBe(REDIRECT_URI);
  const expected: Record<string, string> = { ...parameters, iss: BASE };
  if (state !== null) expected.state = state;
  const actual = Object.fromEntries(location.searchParams);
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [name, value] of Object.entries(expected)) {
    if (value === '*') expect(actual[name]).toEqual(expect.any(String));
    else expect(actual[name]).toBe(value);
  }
  expect(location.searchParams.getAll('state')).toHaveLength(state === null ? 0 : 1);
  return location;
}

/** A registered public client and a PKCE pair for it. */
async function publicClient(ctx: TestContext) {
  const { clientId } = await registeredClient(ctx.app, PUBLIC_CLIENT);
  return { clientId, pkce: pkcePair() };
}

/** Open the sign-in page of a good request of a new public client. */
async function goodPage(
  ctx: TestContext,
): Promise<{ page: OpenedPage; clientId: string; verifier: string }> {
  const { clientId, pkce } = await publicClient(ctx);
  const page = await openPage(
    ctx.app,
    authorizePath(authorizeParams(clientId, REDIRECT_URI, pkce.challenge)),
  );
  return { page, clientId, verifier: pkce.verifier };
}

describe('discovery documents', () => {
  it('the authorization-server metadata has exactly the expected fields', async () => {
    const ctx = await start();
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-authorization-server',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      issuer: BASE,
      authorization_endpoint: `${BASE}/oauth/authorize`,
      token_endpoint: `${BASE}/oauth/token`,
      registration_endpoint: `${BASE}/oauth/register`,
      revocation_endpoint: `${BASE}/oauth/revoke`,
      scopes_supported: ['mcp'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: [
        'none',
        'client_secret_post',
        'client_secret_basic',
      ],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${BASE}/docs`,
    });
  });

  it('the protected-resource metadata of /mcp names the issuer and the mcp scope', async () => {
    const ctx = await start();
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      resource: `${BASE}/mcp`,
      authorization_servers: [BASE],
      scopes_supported: ['mcp'],
    });
  });
});

describe('POST /oauth/register', () => {
  it('registers a public client: 201, no secret, the metadata echoed', async () => {
    const ctx = await start();
    const response = await registerClient(ctx.app, PUBLIC_CLIENT);
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<Record<string, unknown>>();
    expect(body).toEqual({
      client_id: expect.stringMatching(/^mcpc_[0-9A-Za-z]{12}$/) as string,
      client_id_issued_at: Math.floor(ctx.clock.now() / 1000),
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Test client',
    });
    expect(body).not.toHaveProperty('client_secret');
    expect(body).not.toHaveProperty('client_secret_expires_at');
  });

  it('the default auth method is client_secret_basic: a secret is issued that never expires', async () => {
    const ctx = await start();
    const response = await registerClient(ctx.app, { redirect_uris: [REDIRECT_URI] });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      client_secret: expect.stringMatching(/^mcp_cs_[0-9A-Za-z]{43}$/) as string,
      client_secret_expires_at: 0,
    });
  });

  it.each([
    ['http on a non-loopback host', 'http://client.example.com/callback'],
    ['a javascript: URI', 'javascript:alert(1)'],
    ['a URI with a fragment', 'https://client.example.com/callback#frag'],
    ['an empty fragment', 'https://client.example.com/callback#'],
    ['a relative URI', '/callback'],
    // Issue 14: what reads like claude.ai but goes elsewhere, and schemes outside RFC 8252 §7.
    ['a backslash before an @', 'https://evil.example\\@claude.ai/cb'],
    ['user information', 'https://claude.ai@evil.example/cb'],
    ['a tab in the host', 'https://claude.ai\t.evil.example/cb'],
    ['https without //', 'https:evil.example/cb'],
    ['a scheme without a period', 'myapp://callback'],
    ['a data: URI', 'data:text/html,hi'],
    ['a file: URI', 'file:///tmp/cb'],
  ])('refuses %s with 400 invalid_redirect_uri', async (_name, uri) => {
    const ctx = await start();
    const response = await registerClient(ctx.app, { ...PUBLIC_CLIENT, redirect_uris: [uri] });
    expectOAuthError(response, 400, 'invalid_redirect_uri');
  });

  it('accepts a reverse-DNS app scheme (RFC 8252 §7.1)', async () => {
    const ctx = await start();
    const response = await registerClient(ctx.app, {
      ...PUBLIC_CLIENT,
      redirect_uris: ['com.example.app:/oauth2redirect'],
    });
    expect(response.statusCode).toBe(201);
  });

  it('accepts http on a loopback host', async () => {
    const ctx = await start();
    const response = await registerClient(ctx.app, {
      ...PUBLIC_CLIENT,
      redirect_uris: ['http://127.0.0.1:6276/cb', 'http://localhost/cb', 'http://[::1]:80/cb'],
    });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['grant_types client_credentials', { ...PUBLIC_CLIENT, grant_types: ['client_credentials'] }],
    ['no redirect_uris', { token_endpoint_auth_method: 'none' }],
    ['empty redirect_uris', { ...PUBLIC_CLIENT, redirect_uris: [] }],
    ['response_types token', { ...PUBLIC_CLIENT, response_types: ['token'] }],
    ['an unknown auth method', { ...PUBLIC_CLIENT, token_endpoint_auth_method: 'private_key_jwt' }],
  ])('refuses %s with 400 invalid_client_metadata', async (_name, metadata) => {
    const ctx = await start();
    expectOAuthError(await registerClient(ctx.app, metadata), 400, 'invalid_client_metadata');
  });

  it('a body over 16 KiB is refused with 400 invalid_request', async () => {
    const ctx = await start();
    const response = await registerClient(ctx.app, {
      ...PUBLIC_CLIENT,
      software_statement: 'x'.repeat(17 * 1024),
    });
    expectOAuthError(response, 400, 'invalid_request');
  });

  it('a registration survives an app restart on the same database file', async () => {
    const ctx = await start();
    const { clientId } = await registeredClient(ctx.app, PUBLIC_CLIENT);
    await ctx.app.close();
    await ctx.store.close();

    const store = await openStore(ctx.config.store);
    const app = await buildApp({
      config: ctx.config,
      store,
      engine: sharedEngine(),
      clock: ctx.clock,
      logger: createLogger('error', logCapture()),
    });
    try {
      expect(await store.oauth.findClient(clientId)).toMatchObject({
        id: clientId,
        secretHash: null,
        authMethod: 'none',
        redirectUris: [REDIRECT_URI],
        grantTypes: ['authorization_code', 'refresh_token'],
        name: 'Test client',
      });
      const page = await app.inject({
        method: 'GET',
        url: authorizePath(authorizeParams(clientId, REDIRECT_URI, pkcePair().challenge)),
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<strong>Test client</strong>');
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('the 31st registration from one IP within a minute is 429 rate_limited with retry-after', async () => {
    const ctx = await start();
    for (let i = 0; i < 30; i += 1) {
      // The hourly per-source cap (20) counts on the app's clock; this budget on real time.
      if (i === 15) ctx.clock.advance(HOUR + 1);
      expect((await registerClient(ctx.app, PUBLIC_CLIENT)).statusCode).toBe(201);
    }
    const refused = await registerClient(ctx.app, PUBLIC_CLIENT);
    expectOAuthError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address still has its budget.
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/register',
      remoteAddress: '192.0.2.7',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(PUBLIC_CLIENT),
    });
    expect(other.statusCode).toBe(201);
  });
});

describe('per-source caps of registrations and sign-in pages (issue 14)', () => {
  const from = (ctx: TestContext, remoteAddress: string, path: string, body?: unknown) =>
    ctx.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url: path,
      remoteAddress,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
    });

  it('the 21st registration of a source within an hour is 429 with Retry-After; an IPv6 /64 is one source', async () => {
    const ctx = await start();
    // Spread over the hour, so the per-minute budget (30) is not what refuses.
    for (let i = 0; i < 20; i += 1) {
      const address = `2001:db8:1:2::${(i + 1).toString(16)}`;
      expect((await from(ctx, address, '/oauth/register', PUBLIC_CLIENT)).statusCode).toBe(201);
      ctx.clock.advance(2 * MINUTE);
    }
    // Another address of the same /64, 40 minutes after the first registration.
    const refused = await from(ctx, '2001:db8:1:2:ffff::1', '/oauth/register', PUBLIC_CLIENT);
    expectOAuthError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBe(20 * 60);
    // Another /64 and an IPv4 source are not affected.
    expect((await from(ctx, '2001:db8:1:3::1', '/oauth/register', PUBLIC_CLIENT)).statusCode).toBe(
      201,
    );
    expect((await from(ctx, '192.0.2.9', '/oauth/register', PUBLIC_CLIENT)).statusCode).toBe(201);
    // Once the first registration leaves the hour, the source may register again.
    ctx.clock.advance(20 * MINUTE);
    expect((await from(ctx, '2001:db8:1:2::77', '/oauth/register', PUBLIC_CLIENT)).statusCode).toBe(
      201,
    );
  });

  it('an 11th open sign-in page of a source is a 429 page with Retry-After until one expires', async () => {
    const ctx = await start();
    const { clientId } = await registeredClient(ctx.app, PUBLIC_CLIENT);
    const path = () => authorizePath(authorizeParams(clientId, REDIRECT_URI, pkcePair().challenge));
    for (let i = 0; i < 10; i += 1) {
      expect((await from(ctx, '198.51.100.4', path())).statusCode).toBe(200);
      ctx.clock.advance(MINUTE / 2);
    }
    // Five minutes in: the first page expires at ten.
    const refused = await from(ctx, '198.51.100.4', path());
    expectPage(refused, 429, 'Too many sign-in pages are open from this network.');
    expect(refused.body).not.toContain('<form');
    expect(Number(refused.headers['retry-after'])).toBe(5 * 60);
    expect((await from(ctx, '198.51.100.5', path())).statusCode).toBe(200);
    ctx.clock.advance(5 * MINUTE);
    expect((await from(ctx, '198.51.100.4', path())).statusCode).toBe(200);
  });
});

describe('GET /oauth/authorize', () => {
  it('an unknown client gets a 400 page and no redirect', async () => {
    const ctx = await start();
    const response = await ctx.app.inject({
      method: 'GET',
      url: authorizePath(authorizeParams('mcpc_000000000000', REDIRECT_URI, pkcePair().challenge)),
    });
    expectPage(response, 400, 'This client is not registered with linkguard.');
  });

  it.each([
    ['another host', 'https://evil.example.com/oauth/callback'],
    ['another path', 'https://client.example.com/oauth/callback2'],
    ['an added query', 'https://client.example.com/oauth/callback?x=1'],
  ])('a redirect_uri on %s gets a 400 page and no redirect', async (_name, uri) => {
    const ctx = await start();
    const { clientId, pkce } = await publicClient(ctx);
    const response = await ctx.app.inject({
      method: 'GET',
      url: authorizePath(authorizeParams(clientId, uri, pkce.challenge)),
    });
    expectPage(response, 400, 'is not registered for this client');
    expect(response.body).not.toContain('<form');
  });

  it.each([
    ['missing code_challenge', { code_challenge: '' }, 'invalid_request'],
    ['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: '' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a resource of another server', { resource: 'https://other.example/mcp' }, 'invalid_target'],
  ])(
    '%s is sent back to the client with the error, state and iss',
    async (_name, change, error) => {
      const ctx = await start();
      const { clientId, pkce } = await publicClient(ctx);
      const params = authorizeParams(clientId, REDIRECT_URI, pkce.challenge, change);
      const response = await ctx.app.inject({ method: 'GET', url: authorizePath(params) });
      expectBack(response, 302, { error, error_description: '*' });
      expect(response.headers['set-cookie']).toBeUndefined();
    },
  );

  it('a duplicated parameter is sent back as invalid_request', async () => {
    const ctx = await start();
    const { clientId, pkce } = await publicClient(ctx);
    const params = Object.entries(authorizeParams(clientId, REDIRECT_URI, pkce.challenge));
    const response = await ctx.app.inject({
      method: 'GET',
      url: authorizePath([...params, ['scope', 'mcp']]),
    });
    const location = expectBack(response, 302, {
      error: 'invalid_request',
      error_description: '*',
    });
    expect(location.searchParams.get('error_description')).toContain('scope');
  });

  it('a good request shows the page with its security headers and a strict CSRF cookie', async () => {
    const ctx = await start();
    const { page, clientId } = await goodPage(ctx);
    const response = page.response;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');

    const csp = String(response.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d): [string, string] => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'self' https://client.example.com");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.has('script-src')).toBe(false);

    const requestId = page.fields.request_id ?? '';
    const csrf = page.fields.csrf_token ?? '';
    expect(requestId).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(csrf).toMatch(/^[0-9A-Za-z]{43}$/);
    const [pair = '', ...attributes] = page.setCookie.split(/;\s*/);
    const cookieName = `lg_csrf_${hashSecret(requestId).toString('hex').slice(0, 16)}`;
    expect(pair).toBe(`${cookieName}=${csrf}`);
    expect(attributes.map((a) => a.toLowerCase()).sort()).toEqual(
      ['HttpOnly', 'Max-Age=600', 'Path=/oauth/authorize', 'SameSite=Strict', 'Secure']
        .map((a) => a.toLowerCase())
        .sort(),
    );

    expect(response.body).toContain(`<form method="post" action="${BASE}/oauth/authorize">`);
    expect(response.body).toContain(REDIRECT_URI);
    expect(response.body).toContain('<strong>Test client</strong>');
    expect(response.body).not.toContain('role="alert"');
    expect(clientId).toMatch(/^mcpc_/);
  });

  it('names a look-alike host in ASCII (punycode) beside its Unicode form', async () => {
    const ctx = await start();
    // Cyrillic а (U+0430) in place of the Latin a of paypal.
    const lookalike = 'https://p\u0430ypal.com/callback';
    const { clientId } = await registeredClient(ctx.app, {
      ...PUBLIC_CLIENT,
      redirect_uris: [lookalike],
    });
    const page = await openPage(
      ctx.app,
      authorizePath(authorizeParams(clientId, lookalike, pkcePair().challenge)),
    );
    const body = page.response.body;
    expect(body).toContain('<span class="where">https://xn--pypal-4ve.com/callback</span>');
    expect(body).toContain(
      'Site: <span class="host" title="host in ASCII">xn--pypal-4ve.com</span>, written in Unicode as <span class="host" title="host in Unicode">p\u0430ypal.com</span>.',
    );
    expect(String(page.response.headers['content-security-policy'])).toContain(
      "form-action 'self' https://xn--pypal-4ve.com",
    );
  });

  it('names an ASCII host once, and a loopback or app redirect for what it is', async () => {
    const ctx = await start();
    const { page } = await goodPage(ctx);
    expect(page.response.body).toContain(
      'Site: <span class="host" title="host in ASCII">client.example.com</span></p>',
    );
    expect(page.response.body).not.toContain('written in Unicode');
    for (const [uri, text] of [
      ['http://127.0.0.1:6276/cb', 'a program on this computer'],
      ['com.example.app:/cb', 'opens <span class="host">com.example.app:</span> links'],
    ] as const) {
      const { clientId } = await registeredClient(ctx.app, {
        ...PUBLIC_CLIENT,
        redirect_uris: [uri],
      });
      const opened = await openPage(
        ctx.app,
        authorizePath(authorizeParams(clientId, uri, pkcePair().challenge)),
      );
      expect(opened.response.body).toContain(text);
    }
  });

  // Registered before the rules tightened (written to the store directly): never sent there.
  it.each([
    ['a backslash before an @', 'https://evil.example\\@claude.ai/cb'],
    ['user information', 'https://claude.ai@evil.example/cb'],
    ['a scheme without a period', 'myapp://callback'],
  ])(
    'a stored redirect URI with %s gets a 400 page, no form and no redirect',
    async (_name, uri) => {
      const ctx = await start();
      const clientId = 'mcpc_legacy00000' + String(uri.length % 10);
      await ctx.store.oauth.registerClient({
        id: clientId,
        secretHash: null,
        authMethod: 'none',
        redirectUris: [uri],
        grantTypes: ['authorization_code'],
        name: 'Claude',
        metadata: { redirect_uris: [uri], token_endpoint_auth_method: 'none' },
        createdAt: ctx.clock.now(),
      });
      for (const asked of [uri, undefined]) {
        const params = authorizeParams(clientId, uri, pkcePair().challenge);
        if (asked === undefined) delete params.redirect_uri;
        const response = await ctx.app.inject({ method: 'GET', url: authorizePath(params) });
        expectPage(response, 400, 'The return address registered for this client is not allowed');
        expect(response.body).not.toContain('<form');
      }
    },
  );

  it("escapes the client's name in the page", async () => {
    const ctx = await start();
    const { clientId } = await registeredClient(ctx.app, {
      ...PUBLIC_CLIENT,
      client_name: '<script>alert(1)</script>',
    });
    const page = await openPage(
      ctx.app,
      authorizePath(authorizeParams(clientId, REDIRECT_URI, pkcePair().challenge)),
    );
    expect(page.response.body).toContain('<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>');
    expect(page.response.body).not.toMatch(/<script/i);
  });
});

describe('POST /oauth/authorize', () => {
  it('without the CSRF cookie: 403 page, and the request stays usable with it', async () => {
    const ctx = await start();
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const { page } = await goodPage(ctx);
    const forged = await submitForm(
      ctx.app,
      { ...page.fields, credential: license.raw, action: 'approve' },
      null,
    );
    expectPage(forged, 403, 'The form could not be verified.');

    const real = await submitPage(ctx.app, page, license.raw);
    expectBack(real, 303, { code: '*' });
  });

  it('with the cookie but another csrf_token: 403 page', async () => {
    const ctx = await start();
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const { page } = await goodPage(ctx);
    const response = await submitForm(
      ctx.app,
      {
        ...page.fields,
        csrf_token: generateNonce().raw,
        credential: license.raw,
        action: 'approve',
      },
      page.cookie,
    );
    expectPage(response, 403, 'The form could not be verified.');
  });

  it('Cancel sends the browser back with access_denied and the state', async () => {
    const ctx = await start();
    const { page } = await goodPage(ctx);
    const response = await submitPage(ctx.app, page, '', 'deny');
    expectBack(response, 303, { error: 'access_denied', error_description: '*' });
    // The request is spent.
    expectPage(await submitPage(ctx.app, page, '', 'deny'), 400, EXPIRED);
  });

  it('four wrong credentials re-render the page with an alert; the fifth ends with access_denied', async () => {
    const ctx = await start();
    const { page } = await goodPage(ctx);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await submitPage(ctx.app, page, generateLicense().raw);
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<p class="error" role="alert">');
      // The same request and CSRF token are carried on; no new cookie is set.
      expect(hiddenFields(response.body)).toEqual(page.fields);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const fifth = await submitPage(ctx.app, page, 'sk_live_not_a_key');
    expectBack(fifth, 303, { error: 'access_denied', error_description: '*' });
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    expectPage(await submitPage(ctx.app, page, license.raw), 400, EXPIRED);
  });

  it('registrations, page views and form submissions share the 30-per-minute budget of an IP', async () => {
    const ctx = await start();
    // One registration and one page view so far.
    const { page } = await goodPage(ctx);
    for (let i = 0; i < 28; i += 1) {
      // Kept under the hourly per-source cap (20), which counts on the app's clock.
      if (i === 14) ctx.clock.advance(HOUR + 1);
      expect((await registerClient(ctx.app, PUBLIC_CLIENT)).statusCode).toBe(201);
    }
    ctx.clock.advance(-(HOUR + 1)); // the page is still within its 10 minutes
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const refused = await submitPage(ctx.app, page, license.raw);
    expectPage(refused, 429, 'Too many attempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('a pending request is usable for 10 minutes, then shows the expired page', async () => {
    const ctx = await start();
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const { page: early } = await goodPage(ctx);
    const { page: late } = await goodPage(ctx);
    ctx.clock.advance(10 * MINUTE - 1000);
    expectBack(await submitPage(ctx.app, early, license.raw), 303, { code: '*' });
    ctx.clock.advance(2000);
    expectPage(await submitPage(ctx.app, late, license.raw), 400, EXPIRED);
  });

  it('a double submit of a good form issues one code; the second is the expired page', async () => {
    const ctx = await start();
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const { page } = await goodPage(ctx);
    const first = await submitPage(ctx.app, page, license.raw);
    const location = expectBack(first, 303, { code: '*' });
    expect(location.searchParams.get('code')).toMatch(/^mcp_ac_[0-9A-Za-z]{43}$/);
    expect(first.headers['cache-control']).toBe('no-store');
    expectPage(await submitPage(ctx.app, page, license.raw), 400, EXPIRED);
  });
});

describe('POST /oauth/token', () => {
  /** A code for a public client, through the page. */
  async function codeFor(
    ctx: TestContext,
  ): Promise<{ app: TestApp; clientId: string; code: string; verifier: string }> {
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const { page, clientId, verifier } = await goodPage(ctx);
    const location = locationOf(await submitPage(ctx.app, page, license.raw));
    return { app: ctx.app, clientId, code: location.searchParams.get('code') ?? '', verifier };
  }

  it('a JSON body is refused with 400 invalid_request', async () => {
    const ctx = await start();
    const { clientId, code, verifier } = await codeFor(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }),
    });
    expectOAuthError(response, 400, 'invalid_request');
    expect(response.headers.pragma).toBe('no-cache');
  });

  it('token responses, successful or not, carry cache-control no-store', async () => {
    const ctx = await start();
    const { app, clientId, code, verifier } = await codeFor(ctx);
    const form = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    const ok = await tokenRequest(app, form);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.headers.pragma).toBe('no-cache');
    expect(ok.json()).toEqual({
      access_token: expect.stringMatching(/^mcp_at_[0-9A-Za-z]{43}$/) as string,
      token_type: 'Bearer',
      expires_in: 30 * 24 * 3600,
      refresh_token: expect.stringMatching(/^mcp_rt_[0-9A-Za-z]{43}$/) as string,
      scope: 'mcp',
    });

    const reused = await tokenRequest(app, form);
    expectOAuthError(reused, 400, 'invalid_grant');
    expect(reused.headers.pragma).toBe('no-cache');
  });
});
