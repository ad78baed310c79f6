/**
 * TLS through the pinned connector: the socket goes to the overridden loopback address while SNI
 * and certificate verification use the URL's host name. The certificate is self-signed, made in
 * the test (self-signed-cert.ts), and trusted through `extraCaCertificates`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHttpClient, type HttpClientOptions } from '../../src/net/index.js';
import { expectNetError } from './expect-net-error.js';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';
import { selfSignedCert, type TestCertificate } from './self-signed-cert.js';

let server: LoopbackServer;
let cert: TestCertificate;

beforeAll(async () => {
  cert = selfSignedCert(['secure.test.example']);
  server = await startLoopbackServer({ tls: cert });
});
afterAll(async () => {
  await server.close();
});

async function fetchWith(host: string, options: Partial<HttpClientOptions>) {
  const client = createHttpClient({
    userAgent: 'linkguard-test/1',
    resolveOverrides: [{ host, port: server.port, address: '127.0.0.1' }],
    ...options,
  });
  try {
    return await client.fetch(`https://${host}:${server.port}/ok`, {
      timeoutMs: 3000,
      maxBytes: 1000,
    });
  } finally {
    await client.close();
  }
}

describe('https through a pinned address', { timeout: 10_000 }, () => {
  it('sends the host name as SNI and accepts a certificate valid for it', async () => {
    const result = await fetchWith('secure.test.example', { extraCaCertificates: [cert.cert] });
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe('hello');
    expect(result.address).toBe('127.0.0.1');
    expect(server.requests.at(-1)?.servername).toBe('secure.test.example');
  });

  it('refuses a certificate that is not valid for the host name', async () => {
    const error = await expectNetError(
      fetchWith('other.test.example', { extraCaCertificates: [cert.cert] }),
      'connect_failed',
    );
    expect(error.cause).toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('refuses a certificate it does not trust', async () => {
    const before = server.requests.length;
    const error = await expectNetError(fetchWith('secure.test.example', {}), 'connect_failed');
    expect(error.cause).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(server.requests.length).toBe(before);
  });
});
