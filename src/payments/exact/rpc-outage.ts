/**
 * @module payments/exact/rpc-outage
 * Telling a chain outage from a refused payment inside the x402 facilitator schemes. The schemes
 * of `@x402/evm` (and `@x402/svm`) catch their RPC errors and answer `isValid: false` /
 * `success: false` (a failed simulation reads as "invalid"), so a verifier cannot see that the
 * RPC was down. The settlement signer therefore reports every transport failure of its RPC
 * client to the {@link OutageWatch} of the payment being handled (an AsyncLocalStorage scope, so
 * concurrent payments on one signer do not mix), and the payment gate turns a refusal made while
 * the RPC failed into 503 `chain_unavailable` with nothing consumed (docs/decisions.md,
 * decision 153).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What one payment's scope records. */
interface OutageScope {
  failure: unknown;
}

const scopes = new AsyncLocalStorage<OutageScope>();

/** Error classes of viem (and @solana/kit-based transports) that mean "no answer". */
const TRANSPORT_ERRORS = new Set([
  'HttpRequestError',
  'TimeoutError',
  'WebSocketRequestError',
  'SocketClosedError',
  'WaitForTransactionReceiptTimeoutError',
]);

/** HTTP statuses of an RPC answer that mean the provider, not the request, failed. */
const OUTAGE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * True when `error` (or anything in its `cause` chain, 8 levels at most) is a transport failure:
 * no answer, a timeout, or an HTTP 408/425/429/5xx from the RPC endpoint. A revert or a JSON-RPC
 * error answer is not one: the chain answered.
 */
export function isRpcOutage(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 8; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const value = current as { name?: unknown; status?: unknown; cause?: unknown };
    if (typeof value.name === 'string' && TRANSPORT_ERRORS.has(value.name)) return true;
    if (typeof value.status === 'number' && OUTAGE_STATUSES.has(value.status)) return true;
    current = value.cause;
  }
  return false;
}

/**
 * Run `work` in a fresh outage scope.
 *
 * @returns how `work` ended (its value, or what it threw), and the first transport failure
 *   reported during it (undefined when the RPC always answered).
 */
export async function watchOutages<T>(
  work: () => Promise<T>,
): Promise<
  { ok: true; value: T; failure: unknown } | { ok: false; error: unknown; failure: unknown }
> {
  const scope: OutageScope = { failure: undefined };
  try {
    const value = await scopes.run(scope, work);
    return { ok: true, value, failure: scope.failure };
  } catch (error) {
    return { ok: false, error, failure: scope.failure };
  }
}

/**
 * Record `error` in the current scope when it is a transport failure ({@link isRpcOutage}), then
 * hand it back for rethrowing. Outside a scope it only hands it back.
 */
export function noteRpcError(error: unknown): unknown {
  const scope = scopes.getStore();
  if (scope !== undefined && scope.failure === undefined && isRpcOutage(error)) {
    scope.failure = error;
  }
  return error;
}

/** Wrap an async RPC call so its transport failures are recorded ({@link noteRpcError}). */
export function watched<A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await call(...args);
    } catch (error) {
      throw noteRpcError(error);
    }
  };
}

/**
 * Record `error` as the current payment's outage whatever its class, for RPC clients whose
 * transport failures this module cannot recognize (a scheme that knows the RPC did not answer
 * says so). Hands `error` back for rethrowing.
 */
export function reportOutage(error: unknown): unknown {
  const scope = scopes.getStore();
  if (scope !== undefined && scope.failure === undefined) scope.failure = error;
  return error;
}

/**
 * `eth_getCode` for the settlement signer: a transport failure is recorded and answered as "no
 * code" instead of thrown. `@x402/evm` 2.27.0 starts its asset-is-a-contract check before
 * verifying and leaves it unobserved when verification stops early, so a rejected `getCode`
 * there becomes an unhandled rejection, which ends a Node process. The recorded failure still
 * turns the refusal into 503 (`exact-facilitator.ts`).
 */
export function softGetCode<A>(
  call: (args: A) => Promise<`0x${string}` | undefined>,
): (args: A) => Promise<`0x${string}` | undefined> {
  return async (args: A) => {
    try {
      return await call(args);
    } catch (error) {
      if (!isRpcOutage(error)) throw error;
      noteRpcError(error);
      return undefined;
    }
  };
}
