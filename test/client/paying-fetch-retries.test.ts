/**
 * `createPayingFetch` (src/client/paying-fetch.ts) after it has paid, on Surfpool against the
 * service emulator (test/helpers/service-emulator.ts): it re-sends the same proof while the service
 * says the payment is pending or the chain is unavailable, honours and caps Retry-After, stops
 * after `maxRetries`, and never pays a second time (DESIGN §4.3–4.4). Paying itself is in
 * paying-fetch.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { useLocalSolana } from '../helpers/local-chain-hooks.js';
import { ONE_USDC, PRICE } from '../helpers/payment-values.js';
import {
  detectInit,
  proofHeadersOf,
  type ProofStep,
  type ServiceEmulator,
  withServiceEmulator,
} from '../helpers/service-emulator.js';
import { solanaPayingFetch, type SolanaSetup, solanaSetup } from '../helpers/solana-setup.js';

const solana = useLocalSolana();

/** Run `body` with a funded payer and an emulator that answers its proofs with `steps`. */
async function afterPaying(
  steps: ProofStep[],
  body: (emulator: ServiceEmulator, setup: SolanaSetup) => Promise<void>,
): Promise<void> {
  const setup = await solanaSetup(solana);
  await withServiceEmulator({ offers: setup.offers, chains: { solana }, steps }, (emulator) =>
    body(emulator, setup),
  );
}

describe('createPayingFetch', () => {
  it('re-sends the same proof after payment_pending and 503, and pays once', async () => {
    const steps: ProofStep[] = ['pending', 'unavailable', 'pending'];
    await afterPaying(steps, async (emulator, { payer, recipient }) => {
      const { payingFetch, events } = solanaPayingFetch(solana, payer);
      const response = await payingFetch(emulator.detectUrl, detectInit());
      expect(response.status).toBe(200);
      expect(emulator.requests).toHaveLength(5);
      const proofs = emulator.requests.slice(1).map(proofHeadersOf);
      for (const proof of proofs) expect(proof).toEqual(proofs[0]);
      expect(emulator.nonces).toHaveLength(1);
      expect(events.map((event) => event.type)).toEqual([
        'challenge',
        'paid',
        'retry',
        'retry',
        'retry',
        'settled',
      ]);
      expect(events.filter((event) => event.type === 'retry')).toMatchObject([
        { attempt: 1, status: 402, reason: 'payment_pending', waitMs: 0 },
        { attempt: 2, status: 503, reason: 'chain_unavailable', waitMs: 0 },
        { attempt: 3, status: 402, reason: 'payment_pending', waitMs: 0 },
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'settled', status: 200, attempts: 4 });
      expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
      expect(await solana.tokenBalance(payer.address, solana.usdcMint)).toBe(ONE_USDC - PRICE);
    });
  });

  it('honours Retry-After in seconds', async () => {
    await afterPaying(['pending-slow'], async (emulator, { payer }) => {
      const { payingFetch, events } = solanaPayingFetch(solana, payer);
      expect((await payingFetch(emulator.detectUrl, detectInit())).status).toBe(200);
      expect(events.find((event) => event.type === 'retry')).toMatchObject({ waitMs: 1000 });
    });
  });

  it('caps a long Retry-After at 10 s, and an abort ends the wait', async () => {
    await afterPaying(['pending-forever-long'], async (emulator, { payer }) => {
      const controller = new AbortController();
      const { payingFetch, events } = solanaPayingFetch(solana, payer, {
        onEvent: (event) => {
          if (event.type === 'retry') controller.abort(new Error('caller gave up'));
        },
      });
      await expect(
        payingFetch(emulator.detectUrl, { ...detectInit(), signal: controller.signal }),
      ).rejects.toThrow('caller gave up');
      expect(events.find((event) => event.type === 'retry')).toMatchObject({ waitMs: 10_000 });
      expect(emulator.requests).toHaveLength(2);
    });
  });

  it('stops re-sending after maxRetries and returns the last answer', async () => {
    const steps: ProofStep[] = ['pending', 'pending', 'pending', 'pending'];
    await afterPaying(steps, async (emulator, { payer }) => {
      const { payingFetch } = solanaPayingFetch(solana, payer, { maxRetries: 2 });
      const response = await payingFetch(emulator.detectUrl, detectInit());
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({ reason: 'payment_pending' });
      expect(emulator.requests).toHaveLength(4);
    });
  });

  it('returns payment_invalid after paying instead of paying a second time', async () => {
    await afterPaying(['invalid'], async (emulator, { payer, recipient }) => {
      const { payingFetch } = solanaPayingFetch(solana, payer);
      const response = await payingFetch(emulator.detectUrl, detectInit());
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({
        error: 'payment_invalid',
        reason: 'memo_mismatch',
      });
      expect(emulator.requests).toHaveLength(2);
      expect(emulator.nonces).toHaveLength(2);
      expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
    });
  });
});
