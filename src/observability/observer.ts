/**
 * @module observability/observer
 * The ports through which the layers below the composition root report what metrics count
 * (docs/decisions.md, decision 163): the detection service and layer 2 (verdicts, cache lookups,
 * layer durations), the payment gate (outcomes, chain RPC calls), the rate limits (refusals) and
 * the store (operation durations). This module imports nothing, so every layer may import it
 * without importing upward; `observability/metrics.ts` implements it with prom-client, and a
 * process without `METRICS_TOKEN` passes no observer at all (decision 150: nothing is recorded).
 *
 * Every argument that becomes a label is a value of a closed set named here or by the caller's
 * own union type (a payment reason, a rate-limit policy, a store method): never a URL, key,
 * token, payer or address.
 */

/** The steps of a fresh verdict whose duration is measured (`linkguard_layer_duration_seconds`). */
export const TIMED_LAYERS = [
  'url_rules',
  'intel',
  'rdap',
  'web_risk',
  'page_fetch',
  'page_analysis',
  'llm_judge',
] as const;
export type TimedLayer = (typeof TIMED_LAYERS)[number];

/**
 * The layer a served verdict rests on (`service/deciding-layer.ts` reads it from the verdict's
 * evidence codes): `url` (layer 1's rules, including a brand's own or a popular site), `intel`
 * (a feed or Web Risk listing, an allow entry, the domain age), `page` (a page finding),
 * `llm_judge` (the LLM judge's finding), `override` (an operator's allow or deny override), `none` (a safe verdict no layer found anything about).
 */
export const DECIDING_LAYERS = ['url', 'intel', 'page', 'llm_judge', 'override', 'none'] as const;
export type DecidingLayer = (typeof DECIDING_LAYERS)[number];

/** The verdict values (README, 'API'), repeated here so this module imports nothing. */
export type VerdictLabel = 'safe' | 'caution' | 'danger';

/** Level of the verdict cache: in process (L1) or shared in Redis (L2). */
export type VerdictCacheLevel = 'l1' | 'l2';

/** What the detection service and layer 2 report. */
export interface DetectionObserver {
  /** A verdict was served (fresh or from a cache), with the layer it rests on. */
  verdictServed(verdict: VerdictLabel, decidedBy: DecidingLayer): void;
  /** A verdict-cache lookup at `level` hit or missed. */
  cacheLookup(level: VerdictCacheLevel, hit: boolean): void;
  /** One step of a fresh verdict took `ms` milliseconds. */
  layerTimed(layer: TimedLayer, ms: number): void;
  /** A key with a hard monthly cap was refused: its month is used up (a rate-limit refusal). */
  allowanceRefused(): void;
}

/**
 * The chain label of a payment: the proof's chain, or `none` when no proof named one (a 402
 * challenge, a malformed proof).
 */
export type PaymentChainLabel = 'solana' | 'base' | 'none';

/**
 * What became of a request without a key at the payment gate: `challenged` (402 with a fresh
 * nonce, no proof), `paid` (claimed, the verdict is served), `refused` (402 or 409 with a
 * reason), `chain_unavailable` (503, nothing consumed), `error` (500).
 */
export type PaymentOutcome = 'challenged' | 'paid' | 'refused' | 'chain_unavailable' | 'error';

/** What the payment gate reports. */
export interface PaymentObserver {
  /**
   * One payment outcome; `reason` is a value of `PaymentInvalidReason` or `nonce_already_used`
   * for `refused`, and `none` otherwise.
   */
  paymentOutcome(chain: PaymentChainLabel, outcome: PaymentOutcome, reason: string): void;
  /** One chain verifier call (`verify` or the readiness `probe`) took `ms`; `ok` false: it failed. */
  chainRpc(chain: 'solana' | 'base', operation: 'verify' | 'probe', ms: number, ok: boolean): void;
}

/** What the rate limits report. */
export interface RateLimitObserver {
  /** A request was refused by the budget named `policy` (a `RateLimitPolicy` value, or `monthly-allowance`). */
  refused(policy: string): void;
}

/** A recorder bound to one store operation: call it with the duration and whether it succeeded. */
export type OperationRecorder = (ms: number, ok: boolean) => void;

/** What the store decorator (`store/timed-store.ts`) reports. */
export interface StoreObserver {
  /**
   * The recorder of one operation, asked once per operation when the decorator is built (so
   * nothing is allocated per call): `port` is the store port (`keys`, `usage`, `payments`,
   * `intel`, `licenses`, `oauth`, `store`), `operation` the port's method name.
   */
  storeOperation(port: string, operation: string): OperationRecorder;
}
