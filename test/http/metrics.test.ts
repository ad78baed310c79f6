/**
 * `GET /metrics` (issue 15, metrics): absent without METRICS_TOKEN, 401 with a Bearer challenge
 * for a wrong or missing token (spending the source's failed-authentication budget), and with
 * the token a Prometheus text exposition holding the request histogram by route template — never
 * a submitted URL, key or path. (The series are read line by line here: the npm text-format
 * parser tried, parse-prometheus-text-format 1.1, merges a labelled histogram's series into one.)
 */
import { describe, expect, it } from 'vitest';

import { CHAIN_ENV, useTestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const startApp = useTestApp();

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const { app } = await startApp({ env: { ...CHAIN_ENV } });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
  });

  it('is 401 with a Bearer challenge for a missing, wrong or malformed token', async () => {
    const { app } = await startApp({ env: { ...CHAIN_ENV, METRICS_TOKEN: TOKEN } });
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer\t${TOKEN}`, TOKEN]) {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_api_key' });
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toContain('metrics-token');
    }
  });

  it('spends the failed-authentication budget: the right token is refused once it is spent', async () => {
    const { app } = await startApp({ env: { ...CHAIN_ENV, METRICS_TOKEN: TOKEN } });
    for (let i = 0; i < 20; i++) {
      await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer no' } });
    }
    const response = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBeDefined();
  });

  it('serves the Prometheus text format with requests by route template, no URL or path in a label', async () => {
    const { app } = await startApp({ env: { ...CHAIN_ENV, METRICS_TOKEN: TOKEN } });
    const secretPath = '/no-such-path-with-a-secret-sk_live_abc';
    await app.inject({ method: 'GET', url: '/v1/status' });
    await app.inject({ method: 'GET', url: secretPath });
    await app.inject({
      method: 'POST',
      url: '/v1/detect',
      headers: { 'content-type': 'application/json' },
      payload: { url: 'https://paypal-login-check.example.com/verify' },
    });
    const response = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const lines = response.body.split('\n');
    expect(lines).toContain('# TYPE http_request_duration_seconds histogram');
    const count = (labels: string): number | undefined => {
      const line = lines.find((l) =>
        l.startsWith(`http_request_duration_seconds_count{${labels}} `),
      );
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    expect(count('method="GET",route="/v1/status",status_code="200"')).toBe(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).toBe(1);
    expect(count('method="POST",route="/v1/detect",status_code="402"')).toBe(1);
    expect(lines).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/status",status_code="200"} 1',
    );
    expect(lines).toContain('# TYPE process_cpu_seconds_total counter');
    expect(response.body).not.toContain('paypal-login-check');
    expect(response.body).not.toContain('sk_live_abc');
  });
});
