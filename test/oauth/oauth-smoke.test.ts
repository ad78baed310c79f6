/**
 * The authorization server end to end with oauth4webapi's strict client: discovery (RFC 8414),
 * registration (RFC 7591), PKCE S256, `state` and `iss` checks, the sign-in page with a Premium
 * license, the code exchange bound to `/mcp` (RFC 8707), and the token on `tools/call`. The steps
 * are the helpers of `oauth4webapi-client.ts`, which the refusal tests build on.
 */
import { describe, expect, it } from 'vitest';

import { createPremiumLicense, startListeningApp } from '../helpers/oauth-app.js';
import {
  discover,
  expectToolCallWorks,
  obtainTokens,
  registerClient,
} from '../helpers/oauth4webapi-client.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

describe('authorization server with oauth4webapi', { timeout: 20_000 }, () => {
  it('issues an mcp_at_ token for a license that works on tools/call', async () => {
    const { ctx, base, mcpUrl } = await startListeningApp(start);
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());
    const as = await discover(base);
    const { client } = await registerClient(as, { client_name: 'oauth4webapi test' });
    // Authorize in the scripted browser (state and iss validated), then exchange with the verifier.
    const tokens = await obtainTokens(as, client, license.raw, mcpUrl);
    expect(tokens.access_token).toMatch(/^mcp_at_[0-9A-Za-z]{43}$/);
    expect(tokens.refresh_token).toMatch(/^mcp_rt_[0-9A-Za-z]{43}$/);
    expect(tokens.expires_in).toBe(30 * 24 * 3600);
    // tools/call of check_url on a phishing URL: 200 and the `danger` verdict.
    await expectToolCallWorks(mcpUrl, tokens.access_token);
  });
});
