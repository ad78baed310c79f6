/**
 * Privacy of the logs (spec §1 "data handling", DESIGN §8): whatever a request carries — the URL,
 * a key, payment proofs, the client address — none of it reaches a log line. And the 500 path:
 * an infrastructure failure answers a generic `internal_error` without internals, and is logged.
 */
import { describe, expect, it } from 'vitest';

import { detect, detectWithKey, jsonBody } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { CHAIN_ENV, useTestApp } from '../helpers/test-app.js';

const CLIENT_IP = '203.0.113.77';
const HOST = 'paypal-secure-login-check.top';
const URL_SUBMITTED = `https://${HOST}/signin/very-private-path?session=zz9plural`;
const X_PAYMENT = Buffer.from(
  JSON.stringify({
    x402Version: 1,
    scheme: 'exact',
    network: 'base',
    payload: { txHash: `0x${'c3'.repeat(32)}`, walletSig: `0x${'d4'.repeat(65)}`, nonce: 'n' },
  }),
).toString('base64');
const TX_SIGNATURE = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' + 'x'.repeat(20);
const UNKNOWN_KEY = `sk_live_${'Z'.repeat(43)}`;

const start = useTestApp({ env: { ...CHAIN_ENV } });

describe('log lines never carry request data', () => {
  it('no URL, host, key, payment proof or client IP in any line', async () => {
    const { app, store, logs } = await start({ logLevel: 'debug' });
    const key = await createEnterpriseKey(store);
    const from = { remoteAddress: CLIENT_IP };

    const statuses = [
      (await detectWithKey(app, URL_SUBMITTED, key.bearer, from)).statusCode,
      (await detect(app, { url: URL_SUBMITTED }, from)).statusCode,
      (await detect(app, { url: `http://${HOST}:99999/` }, from)).statusCode,
      (await detect(app, { url: URL_SUBMITTED, extra: HOST }, from)).statusCode,
      (
        await detect(
          app,
          { url: URL_SUBMITTED },
          { ...from, headers: { 'x-payment': X_PAYMENT, 'x-402-signature': TX_SIGNATURE } },
        )
      ).statusCode,
      (
        await detect(
          app,
          { url: URL_SUBMITTED },
          { ...from, headers: { authorization: `Bearer ${UNKNOWN_KEY}` } },
        )
      ).statusCode,
      (
        await app.inject({
          method: 'POST',
          url: `/v1/detect?target=${encodeURIComponent(URL_SUBMITTED)}`,
          headers: { 'content-type': 'application/json', authorization: key.bearer },
          payload: JSON.stringify({ url: URL_SUBMITTED }),
          remoteAddress: CLIENT_IP,
        })
      ).statusCode,
      (
        await app.inject({
          method: 'POST',
          url: '/v1/detect',
          headers: { 'content-type': 'application/json' },
          payload: `{"url": "${URL_SUBMITTED}"`,
          remoteAddress: CLIENT_IP,
        })
      ).statusCode,
    ];
    expect(statuses).toEqual([200, 402, 400, 400, 402, 401, 200, 400]);

    // The logs exist (request start and end per request), so their absence proves nothing.
    const records = logs.records();
    expect(records.length).toBeGreaterThanOrEqual(2 * statuses.length);
    expect(records.filter((r) => r.msg === 'request completed')).toHaveLength(statuses.length);

    const text = logs.text();
    const secrets = [
      URL_SUBMITTED,
      HOST,
      'very-private-path',
      'zz9plural',
      key.raw,
      key.raw.slice('sk_live_'.length),
      UNKNOWN_KEY,
      X_PAYMENT,
      X_PAYMENT.slice(0, 24),
      TX_SIGNATURE,
      CLIENT_IP,
    ];
    for (const secret of secrets) expect(text, secret).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('x-payment');
  });
});

describe('500 internal_error', () => {
  it('a failing store gives a generic 500 that leaks nothing, and the error is logged', async () => {
    const { app, store, logs } = await start();
    const key = await createEnterpriseKey(store);
    await store.close();

    const response = await detectWithKey(app, URL_SUBMITTED, key.bearer, {
      remoteAddress: CLIENT_IP,
    });
    expect(response.statusCode).toBe(500);
    const body = jsonBody(response);
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'status']);
    expect(body).toMatchObject({ status: 500, error: 'internal_error' });
    for (const leak of [
      /database/i,
      /sqlite/i,
      /select /i,
      /TypeError/,
      /\bat \S+:\d+/,
      /\.ts\b/,
    ]) {
      expect(response.body).not.toMatch(leak);
    }
    expect(response.body).not.toContain(HOST);

    const requestId = response.headers['x-request-id'];
    const errors = logs.records().filter((r) => r.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reqId: requestId, err: { type: 'TypeError' } });
    // Still private: the failure log names the error, not the request's data.
    for (const secret of [HOST, key.raw, CLIENT_IP]) expect(logs.text()).not.toContain(secret);
  });
});
