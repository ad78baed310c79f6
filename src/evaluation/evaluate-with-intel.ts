/**
 * @module evaluation/evaluate-with-intel
 * Accuracy of the URL layer plus layer 2's threat feeds (DESIGN §5 "accuracy is measured"): each
 * row is normalized, looked up in a {@link ThreatIndex}, and judged with that evidence the way the
 * detection service judges it (`judgeParsedUrl` with intel `ran`), with the domain age unknown:
 * an evaluation makes no network request, so RDAP and Web Risk never answer.
 *
 * A row counts as a known threat when its verdict has `signals.known_threat` (a feed's deny entry
 * matched). The URL layer's verdict on the same row is counted alongside, so one call shows what
 * the feeds add.
 *
 * Cost: a lookup is microseconds, judging is what costs. Rows no feed entry matched get the URL
 * layer's verdict: with no deny or allow hit and no domain age, the intel evidence changes only
 * the confidence and the wording of a verdict, never its value (build-verdict.ts; the unit test
 * checks it). A caller that already judged the rows with the URL layer (`evaluateRows` with
 * `onVerdict`) passes those verdicts as `baseline`, and then only the matched rows are judged.
 */
import type { Engine } from '../engine/create-engine.js';
import { judgeParsedUrl, URL_LAYER_ONLY } from '../engine/detect.js';
import { NO_INTEL } from '../engine/intel-evidence.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import { normalizeUrl } from '../engine/url/normalize-url.js';
import type { VerdictValue } from '../engine/verdict.js';
import type { ThreatIndex } from '../intel/threat-index.js';
import { type EvalRow, judged, type VerdictTally } from './evaluate-urls.js';

/** Layer 2 ran (the feed index), page analysis did not: what an evaluation verdict may claim. */
export const INTEL_EVAL_COVERAGE: LayerCoverage = Object.freeze({
  intel: 'ran',
  page: 'unavailable',
});

/** A row a feed's deny entry matched. */
export interface FeedListedRow {
  url: string;
  /** Names of the feeds whose deny entries matched, sorted. */
  feeds: string[];
  /** The entries that matched (host, or host + path prefix), one per feed, in feed order. */
  matched: string[];
}

/** Counts of one labelled set judged with the feed index. */
export interface IntelEvalCounts extends VerdictTally {
  /** Rows whose verdict has `signals.known_threat` (a deny entry matched). */
  knownThreat: number;
  /** Rows an allow entry matched (allow entries win over deny entries). */
  allowed: number;
  /** The URL layer alone on the same rows. */
  urlLayer: VerdictTally;
  /** Rows with a deny hit, per feed (a row two feeds list counts for both). */
  hitsByFeed: Record<string, number>;
  /** The first `listedLimit` rows with a deny hit. */
  listed: FeedListedRow[];
  /** Seconds spent normalizing, looking up and judging. */
  seconds: number;
}

export interface IntelEvalOptions {
  /**
   * The URL layer's verdict of row `i` of the same rows, from an earlier pass (null when that pass
   * found the URL invalid). Without it every row is judged by the URL layer here.
   */
  baseline?: (row: number) => VerdictValue | null;
  /** How many deny-hit rows to keep in `listed` (default 0). */
  listedLimit?: number;
}

const emptyTally = (rows: number): VerdictTally => ({
  rows,
  invalid: 0,
  safe: 0,
  caution: 0,
  danger: 0,
});

/**
 * Judge every row with the URL layer and the feed index, and count the outcomes.
 *
 * @param engine the engine the index was built with.
 * @param rows labelled URLs.
 * @param index the feed index (e.g. only entries first seen before a cut-off date).
 * @param options a URL-layer baseline to reuse, how many listed rows to keep.
 */
export function evaluateWithIntel(
  engine: Engine,
  rows: readonly EvalRow[],
  index: ThreatIndex,
  options: IntelEvalOptions = {},
): IntelEvalCounts {
  const counts: IntelEvalCounts = {
    ...emptyTally(rows.length),
    knownThreat: 0,
    allowed: 0,
    urlLayer: emptyTally(rows.length),
    hitsByFeed: {},
    listed: [],
    seconds: 0,
  };
  const listedLimit = options.listedLimit ?? 0;
  const started = performance.now();
  for (const [position, row] of rows.entries()) {
    const parsed = normalizeUrl(row.url);
    if (!parsed.ok) {
      counts.invalid++;
      counts.urlLayer.invalid++;
      continue;
    }
    const url = parsed.url;
    const urlVerdict =
      options.baseline?.(position) ?? judgeParsedUrl(engine, url, URL_LAYER_ONLY).verdict;
    counts.urlLayer[urlVerdict]++;

    const { denied, allowedBy } = index.lookup(url);
    if (denied.length === 0 && allowedBy.length === 0) {
      counts[urlVerdict]++;
      continue;
    }
    const verdict = judgeParsedUrl(engine, url, INTEL_EVAL_COVERAGE, {
      ...NO_INTEL,
      denied,
      allowedBy,
    });
    counts[verdict.verdict]++;
    if (verdict.signals.known_threat) counts.knownThreat++;
    if (allowedBy.length > 0) counts.allowed++;
    if (denied.length === 0) continue;
    const hits = [...denied].sort((a, b) => (a.source < b.source ? -1 : 1));
    const feeds = hits.map((hit) => hit.source);
    for (const feed of feeds) counts.hitsByFeed[feed] = (counts.hitsByFeed[feed] ?? 0) + 1;
    if (counts.listed.length < listedLimit) {
      counts.listed.push({ url: row.url, feeds, matched: hits.map((hit) => hit.matched) });
    }
  }
  counts.seconds = (performance.now() - started) / 1000;
  return counts;
}

/** Share of valid rows that were known threats (a feed listed them). */
export function knownThreatRate(counts: IntelEvalCounts): number {
  return judged(counts) === 0 ? 0 : counts.knownThreat / judged(counts);
}
