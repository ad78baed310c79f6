/** A table-driven {@link LookupFunction} for tests, counting its calls per name. */
import { isIP } from 'node:net';

import type { LookupFunction, ResolvedAddress } from '../../src/net/index.js';

export interface FakeDns {
  lookup: LookupFunction;
  /** How many times each name was looked up. */
  calls: Map<string, number>;
}

/**
 * Answers from `table`: a list of addresses, a function of the call number (1-based, for
 * rebinding), or `'hang'` for a resolver that never answers. Unknown names reject like NXDOMAIN.
 */
export function fakeDns(
  table: Record<string, readonly string[] | 'hang' | ((call: number) => readonly string[])>,
): FakeDns {
  const calls = new Map<string, number>();
  const lookup: LookupFunction = async (hostname) => {
    const call = (calls.get(hostname) ?? 0) + 1;
    calls.set(hostname, call);
    const entry = table[hostname];
    if (entry === 'hang') return new Promise<never>(() => undefined);
    if (entry === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    const addresses = typeof entry === 'function' ? entry(call) : entry;
    return addresses.map((address): ResolvedAddress => ({ address, family: isIP(address) }));
  };
  return { lookup, calls };
}
