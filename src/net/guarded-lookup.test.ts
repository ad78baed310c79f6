import { describe, expect, it, vi } from 'vitest';

import { guardedLookup, type LookupFunction } from './guarded-lookup.js';
import { NetError } from './net-error.js';
import { parseHopUrl } from './parse-hop-url.js';

const never = new AbortController().signal;
const answers =
  (...addresses: string[]): LookupFunction =>
  () =>
    Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

async function refusal(promise: Promise<unknown>): Promise<NetError> {
  const error: unknown = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NetError);
  return error as NetError;
}

describe('guardedLookup', () => {
  it('an override answers its exact host:port, unchecked, without a lookup', async () => {
    const lookup = vi.fn(answers('8.8.8.8'));
    const overrides = [{ host: 'feeds.test.example', port: 8080, address: '127.0.0.1' }];
    const url = parseHopUrl('http://FEEDS.test.example:8080/x');
    await expect(guardedLookup(url, { overrides, lookup, signal: never })).resolves.toEqual({
      address: '127.0.0.1',
      overridden: true,
    });
    expect(lookup).not.toHaveBeenCalled();
    // Default port 80 is not 8080: looked up and checked as usual.
    await expect(
      guardedLookup(parseHopUrl('http://feeds.test.example/x'), {
        overrides,
        lookup,
        signal: never,
      }),
    ).resolves.toEqual({ address: '8.8.8.8', overridden: false });
  });

  it('the effective port of https is 443', async () => {
    const overrides = [{ host: 'a.test.example', port: 443, address: '::1' }];
    const url = parseHopUrl('https://a.test.example/');
    await expect(
      guardedLookup(url, { overrides, lookup: answers(), signal: never }),
    ).resolves.toMatchObject({ address: '::1' });
  });

  it('a public literal is used as is; a mapped one is unwrapped', async () => {
    const lookup = vi.fn(answers());
    const options = { overrides: [], lookup, signal: never };
    await expect(guardedLookup(parseHopUrl('http://8.8.8.8/'), options)).resolves.toMatchObject({
      address: '8.8.8.8',
    });
    await expect(
      guardedLookup(parseHopUrl('http://[::ffff:8.8.8.8]/'), options),
    ).resolves.toMatchObject({ address: '8.8.8.8' });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('prefers the first IPv4 answer', async () => {
    const lookup = answers('2606:4700:4700::1111', '1.1.1.1', '1.0.0.1');
    await expect(
      guardedLookup(parseHopUrl('http://one.test.example/'), {
        overrides: [],
        lookup,
        signal: never,
      }),
    ).resolves.toEqual({ address: '1.1.1.1', overridden: false });
    await expect(
      guardedLookup(parseHopUrl('http://one.test.example/'), {
        overrides: [],
        lookup: answers('2606:4700:4700::1111'),
        signal: never,
      }),
    ).resolves.toEqual({ address: '2606:4700:4700::1111', overridden: false });
  });

  it.each([
    [['1.1.1.1', '192.168.0.10']],
    [['127.0.0.1']],
    [['2001:db8::1']],
    [['::ffff:10.0.0.1']],
    [['not-an-address']],
  ])('refuses a name resolving to %j', async (addresses) => {
    const error = await refusal(
      guardedLookup(parseHopUrl('http://x.test.example/'), {
        overrides: [],
        lookup: answers(...addresses),
        signal: never,
      }),
    );
    expect(error).toMatchObject({ code: 'blocked_address', url: 'http://x.test.example/' });
  });

  it('a resolver error or no answer is dns_failure', async () => {
    const failing: LookupFunction = () => Promise.reject(new Error('ENOTFOUND'));
    const url = parseHopUrl('http://x.test.example/');
    expect(
      await refusal(guardedLookup(url, { overrides: [], lookup: failing, signal: never })),
    ).toMatchObject({
      code: 'dns_failure',
    });
    expect(
      await refusal(guardedLookup(url, { overrides: [], lookup: answers(), signal: never })),
    ).toMatchObject({
      code: 'dns_failure',
    });
  });

  it('an abort ends the wait for the resolver with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const pending = guardedLookup(parseHopUrl('http://x.test.example/'), {
      overrides: [],
      lookup: () => new Promise(() => undefined),
      signal: controller.signal,
    });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
