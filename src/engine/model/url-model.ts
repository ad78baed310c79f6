/**
 * @module engine/model/url-model
 * The learned lexical URL model: logistic regression over the hashed host features of
 * `host-features.ts`, trained by `npm run train:url-model` (scripts/train-url-model.ts) and
 * shipped as `data/models/url-model.bin` (int16 weights) with its manifest
 * `data/models/url-model.json` (data versions, date, metrics, thresholds, SHA-256).
 *
 * It is one more layer-1 signal, never the judge: scoring lets it raise a verdict to `caution`
 * alone and to `danger` only next to other evidence, and it never lowers one. Its two thresholds
 * are calibrated on a held-out long-tail benign set to fixed false-positive rates (manifest
 * `thresholds`), so "the model fires" means the same thing in every release.
 */
import { BoundedMemo } from '../bounded-memo.js';
import {
  createFeatureBuffer,
  HASH_BITS,
  type HostFeatures,
  hostFeatures,
  modelHost,
  topNgrams,
} from './host-features.js';

/** Format tag of the manifest this code reads. */
export const URL_MODEL_FORMAT = 'linkguard-url-model/1';

/** What the engine needs from the manifest (the rest documents the model). */
export interface UrlModelParams {
  format: typeof URL_MODEL_FORMAT;
  hash_bits: number;
  /** Weight of one int16 step: `weight = int16 × scale`. */
  scale: number;
  bias: number;
  /**
   * Logit thresholds, each calibrated to a false-positive rate on long-tail benign sites (the
   * manifest's `calibration`): `support` (weak evidence such as a brand lookalike counts only
   * with it), `caution` (the model alone) and `strong` (danger next to other evidence).
   */
  thresholds: { support: number; caution: number; strong: number };
}

/** The model's opinion of one host. */
export interface UrlModelScore {
  /** Log-odds of maliciousness. */
  logit: number;
  /** `strong` ≥ strong threshold, `caution` ≥ caution threshold, else `none`. */
  level: 'none' | 'caution' | 'strong';
  /** At or above the `support` threshold: enough to back weak evidence. */
  supports: boolean;
}

/** A score with its explanation, as {@link UrlModel.read} remembers it. */
export interface UrlModelRead extends UrlModelScore {
  /** {@link UrlModel.explain} when `level` is not `none`, else []. */
  ngrams: readonly string[];
}

/** How many n-grams an explanation names. */
const EXPLAIN_COUNT = 3;

/**
 * Reads remembered (on a host's second sighting, so one-off hosts never churn it): a site asked
 * about again costs a map lookup instead of ~300 feature hashes.
 */
const READ_MEMO_SIZE = 20_000;

export class UrlModel {
  private readonly buffer: HostFeatures = createFeatureBuffer();
  private readonly reads = new BoundedMemo<UrlModelRead>(READ_MEMO_SIZE, true);

  /**
   * @param weights int16 weights, 2^`hash_bits` of them.
   * @param params the manifest's scoring parameters.
   * @throws {Error} when the weights and parameters do not fit this code (a model trained with
   *   other features must not be scored with these). The manifest's `format` is checked by the
   *   loader's schema.
   */
  constructor(
    private readonly weights: Int16Array,
    readonly params: UrlModelParams,
  ) {
    if (params.hash_bits !== HASH_BITS || weights.length !== 1 << HASH_BITS) {
      throw new Error(`URL model has ${weights.length} weights, expected ${1 << HASH_BITS}`);
    }
    const { support, caution, strong } = params.thresholds;
    if (!(strong >= caution && caution >= support)) {
      throw new Error('URL model thresholds must satisfy support ≤ caution ≤ strong');
    }
  }

  /**
   * Score a host and, when it is flagged, explain the score: {@link score} and {@link explain}
   * in one call, remembered per host.
   *
   * @param hostname ASCII host (punycode for IDNs).
   * @param suffix its public suffix (PSL with private entries), '' when it has none.
   */
  read(hostname: string, suffix: string): UrlModelRead {
    const key = `${suffix} ${hostname}`;
    const known = this.reads.get(key);
    if (known !== undefined) return known;
    const score = this.score(hostname, suffix);
    const ngrams = score.level === 'none' ? [] : this.explain(hostname, suffix);
    return this.reads.remember(key, { ...score, ngrams });
  }

  /**
   * Score a host.
   *
   * @param hostname ASCII host (punycode for IDNs).
   * @param suffix its public suffix (PSL with private entries), '' when it has none.
   */
  score(hostname: string, suffix: string): UrlModelScore {
    const features = this.buffer;
    hostFeatures(modelHost(hostname), suffix, features);
    let logit = this.params.bias;
    const { scale } = this.params;
    for (let i = 0; i < features.count; i++) {
      logit += (this.weights[features.indices[i] ?? 0] ?? 0) * scale * (features.values[i] ?? 0);
    }
    const { support, caution, strong } = this.params.thresholds;
    return {
      logit,
      level: logit >= strong ? 'strong' : logit >= caution ? 'caution' : 'none',
      supports: logit >= support,
    };
  }

  /**
   * The n-grams that pushed the score up most, strongest first, for `matched_patterns`
   * (`^paypa`, `login`, `.top$`). Computed only for hosts the model flags.
   */
  explain(hostname: string, suffix: string): string[] {
    const features = this.buffer;
    if (features.anchored !== anchoredName(modelHost(hostname), suffix)) {
      hostFeatures(modelHost(hostname), suffix, features);
    }
    return topNgrams(features, EXPLAIN_COUNT, (i) => this.weights[i] ?? 0);
  }
}

/** `^name$` of a host as `hostFeatures` cuts it (to reuse the features of the last score). */
function anchoredName(host: string, suffix: string): string {
  const name =
    suffix !== '' && host.endsWith(`.${suffix}`) ? host.slice(0, -suffix.length - 1) : host;
  return `^${name.slice(0, 253)}$`;
}

/** Logistic function: log-odds → probability. */
export function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}
