/**
 * `linkguard pay-check` (the real CLI as a child process) before it reaches any chain or service:
 * a missing, unreadable or malformed key and a bad --max-price are usage errors (exit 2), and
 * --help warns that a key on the command line is visible to other users. Paying is in
 * pay-check-cli.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';

import { payCheckArgs, type PayCheckTarget, runPayCheck } from '../helpers/pay-check-cli.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

/** A closed loopback port (discard, 9): nothing is ever reached. */
const NOWHERE = 'http://127.0.0.1:9';

describe('linkguard pay-check', () => {
  const dir = useTempDir('linkguard-pay-check-');

  it('rejects a missing, unreadable or malformed key with a usage error (exit 2)', async () => {
    const badFile = join(dir(), 'bad.json');
    writeFileSync(badFile, JSON.stringify([1, 2, 3]));
    const solana: PayCheckTarget = { chain: 'solana', service: NOWHERE, rpcUrl: NOWHERE };
    const base: PayCheckTarget = { ...solana, chain: 'base' };
    const env = { LINKGUARD_BASE_PRIVATE_KEY: '' };
    const results = await Promise.all([
      runPayCheck(payCheckArgs(solana), env),
      runPayCheck(payCheckArgs({ ...solana, keypair: join(dir(), 'missing.json') }), env),
      runPayCheck(payCheckArgs({ ...solana, keypair: badFile }), env),
      runPayCheck(payCheckArgs(base), env),
      runPayCheck(payCheckArgs(base, '--private-key', '0x1234'), env),
      runPayCheck(payCheckArgs(base, '--private-key', `0x${'0'.repeat(64)}`), env),
      runPayCheck(payCheckArgs(base, '--max-price', 'lots'), {
        LINKGUARD_BASE_PRIVATE_KEY: generatePrivateKey(),
      }),
    ]);
    const messages = [
      '--keypair FILE',
      'Cannot read --keypair',
      'not a solana-keygen keypair',
      'LINKGUARD_BASE_PRIVATE_KEY',
      '64 hex digits',
      'not a valid secp256k1 key',
      '--max-price',
    ];
    results.forEach((result, i) => {
      expect(result.code, messages[i]).toBe(2);
      expect(result.stderr).toContain(messages[i]);
    });
    // Seven CLI processes (tsx start-up each) share the machine's cores.
  }, 60_000);

  it('says in --help that a key on the command line is visible to other users', async () => {
    const result = await runPayCheck(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      'visible to other local users in the process list',
    );
  });
});
