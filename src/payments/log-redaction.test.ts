import { describe, expect, it } from 'vitest';

import { redactError, redactText, urlOrigin } from './log-redaction.js';

const RPC = 'https://user:p4ssw0rd@rpc.example.com:8443/v2/abcDEF123456?api-key=k3y%2Fvalue&x=1';
const secrets = { rpcUrls: [RPC], values: ['0xAbCdEf0123456789abcdef0123456789ABCDEF01'] };

describe('redactText', () => {
  it('cuts the configured URL, in any spelling or in parts, to its origin', () => {
    const text = [
      `URL: ${RPC}`,
      'URL: https://user:p4ssw0rd@rpc.example.com:8443/v2/abcDEF123456?api-key=k3y%2Fvalue&x=1',
      'path /v2/abcDEF123456 refused',
      'key k3y/value is invalid',
      'user user:p4ssw0rd',
    ].join('\n');
    const out = redactText(text, secrets);
    for (const part of ['abcDEF123456', 'k3y/value', 'k3y%2Fvalue', 'p4ssw0rd', 'api-key']) {
      expect(out).not.toContain(part);
    }
    expect(out).toContain('https://rpc.example.com:8443');
  });

  it('removes other URLs beyond their origin, proof-shaped values and request bodies', () => {
    const out = redactText(
      [
        'redirected to https://other.example/secret/path?token=zzz',
        `hash 0x${'ab'.repeat(32)} and sig 0x${'cd'.repeat(65)}`,
        `signature ${'5'.repeat(88)} nonce 6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f`,
        'Request body: {"method":"eth_getTransactionReceipt","params":["0x12"]}',
        'Details: {"error":"bad key SECR"}',
        'mixed case 0xABCDEF0123456789abcdef0123456789abcdef01',
      ].join('\n'),
      secrets,
    );
    expect(out).toContain('https://other.example');
    for (const leak of [
      '/secret/path',
      'zzz',
      'ab'.repeat(32),
      '5'.repeat(88),
      '6f1c2d4e',
      'eth_get',
      'SECR',
      'ABCDEF0123',
    ]) {
      expect(out).not.toContain(leak);
    }
  });
});

describe('redactError', () => {
  it('keeps type, status and code; drops every other field; redacts causes', () => {
    const inner = Object.assign(new SyntaxError(`Unexpected token in "/v2/abcDEF12"`), {});
    const error = Object.assign(new Error(`HTTP request failed. URL: ${RPC}`, { cause: inner }), {
      status: 401,
      url: RPC,
      body: { params: ['0x12'] },
      headers: { authorization: 'Bearer x' },
    });
    const redacted = redactError(error, secrets, { rpc: urlOrigin(RPC), chain: 'base' });
    expect(redacted).toMatchObject({
      status: 401,
      rpc: 'https://rpc.example.com:8443',
      chain: 'base',
    });
    expect(Object.keys(redacted)).not.toContain('url');
    expect(Object.keys(redacted)).not.toContain('headers');
    const all = `${redacted.message} ${redacted.stack ?? ''} ${(redacted.cause as Error).message} ${(redacted.cause as Error).stack ?? ''}`;
    expect(all).not.toContain('abcDEF12');
    expect((redacted.cause as Error).message).toBe('The response is not valid JSON');
  });
});
