/**
 * Chain RPC failures leave no secret in the logs (issue 14, finding 2). The RPC URL of both chains
 * carries an API key in its path and its query, as paid providers' URLs do, and a loopback
 * endpoint misbehaves in each way a provider can (refused, silent, reset, HTTP 5xx / 401 / 403 /
 * 429 with bodies that echo the key and the request, JSON-RPC errors, a body that is not JSON, an
 * HTML page, another chain). For each, a paid request on each chain and a readiness probe: the
 * answer is 503 `chain_unavailable` (500 when the RPC calls the request itself invalid), and no
 * log line holds the key, the query, or any value of the proof — only the RPC's origin, which
 * names the failing endpoint for the operator.
 */
import { randomBytes } from 'node:crypto';

import { getBase58Decoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';

import { paymentHeaders, type PaymentProof } from '../../src/payments/payment-proof.js';
import { detect } from '../helpers/detect-request.js';
import {
  RPC_FAILURE_MODES,
  RPC_PATH_KEY,
  RPC_QUERY_KEY,
  type RpcFailureMode,
  startMisbehavingRpc,
} from '../helpers/misbehaving-rpc.js';
import { BASE_RECIPIENT, SOLANA_RECIPIENT, useTestApp } from '../helpers/test-app.js';

const URL = 'https://paypal.com/';
const base58 = getBase58Decoder();
const start = useTestApp();

/** The status each mode answers: the RPC refusing our request as malformed is a bug of ours. */
function expectedStatus(mode: RpcFailureMode): number {
  return mode === 'jsonrpc-invalid-params' ? 500 : 503;
}

describe('no RPC URL beyond its origin and no proof in any log line', () => {
  it.each(RPC_FAILURE_MODES)('RPC failure: %s', async (mode) => {
    const rpc = await startMisbehavingRpc(mode);
    try {
      const context = await start({
        logLevel: 'debug',
        env: {
          SOLANA_RECIPIENT,
          BASE_RECIPIENT,
          SOLANA_RPC_URL: rpc.url,
          BASE_RPC_URL: rpc.url,
          CHAIN_RPC_TIMEOUT_MS: '300',
        },
      });
      const secrets: string[] = [RPC_PATH_KEY, RPC_QUERY_KEY];
      for (const chain of ['solana', 'base'] as const) {
        const challenge = await detect(context.app, { url: URL });
        const nonce = challenge.json<{ payment: { nonce: string } }>().payment.nonce;
        const proof: PaymentProof =
          chain === 'solana'
            ? { chain, txSignature: base58.decode(randomBytes(64)), nonce }
            : {
                chain,
                txHash: `0x${randomBytes(32).toString('hex')}`,
                walletSig: `0x${randomBytes(65).toString('hex')}`,
                nonce,
              };
        const response = await detect(
          context.app,
          { url: URL },
          { headers: paymentHeaders(proof, chain === 'solana' ? 'legacy' : 'x-payment') },
        );
        expect(response.statusCode, `${chain} ${response.body}`).toBe(expectedStatus(mode));
        expect(response.body).not.toContain(RPC_PATH_KEY);
        expect((await context.store.payments.findNonce(nonce))?.consumedAt).toBeNull();
        secrets.push(
          ...(proof.chain === 'solana'
            ? [proof.txSignature]
            : [proof.txHash, proof.txHash.slice(2), proof.walletSig, proof.walletSig.slice(2)]),
          nonce,
        );
      }
      const ready = await context.app.inject({ method: 'GET', url: '/v1/ready' });
      expect(ready.body).not.toContain(RPC_PATH_KEY);

      const text = context.logs.text();
      for (const secret of secrets) {
        expect(text, secret).not.toContain(secret);
        expect(text.toLowerCase(), secret).not.toContain(secret.toLowerCase());
      }
      // Not even a part of the credentials (a parser's excerpt of an echoing answer cuts them).
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('/v2/');
      expect(text).not.toContain('api-key');
      // The failure is logged, and names the endpoint by its origin.
      const errors = context.logs.records().filter((r) => (r.level as number) >= 50);
      expect(errors.length).toBeGreaterThanOrEqual(2);
      expect(text).toContain(rpc.origin);
    } finally {
      await rpc.close();
    }
  });
});
