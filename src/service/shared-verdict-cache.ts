/**
 * @module service/shared-verdict-cache
 * The second level of the verdict cache in a scale-out deployment (REDIS_URL): verdicts in Redis,
 * shared by every instance (docs/decisions.md, decision 117). The in-process
 * {@link VerdictCache} stays the first level; this one is read only on its misses and written
 * when a fresh verdict enters it, with the verdict's own time to live.
 *
 * Keys never hold a URL: `<prefix>verdict:<generation>:<SHA-256 of the normalized URL>`. The
 * generation digests everything a verdict depends on besides the URL (service version, engine
 * data, threat-index contents, which layers run; see {@link cacheGeneration}), so a swapped index
 * or a new release reads and writes other keys and never serves a stale verdict; the old keys
 * expire on their own.
 *
 * Redis is optional at run time: an error or a read slower than the read budget is a miss, a
 * failed write is dropped, and the outage is reported once ({@link OutageNotice}).
 */
import { hash } from 'node:crypto';

import type { Verdict } from '../engine/verdict.js';
import type { OutageNotice, Redis } from '../redis/redis-client.js';

/**
 * Longest a request waits for a Redis read before judging the URL itself (ms). Judging with
 * layers 1–2 takes well under a millisecond when no network lookup is needed, so a slow Redis
 * must not hold a request longer than a few round trips.
 */
export const SHARED_CACHE_READ_BUDGET_MS = 50;

/**
 * Bumped when the stored form of a verdict changes (a field added or renamed), so instances of
 * different releases never read each other's verdicts even with the same service version.
 */
const STORED_FORM = 'v1';

/** A verdict read from Redis with the rest of its time to live. */
export interface SharedVerdict {
  verdict: Verdict;
  /** Milliseconds until it expires in Redis (> 0). */
  ttlMs: number;
}

export interface SharedVerdictCacheOptions {
  client: Redis;
  /** Prefix of every Redis key written, e.g. `linkguard:`. */
  keyPrefix: string;
  /** The generation verdicts are read and written under now (see {@link cacheGeneration}). */
  generation: string;
  /** Reports the first failure of an outage and the first success after it. */
  outage: OutageNotice;
  /** Read budget in ms (default {@link SHARED_CACHE_READ_BUDGET_MS}). */
  readBudgetMs?: number;
}

export class SharedVerdictCache {
  private generationTag: string;
  private readonly readBudgetMs: number;

  constructor(private readonly options: SharedVerdictCacheOptions) {
    this.generationTag = options.generation;
    this.readBudgetMs = options.readBudgetMs ?? SHARED_CACHE_READ_BUDGET_MS;
  }

  /** Switch to a new generation (the threat index was swapped): older verdicts are not read. */
  setGeneration(generation: string): void {
    this.generationTag = generation;
  }

  get generation(): string {
    return this.generationTag;
  }

  /**
   * The Redis key of a normalized URL under the current generation. Take it before judging and
   * write under it, so a verdict judged across an index swap lands under the generation it was
   * judged with.
   */
  keyFor(normalizedUrl: string): string {
    return `${this.options.keyPrefix}verdict:${this.generationTag}:${hash('sha256', normalizedUrl, 'hex')}`;
  }

  /**
   * Read a verdict and its remaining lifetime (one round trip: GET and PTTL pipelined).
   *
   * @returns undefined on a miss, on any Redis error, on a read slower than the read budget, or
   *   on a value that does not parse; never rejects.
   */
  async read(key: string): Promise<SharedVerdict | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, this.readBudgetMs, 'late');
    });
    try {
      const reply = await Promise.race([
        this.options.client.pipeline().get(key).pttl(key).exec(),
        late,
      ]);
      if (reply === 'late') {
        this.options.outage.failed(new Error(`read took longer than ${this.readBudgetMs} ms`));
        return undefined;
      }
      const [got, ttl] = reply ?? [];
      const error = got?.[0] ?? ttl?.[0] ?? null;
      if (error !== null) throw error;
      this.options.outage.succeeded();
      const json = got?.[1];
      const ttlMs = ttl?.[1];
      // PTTL is -2 when the key expired between the two commands, -1 without an expiry (not
      // written by this module): both are misses.
      if (typeof json !== 'string' || typeof ttlMs !== 'number' || ttlMs <= 0) return undefined;
      const verdict: unknown = JSON.parse(json);
      // The generation includes the stored form, so this only fails if something else wrote the
      // key: reported like an outage rather than served (or crashing the freeze in level 1).
      if (!hasVerdictShape(verdict)) throw new Error('a stored verdict does not have its shape');
      return { verdict, ttlMs };
    } catch (error: unknown) {
      this.options.outage.failed(error);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Store a verdict for `ttlMs` (SET with PX). Fire and forget: the request does not wait, and a
   * failure is reported to the outage notice only.
   */
  write(key: string, verdict: Verdict, ttlMs: number): void {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) return;
    this.options.client.set(key, JSON.stringify(verdict), 'PX', Math.ceil(ttlMs)).then(
      () => {
        this.options.outage.succeeded();
      },
      (error: unknown) => {
        this.options.outage.failed(error);
      },
    );
  }
}

/** The containers level 1 freezes and the verdict value: enough to tell a verdict from junk. */
function hasVerdictShape(value: unknown): value is Verdict {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof Verdict, unknown>>;
  const details = v.details as { matched_patterns?: unknown } | null | undefined;
  return (
    (v.verdict === 'safe' || v.verdict === 'caution' || v.verdict === 'danger') &&
    Array.isArray(v.threat_types) &&
    typeof v.signals === 'object' &&
    v.signals !== null &&
    typeof details === 'object' &&
    details !== null &&
    Array.isArray(details.matched_patterns)
  );
}

/** What a verdict depends on besides the URL; any change gives another generation. */
export interface CacheGenerationInputs {
  /** The service release (`SERVICE_VERSION`). */
  serviceVersion: string;
  /** Digest of the engine's data files (`engineDataDigest()`). */
  engineData: string;
  /** Digest of the threat index's feeds and entries (`IntelLayer.fingerprint`). */
  threatIndex: string;
  /**
   * Which layers and sources run (RDAP, Web Risk, page analysis, LLM judge): instances set up
   * differently give different verdicts for the same URL.
   */
  layers: Readonly<Record<string, string | boolean | null>>;
}

/**
 * The generation tag of shared verdicts: the first 16 hex characters (64 bits) of SHA-256 over
 * the inputs, ample to tell apart the few generations alive at once.
 */
export function cacheGeneration(inputs: CacheGenerationInputs): string {
  const layers = Object.keys(inputs.layers)
    .sort()
    .map((name) => `${name}=${String(inputs.layers[name])}`)
    .join(',');
  const text = [
    STORED_FORM,
    inputs.serviceVersion,
    inputs.engineData,
    inputs.threatIndex,
    layers,
  ].join('\n');
  return hash('sha256', text, 'hex').slice(0, 16);
}
