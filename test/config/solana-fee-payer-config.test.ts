/**
 * SOLANA_FEE_PAYER_KEYPAIR: a solana-keygen key pair file's path or its content (a JSON array of
 * 64 bytes). A bad value stops start-up with a ConfigError naming the variable and repeating
 * neither the value, the path nor the file; the parsed key pair shows only its address when the
 * configuration is serialized or inspected.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

import { createKeyPairSignerFromBytes } from '@solana/kit';
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

/** A fresh key pair in solana-keygen's layout: secret key (32 bytes), then public key. */
function keypairBytes(): number[] {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return [
    ...privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32),
    ...publicKey.export({ format: 'der', type: 'spki' }).subarray(-32),
  ];
}

function configError(value: string): ConfigError {
  try {
    loadConfig({ SOLANA_FEE_PAYER_KEYPAIR: value });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('loadConfig accepted the value');
}

describe('SOLANA_FEE_PAYER_KEYPAIR', () => {
  const dir = useTempDir('fee-payer-');

  it('is unset by default: no fee payer', () => {
    expect(loadConfig({}).payments.solanaFeePayerKeypair).toBeNull();
  });

  it('reads a solana-keygen file and the same array given inline, with the address kit derives', async () => {
    const bytes = keypairBytes();
    const path = join(dir(), 'fee-payer.json');
    writeFileSync(path, `${JSON.stringify(bytes)}\n`);
    const expected = (await createKeyPairSignerFromBytes(Uint8Array.from(bytes))).address;
    for (const value of [path, JSON.stringify(bytes), ` ${JSON.stringify(bytes, null, 1)} `]) {
      const keypair = loadConfig({ SOLANA_FEE_PAYER_KEYPAIR: value }).payments
        .solanaFeePayerKeypair;
      expect(keypair?.address).toBe(expected);
      expect([...(keypair?.keypairBytes() ?? [])]).toEqual(bytes);
    }
  });

  it('shows only the address when the configuration is serialized or inspected', () => {
    const bytes = keypairBytes();
    const config = loadConfig({ SOLANA_FEE_PAYER_KEYPAIR: JSON.stringify(bytes) });
    const secretHalf = bytes.slice(0, 32).join(',');
    const json = JSON.stringify(config, (_key, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    expect(json).toContain(config.payments.solanaFeePayerKeypair?.address);
    expect(json.replace(/\s/g, '')).not.toContain(secretHalf);
    expect(inspect(config, { depth: 10 }).replace(/\s/g, '')).not.toContain(secretHalf);
    // A copy: changing it leaves the configured key pair whole.
    const copy = config.payments.solanaFeePayerKeypair?.keypairBytes();
    copy?.fill(0);
    expect([...(config.payments.solanaFeePayerKeypair?.keypairBytes() ?? [])]).toEqual(bytes);
  });

  it('refuses a path that cannot be read, without naming it', () => {
    const path = join(dir(), 'no-such-keypair-3c9e.json');
    const error = configError(path);
    expect(error.message).toMatch(/^SOLANA_FEE_PAYER_KEYPAIR .*cannot be read \(ENOENT\)/);
    expect(error.message).not.toContain('no-such-keypair-3c9e');
  });

  it('refuses what is not 64 bytes as JSON, without repeating it', () => {
    const bytes = keypairBytes();
    const base58Like = '4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw9'.repeat(2);
    const cases = [
      base58Like, // a base58 secret key (a wallet's export) is taken for a path
      '[1,2,3',
      JSON.stringify(bytes.slice(0, 63)),
      JSON.stringify([...bytes.slice(0, 63), 256]),
      JSON.stringify([...bytes.slice(0, 63), 1.5]),
      JSON.stringify({ secretKey: bytes }),
    ];
    for (const value of cases) {
      const error = configError(value);
      expect(error.message).toMatch(/^SOLANA_FEE_PAYER_KEYPAIR must be a solana-keygen key pair/);
      expect(error.message).not.toContain(base58Like);
      expect(error.message).not.toContain(bytes.slice(0, 8).join(','));
    }
    const path = join(dir(), 'not-json.json');
    writeFileSync(path, 'secret-words-not-json');
    expect(configError(path).message).not.toContain('secret-words');
    const big = join(dir(), 'big.json');
    writeFileSync(big, ' '.repeat(5000));
    expect(configError(big).message).toMatch(/larger than 4 KiB/);
  });

  it('refuses a public half that does not belong to the secret half', () => {
    const mixed = [...keypairBytes().slice(0, 32), ...keypairBytes().slice(32)];
    expect(configError(JSON.stringify(mixed)).message).toBe(
      'SOLANA_FEE_PAYER_KEYPAIR: its last 32 bytes are not the public key of its first 32',
    );
  });
});
