/**
 * The authorization server end to end with oauth4webapi's strict client: discovery (RFC 8414),
 * registration (RFC 7591), PKCE S256, `state` and `iss` checks, the sign-in page with a Premium
 * license, the code exchange bound to `/mcp` (RFC 8707), and the token on `tools/call`.
 */
import * as oauth from 'oauth4webapi';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

import { createPremiumLicense, startListeningApp } from '../helpers/oauth-app.js';
import { authorizeInBrowser } from '../helpers/scripted-browser.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
// The test server speaks plain http on loopback; oauth4webapi marks the opt-out deprecated so
// that it stands out, which is the point here.
// eslint-disable-next-line @typescript-eslint/no-deprecated
const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT_URI = 'http://127.0.0.1:6276/oauth/callback';

describe('authorization server with oauth4webapi', { timeout: 20_000 }, () => {
  it('issues an mcp_at_ token for a license that works on tools/call', async () => {
    const { ctx, base, mcpUrl } = await startListeningApp(start);
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          client_name: 'oauth4webapi test',
        },
        insecure,
      ),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint ?? '');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      scope: 'mcp',
      resource: mcpUrl,
    }).toString();
    const callback = await authorizeInBrowser(url.href, license.raw);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT_URI,
      verifier,
      { additionalParameters: { resource: mcpUrl }, ...insecure },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.access_token).toMatch(/^mcp_at_[0-9A-Za-z]{43}$/);
    expect(tokens.refresh_token).toMatch(/^mcp_rt_[0-9A-Za-z]{43}$/);
    expect(tokens.expires_in).toBe(30 * 24 * 3600);

    const call = await request(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'check_url', arguments: { url: 'https://paypal-login-verify.top/signin' } },
      }),
    });
    expect(call.statusCode).toBe(200);
    const body = (await call.body.json()) as { result: { structuredContent: { verdict: string } } };
    expect(body.result.structuredContent.verdict).toBe('danger');
  });
});
