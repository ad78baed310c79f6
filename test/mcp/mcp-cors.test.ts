/**
 * CORS for browser-based clients: preflights are answered before any authentication, and the
 * headers a browser client must read (the 401 challenge, the payment settlement, rate limits) are
 * exposed.
 */
import { describe, expect, it } from 'vitest';

import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();
const ORIGIN = 'https://agent.example.org';

describe('CORS', () => {
  it('a preflight of a tools/call with Authorization is answered without credentials', async () => {
    const { app } = await start();
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
    const allowed = String(response.headers['access-control-allow-headers']);
    for (const header of ['authorization', 'content-type', 'mcp-protocol-version']) {
      expect(allowed).toContain(header);
    }
  });

  it('the 401 of an unauthenticated tool call exposes WWW-Authenticate to the page', async () => {
    const { app } = await start();
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        origin: ORIGIN,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'check_url', arguments: { url: 'example.com' } },
      }),
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-expose-headers'])).toContain('www-authenticate');
  });

  it('the detect endpoint exposes X-PAYMENT-RESPONSE and the rate-limit headers', async () => {
    const { app } = await start();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/detect',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(response.headers['access-control-expose-headers']);
    expect(exposed).toContain('x-payment-response');
    expect(exposed).toContain('ratelimit-remaining');
    // The draft -11 fields, as whole names in the comma-separated list.
    const names = exposed.split(',').map((name) => name.trim());
    expect(names).toEqual(expect.arrayContaining(['ratelimit-policy', 'ratelimit']));
  });
});
