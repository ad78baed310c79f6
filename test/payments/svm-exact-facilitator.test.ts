/**
 * The Solana `exact` schemes (src/payments/exact/svm-exact-facilitator.ts) inside a real
 * `x402Facilitator`, on Surfpool (a real SPL mint at the mainnet USDC address). Every payment is
 * built and signed by an unmodified official client: `@x402/svm`'s exact client through
 * `x402Client` (protocol v2), `x402`'s `createPaymentHeader` (what `x402-fetch` 1.2.0 calls) and
 * `@x402/svm`'s exact/v1 client (protocol v1). The wrong ones are built by the same clients from
 * requirements that differ from the ones verified (amount, recipient, memo).
 */
import { inspect } from 'node:util';

import {
  type Address,
  createSolanaRpc,
  generateKeyPairSigner,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { ExactSvmSchemeV1 } from '@x402/svm/exact/v1/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPaymentHeader } from 'x402/client';
import { decodePayment } from 'x402/schemes';
import { PaymentRequirementsSchema } from 'x402/types';

import {
  type LocalSolana,
  type RpcProxy,
  startLocalSolana,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';
import { loadConfig } from '../../src/config/config.js';
import {
  createSvmExactFacilitatorSchemes,
  FEE_ABOVE_LIMIT_REASON,
  type SvmExactFacilitatorSchemes,
} from '../../src/payments/exact/svm-exact-facilitator.js';
import { createSolanaVerifier } from '../../src/payments/solana-verifier.js';
import { ChainUnavailableError } from '../../src/payments/verification.js';
import { keypairFile } from '../helpers/keypair-file.js';
import {
  RPC_PATH_KEY,
  RPC_QUERY_KEY,
  type RpcFailureMode,
  startMisbehavingRpc,
} from '../helpers/misbehaving-rpc.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const PRICE = 10_000n;
const RESOURCE = 'http://127.0.0.1/v1/detect';
const RPC_TIMEOUT_MS = 2000;

let chain: LocalSolana;
let proxy: RpcProxy;
let feePayerBytes: Uint8Array;
let schemes: SvmExactFacilitatorSchemes;
let facilitator: x402Facilitator;
const tempDir = useTempDir('svm-exact-');

beforeAll(async () => {
  chain = await startLocalSolana();
  proxy = await startRpcProxy(chain.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
  await chain.stop();
});
afterEach(() => {
  proxy.setMode('up');
});

let ready: Promise<void> | undefined;
/**
 * The fee payer and the facilitator, made by the first test that needs them (`keypairFile` polls
 * the chain with `expect.poll`, which runs only inside a test). The fee payer comes the way an
 * operator gives it: a solana-keygen file named by SOLANA_FEE_PAYER_KEYPAIR.
 */
function useFacilitator(): Promise<void> {
  ready ??= (async () => {
    const file = await keypairFile(chain, tempDir(), 0n);
    const config = loadConfig({ SOLANA_FEE_PAYER_KEYPAIR: file.path, SOLANA_RPC_URL: proxy.url });
    const keypair = config.payments.solanaFeePayerKeypair;
    if (keypair === null) throw new Error('SOLANA_FEE_PAYER_KEYPAIR was not read');
    expect(keypair.address).toBe(file.address);
    feePayerBytes = keypair.keypairBytes();
    schemes = await createSvmExactFacilitatorSchemes({
      feePayerKeypair: feePayerBytes,
      rpcUrl: config.payments.solanaRpcUrl,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
    });
    facilitator = new x402Facilitator()
      .register(schemes.networkV2, schemes.v2)
      .registerV1(schemes.networkV1, schemes.v1);
  })();
  return ready;
}

interface Parties {
  payer: KeyPairSigner;
  recipient: Address;
}

/**
 * A payer with 1 USDC and a fresh recipient whose USDC account exists: the `exact` client
 * transfers to the recipient's associated token account and does not create it.
 */
async function parties(): Promise<Parties> {
  await useFacilitator();
  const payer = await chain.newFundedWallet(1_000_000n);
  const recipient = (await generateKeyPairSigner()).address;
  await chain.fundToken(recipient, chain.usdcMint, 0n);
  return { payer, recipient };
}

/** A v2 `exact` offer as the 402 makes it: the nonce bound through `extra.memo`. */
function offerV2(
  recipient: Address,
  nonce: string,
  amount = PRICE,
  feePayer: string = schemes.feePayer,
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: schemes.networkV2,
    amount: amount.toString(),
    asset: chain.usdcMint,
    payTo: recipient,
    maxTimeoutSeconds: 60,
    extra: { feePayer, memo: `linkguard:${nonce}` },
  };
}

/** A v1 `exact` offer: no memo, which `x402`'s client would not write. */
function offerV1(recipient: Address, amount = PRICE): PaymentRequirements {
  const offer = {
    scheme: 'exact',
    network: schemes.networkV1,
    maxAmountRequired: amount.toString(),
    resource: RESOURCE,
    description: 'linkguard verdict',
    mimeType: 'application/json',
    asset: chain.usdcMint,
    payTo: recipient,
    maxTimeoutSeconds: 60,
    extra: { feePayer: schemes.feePayer },
  };
  // The v1 schema the official v1 client parses every offer with.
  PaymentRequirementsSchema.parse(offer);
  return offer as unknown as PaymentRequirements;
}

/** `@x402/svm`'s exact client, through `x402Client` and the header codec, as `@x402/fetch` does. */
async function payV2(payer: KeyPairSigner, offer: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client().register(
    schemes.networkV2,
    new ExactSvmScheme(payer, { rpcUrl: chain.rpcUrl }),
  );
  const payload = await client.createPaymentPayload({
    x402Version: 2,
    resource: { url: RESOURCE },
    accepts: [offer],
  });
  return decodePaymentSignatureHeader(encodePaymentSignatureHeader(payload));
}

/** `x402`'s v1 client: the `createPaymentHeader` call `x402-fetch` makes, then the header decoded. */
async function payV1Legacy(
  payer: KeyPairSigner,
  offer: PaymentRequirements,
): Promise<PaymentPayload> {
  const header = await createPaymentHeader(payer, 1, offer as never, {
    svmConfig: { rpcUrl: chain.rpcUrl },
  });
  return decodePayment(header) as unknown as PaymentPayload;
}

/** `@x402/svm`'s exact/v1 client through `x402Client`. */
async function payV1(payer: KeyPairSigner, offer: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client().registerV1(
    schemes.networkV1,
    new ExactSvmSchemeV1(payer, { rpcUrl: chain.rpcUrl }),
  );
  return client.createPaymentPayload({
    x402Version: 1,
    accepts: [offer],
  } as never);
}

async function lamportsOf(address: string): Promise<bigint> {
  const rpc = createSolanaRpc(chain.rpcUrl);
  const { value } = await rpc.getBalance(address as Address, { commitment: 'confirmed' }).send();
  return value;
}

async function feeOf(signature: string): Promise<bigint> {
  const rpc = createSolanaRpc(chain.rpcUrl);
  const tx = await rpc
    .getTransaction(signature as Signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  if (tx?.meta == null) throw new Error('the settled transaction is not on chain');
  return tx.meta.fee;
}

describe('official clients pay; the service settles as fee payer', () => {
  it('v2 (@x402/svm exact client): verified, settled, the memo carries our nonce', async () => {
    const { payer, recipient } = await parties();
    const offer = offerV2(recipient, 'nonce-v2-1');
    const payload = await payV2(payer, offer);
    const feePayerBefore = await lamportsOf(schemes.feePayer);

    await expect(facilitator.verify(payload, offer)).resolves.toMatchObject({
      isValid: true,
      payer: payer.address,
    });
    const settled = await facilitator.settle(payload, offer);
    expect(settled).toMatchObject({
      success: true,
      network: schemes.networkV2,
      payer: payer.address,
    });

    expect(await chain.tokenBalance(recipient, chain.usdcMint)).toBe(PRICE);
    expect(await chain.tokenBalance(payer.address, chain.usdcMint)).toBe(1_000_000n - PRICE);
    // The fee payer paid the network fee (two signatures, 5,000 lamports each, and a priority
    // fee of at most one lamport) and nothing else.
    const fee = await feeOf(settled.transaction);
    expect(fee).toBeGreaterThanOrEqual(10_000n);
    // Surfpool 1.5 leaves the priority fee (20,000 units at 1 µlamport: 1 lamport rounded up)
    // out of `meta.fee` but charges it.
    const spent = feePayerBefore - (await lamportsOf(schemes.feePayer));
    expect(spent).toBeGreaterThanOrEqual(fee);
    expect(spent).toBeLessThanOrEqual(10_001n);

    // The same transaction passes the spec flow's verifier with the memo `<prefix>:<nonce>`:
    // the nonce binding is the one the spec's Solana proofs already have.
    const verifier = createSolanaVerifier({
      rpcUrl: chain.rpcUrl,
      recipient,
      mint: chain.usdcMint,
      minAmountAtomic: PRICE,
      commitment: 'confirmed',
      timeoutMs: 5000,
    });
    const proof = { chain: 'solana' as const, txSignature: settled.transaction, nonce: 'x' };
    await expect(verifier.verify(proof, 'linkguard:nonce-v2-1')).resolves.toMatchObject({
      ok: true,
      payer: payer.address,
      amountAtomic: PRICE,
    });
    await expect(verifier.verify(proof, 'linkguard:other')).resolves.toMatchObject({
      ok: false,
      reason: 'memo_mismatch',
    });
  });

  it('v1 (x402 createPaymentHeader, the code x402-fetch runs): verified and settled', async () => {
    const { payer, recipient } = await parties();
    const offer = offerV1(recipient);
    const payload = await payV1Legacy(payer, offer);
    await expect(facilitator.verify(payload, offer)).resolves.toMatchObject({ isValid: true });
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({
      success: true,
      network: 'solana',
      payer: payer.address,
    });
    expect(await chain.tokenBalance(recipient, chain.usdcMint)).toBe(PRICE);
  });

  it('v1 (@x402/svm exact/v1 client): verified and settled', async () => {
    const { payer, recipient } = await parties();
    const offer = offerV1(recipient);
    const payload = await payV1(payer, offer);
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({
      success: true,
      payer: payer.address,
    });
    expect(await chain.tokenBalance(recipient, chain.usdcMint)).toBe(PRICE);
  });
});

describe('what does not pay', () => {
  /** Verify and settle `payload` against `offer`: both refuse with `reason`, nothing moves. */
  async function expectRefused(
    payload: PaymentPayload,
    offer: PaymentRequirements,
    parties: Parties,
    reason: string,
  ): Promise<void> {
    await expect(facilitator.verify(payload, offer)).resolves.toMatchObject({
      isValid: false,
      invalidReason: reason,
    });
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({
      success: false,
      errorReason: reason,
      transaction: '',
    });
    expect(await chain.tokenBalance(parties.payer.address, chain.usdcMint)).toBe(1_000_000n);
    expect(await chain.tokenBalance(parties.recipient, chain.usdcMint)).toBe(0n);
  }

  it('a wrong amount (v2 and v1)', async () => {
    const p = await parties();
    await expectRefused(
      await payV2(p.payer, offerV2(p.recipient, 'n-amount', PRICE - 1n)),
      offerV2(p.recipient, 'n-amount'),
      p,
      'invalid_exact_svm_payload_amount_mismatch',
    );
    await expectRefused(
      await payV1Legacy(p.payer, offerV1(p.recipient, PRICE - 1n)),
      offerV1(p.recipient),
      p,
      'invalid_exact_svm_payload_amount_mismatch',
    );
  });

  it('a wrong recipient (v2 and v1)', async () => {
    const p = await parties();
    const other = (await parties()).recipient;
    await expectRefused(
      await payV2(p.payer, offerV2(other, 'n-recipient')),
      offerV2(p.recipient, 'n-recipient'),
      p,
      'invalid_exact_svm_payload_recipient_mismatch',
    );
    await expectRefused(
      await payV1Legacy(p.payer, offerV1(other)),
      offerV1(p.recipient),
      p,
      'invalid_exact_svm_payload_recipient_mismatch',
    );
  });

  it("another challenge's nonce (v2 memo)", async () => {
    const p = await parties();
    await expectRefused(
      await payV2(p.payer, offerV2(p.recipient, 'n-issued-for-another')),
      offerV2(p.recipient, 'n-expected'),
      p,
      'invalid_exact_svm_payload_memo_mismatch',
    );
  });

  it('a payload that is not a transaction: refused, no error thrown', async () => {
    const p = await parties();
    const offer = offerV2(p.recipient, 'n-garbage');
    const payload = { ...(await payV2(p.payer, offer)), payload: { transaction: 'bm90IGEgdHg=' } };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expectRefused(
      payload,
      offer,
      p,
      'invalid_exact_svm_payload_transaction_could_not_be_decoded',
    );
    vi.restoreAllMocks();
  });

  it('a fee payer that is not ours', async () => {
    const p = await parties();
    const stranger = (await generateKeyPairSigner()).address;
    const offer = offerV2(p.recipient, 'n-fee-payer', PRICE, stranger);
    await expectRefused(
      await payV2(p.payer, offer),
      offer,
      p,
      'invalid_exact_svm_fee_payer_not_managed_by_facilitator',
    );
  });

  it('a fee above the limits (priority fee, signer count), v2 and v1', async () => {
    const p = await parties();
    const strict = await createSvmExactFacilitatorSchemes({
      feePayerKeypair: feePayerBytes,
      rpcUrl: chain.rpcUrl,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
      // The official clients pay 1 µlamport per unit with two signers.
      feeLimits: { maxPriorityFeeMicroLamports: 0 },
    });
    const offer2 = offerV2(p.recipient, 'n-fee');
    const payload2 = await payV2(p.payer, offer2);
    await expect(strict.v2.verify(payload2, offer2)).resolves.toMatchObject({
      isValid: false,
      invalidReason: FEE_ABOVE_LIMIT_REASON,
    });
    const offer1 = offerV1(p.recipient);
    const payload1 = await payV1Legacy(p.payer, offer1);
    await expect(strict.v1.settle(payload1, offer1)).resolves.toMatchObject({
      success: false,
      errorReason: FEE_ABOVE_LIMIT_REASON,
    });
    const oneSigner = await createSvmExactFacilitatorSchemes({
      feePayerKeypair: feePayerBytes,
      rpcUrl: chain.rpcUrl,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
      feeLimits: { maxRequiredSignatures: 1 },
    });
    await expect(oneSigner.v1.verify(payload1, offer1)).resolves.toMatchObject({
      isValid: false,
      invalidReason: FEE_ABOVE_LIMIT_REASON,
    });
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(0n);
  });

  it('a replay: the second settlement of one transaction fails, the recipient is paid once', async () => {
    const p = await parties();
    const offer = offerV2(p.recipient, 'n-replay');
    const payload = await payV2(p.payer, offer);
    const first = await facilitator.settle(payload, offer);
    expect(first.success).toBe(true);
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({
      success: false,
      errorReason: 'duplicate_settlement',
    });
    // The protocol v1 scheme shares the record: the same transaction offered as v1 is refused too.
    const asV1 = { ...payload, x402Version: 1, scheme: 'exact', network: 'solana' };
    await expect(
      facilitator.settle(asV1 as unknown as PaymentPayload, offerV1(p.recipient)),
    ).resolves.toMatchObject({ success: false });

    // Another instance (or this one after a restart) has no record: it signs and sends again,
    // the chain refuses the duplicate, and the settlement answers the same signature — the
    // gate's durable claim on it is what answers 409. The recipient is paid once.
    const other = await createSvmExactFacilitatorSchemes({
      feePayerKeypair: feePayerBytes,
      rpcUrl: chain.rpcUrl,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
    });
    const again = await other.v2.settle(payload, offer);
    expect(again).toMatchObject({ success: true, transaction: first.transaction });
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(PRICE);
    expect(await chain.tokenBalance(p.payer.address, chain.usdcMint)).toBe(1_000_000n - PRICE);
  });

  it('an expired blockhash: refused once the chain is past its last valid block height', async () => {
    const p = await parties();
    const offer = offerV2(p.recipient, 'n-expired');
    const rpc = createSolanaRpc(chain.rpcUrl);
    const { value } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    // The client takes this blockhash from the offer (`extra.recentBlockhash`, @x402/svm 2.27).
    const payload = await payV2(p.payer, {
      ...offer,
      extra: { ...offer.extra, recentBlockhash: value.blockhash },
    });
    // Surfpool makes a block every few tens of ms: 150 blocks pass in well under the bound.
    await expect
      .poll(() => rpc.getBlockHeight({ commitment: 'confirmed' }).send(), {
        timeout: 45_000,
        interval: 250,
      })
      .toBeGreaterThan(value.lastValidBlockHeight);
    await expect(facilitator.verify(payload, offer)).resolves.toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_svm_transaction_simulation_failed',
      invalidMessage: expect.stringContaining('BlockhashNotFound') as unknown,
    });
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({ success: false });
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(0n);
  }, 60_000);
});

describe('settlement not yet at the commitment', () => {
  it('answers settlement_pending with the signature; the same payload later settles it (v2 and v1)', async () => {
    const p = await parties();
    // `finalized` takes 32 slots: a 1 ms bound ends every wait before it.
    const impatient = await createSvmExactFacilitatorSchemes({
      feePayerKeypair: feePayerBytes,
      rpcUrl: chain.rpcUrl,
      rpcTimeoutMs: RPC_TIMEOUT_MS,
      commitment: 'finalized',
      confirmTimeoutMs: 1,
    });
    const offer2 = offerV2(p.recipient, 'n-pending');
    const payload2 = await payV2(p.payer, offer2);
    const pending = await impatient.v2.settle(payload2, offer2);
    expect(pending).toMatchObject({ success: false, errorReason: 'settlement_pending' });
    expect(pending.transaction).not.toBe('');
    await expect
      .poll(() => impatient.v2.settle(payload2, offer2), { timeout: 20_000, interval: 250 })
      .toMatchObject({ success: true, transaction: pending.transaction });

    // v1 keeps no pending record: the retry signs and sends again, the node refuses the
    // duplicate, and the signature is looked up and followed to the commitment.
    const offer1 = offerV1(p.recipient);
    const payload1 = await payV1Legacy(p.payer, offer1);
    const failed = await impatient.v1.settle(payload1, offer1);
    expect(failed.success).toBe(false);
    await expect
      .poll(() => impatient.v1.settle(payload1, offer1).then((r) => r.success), {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(true);
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(2n * PRICE);
  }, 60_000);
});

describe('chain outage: an error, nothing consumed', () => {
  it('RPC down: verify and settle throw ChainUnavailableError; the same payload settles later', async () => {
    const p = await parties();
    const offer = offerV2(p.recipient, 'n-outage');
    const payload = await payV2(p.payer, offer);
    proxy.setMode('down');
    await expect(facilitator.verify(payload, offer)).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(facilitator.settle(payload, offer)).rejects.toBeInstanceOf(ChainUnavailableError);
    proxy.setMode('up');
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(0n);
    await expect(facilitator.settle(payload, offer)).resolves.toMatchObject({ success: true });
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(PRICE);
  });

  it('RPC hanging: the call ends with ChainUnavailableError after the RPC time bound', async () => {
    const p = await parties();
    const offer = offerV1(p.recipient);
    const payload = await payV1Legacy(p.payer, offer);
    proxy.setMode('hang');
    const started = performance.now();
    await expect(facilitator.settle(payload, offer)).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(performance.now() - started).toBeLessThan(RPC_TIMEOUT_MS * 3);
    proxy.setMode('up');
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(0n);
    // Keep-alive connections frozen by the hang each cost one more timed-out attempt before a
    // fresh one answers; every failed attempt is an outage, none consumes the payment.
    await expect
      .poll(
        () =>
          facilitator.settle(payload, offer).then(
            (r) => r.success,
            (error: unknown) => (error instanceof ChainUnavailableError ? 'outage' : error),
          ),
        { timeout: 20_000, interval: 0 },
      )
      .toBe(true);
    expect(await chain.tokenBalance(p.recipient, chain.usdcMint)).toBe(PRICE);
  });

  const OUTAGES: RpcFailureMode[] = [
    'refused',
    'http-500',
    'http-429',
    'http-401',
    'jsonrpc-error',
  ];
  it.each(OUTAGES)(
    'an RPC that fails (%s): ChainUnavailableError naming the origin only',
    async (mode) => {
      const p = await parties();
      const offer = offerV2(p.recipient, `n-${mode}`);
      const payload = await payV2(p.payer, offer);
      const rpc = await startMisbehavingRpc(mode);
      try {
        const broken = await createSvmExactFacilitatorSchemes({
          feePayerKeypair: feePayerBytes,
          rpcUrl: rpc.url,
          rpcTimeoutMs: RPC_TIMEOUT_MS,
        });
        // The library writes what it catches to the console: that must be redacted too.
        const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        const error: unknown = await broken.v2.settle(payload, offer).catch((e: unknown) => e);
        const written = inspect(consoleError.mock.calls, { depth: 10 });
        consoleError.mockRestore();
        expect(written).not.toContain(RPC_PATH_KEY);
        expect(written).not.toContain(RPC_QUERY_KEY);
        expect(error).toBeInstanceOf(ChainUnavailableError);
        expect((error as ChainUnavailableError).rpc).toBe(rpc.origin);
        const shown = inspect(error, { depth: 10 });
        expect(shown).not.toContain(RPC_PATH_KEY);
        expect(shown).not.toContain(RPC_QUERY_KEY);
      } finally {
        await rpc.close();
      }
    },
  );

  it('a JSON-RPC "invalid params" answer is the transaction\'s fault, not an outage', async () => {
    const p = await parties();
    const offer = offerV2(p.recipient, 'n-params');
    const payload = await payV2(p.payer, offer);
    const rpc = await startMisbehavingRpc('jsonrpc-invalid-params');
    try {
      const broken = await createSvmExactFacilitatorSchemes({
        feePayerKeypair: feePayerBytes,
        rpcUrl: rpc.url,
        rpcTimeoutMs: RPC_TIMEOUT_MS,
      });
      const result = await broken.v2.verify(payload, offer);
      expect(result).toMatchObject({
        isValid: false,
        invalidReason: 'invalid_exact_svm_transaction_simulation_failed',
      });
      expect(result.invalidMessage).not.toContain(RPC_PATH_KEY);
      expect(result.invalidMessage).not.toContain(RPC_QUERY_KEY);
    } finally {
      await rpc.close();
    }
  });
});
