/**
 * @module payments/timed-verifier
 * A chain verifier with the duration and failure of each of its RPC round trips reported to the
 * metrics (`linkguard_chain_rpc_duration_seconds`, `linkguard_chain_rpc_errors_total`): a
 * decorator over the verifier interface both chains implement, so neither verifier changes. A
 * `verify` fails when the RPC does ({@link ChainUnavailableError}, or a malformed-request bug);
 * an answer that the payment is not valid is a successful RPC call. A `probe` fails when it
 * answers anything but `ok`.
 */
import type { PaymentObserver } from '../observability/observer.js';
import type { Chain } from './payment-proof.js';
import type { ChainProbe, Verification } from './verification.js';

/** What both chain verifiers offer (`SolanaVerifier`, `BaseVerifier`). */
export interface ChainVerifier<P> {
  verify(proof: P, memo: string): Promise<Verification>;
  probe(): Promise<ChainProbe>;
}

/**
 * `verifier` reporting each call to `observer` under `chain`.
 *
 * @returns a verifier answering exactly like `verifier`.
 */
export function timedVerifier<P>(
  verifier: ChainVerifier<P>,
  chain: Chain,
  observer: PaymentObserver,
): ChainVerifier<P> {
  return {
    verify: async (proof, memo) => {
      const started = performance.now();
      try {
        const result = await verifier.verify(proof, memo);
        observer.chainRpc(chain, 'verify', performance.now() - started, true);
        return result;
      } catch (error) {
        observer.chainRpc(chain, 'verify', performance.now() - started, false);
        throw error;
      }
    },
    probe: async () => {
      const started = performance.now();
      const result = await verifier.probe();
      observer.chainRpc(chain, 'probe', performance.now() - started, result === 'ok');
      return result;
    },
  };
}
