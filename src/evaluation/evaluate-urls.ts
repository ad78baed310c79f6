/**
 * @module evaluation/evaluate-urls
 * Accuracy measurement (DESIGN §5 "accuracy is measured, not asserted"): runs the engine over
 * labelled URLs and counts verdicts. For malicious rows: recall (verdict not safe), danger recall
 * and brand accuracy on rows whose brand label names a catalog brand; for benign rows: false
 * positives (not safe) and danger false positives. Inputs the engine refuses as invalid URLs are
 * counted apart, never silently dropped.
 */
import { readFileSync } from 'node:fs';

import { parse } from 'csv-parse/sync';

import type { Engine } from '../engine/create-engine.js';
import { detectUrl } from '../engine/detect.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import type { VerdictValue } from '../engine/verdict.js';
import { parseFeedDate } from '../intel/feeds/parse-feed-date.js';

/**
 * One labelled row: a URL and, optionally, the brand a phishing URL targets and when a source
 * first listed it (for the time-split evaluation of layer 2).
 */
export interface EvalRow {
  url: string;
  brand?: string;
  /** First seen by its source, epoch ms UTC. */
  firstSeen?: number;
}

/** How many rows got each verdict, and how many were refused as invalid URLs. */
export interface VerdictTally {
  rows: number;
  invalid: number;
  safe: number;
  caution: number;
  danger: number;
}

/** Counts for one labelled set. */
export interface EvalCounts extends VerdictTally {
  /** Rows whose brand label maps to a catalog brand. */
  brandRows: number;
  /** Of those, rows where the verdict named that brand. */
  brandCorrect: number;
  /** Of those, rows where the verdict named any brand (the denominator of brand precision). */
  brandNamed: number;
  /** Brand labels that name no catalog brand (e.g. "Other"), with counts. */
  unmappedBrandLabels: Record<string, number>;
  /** Seconds spent in the engine. */
  seconds: number;
}

/**
 * Read a CSV with a `url` column and optional `brand` and `first_seen` columns. `first_seen` is an
 * ISO date or date-time (`2024-10-01`, `2024-10-01T12:00:00Z`; UTC when no zone is given); an
 * empty or unreadable value leaves the row undated.
 *
 * @throws Error when the file has rows but no `url` column (and on I/O errors).
 */
export function readEvalCsv(path: string): EvalRow[] {
  const records: Record<string, string | undefined>[] = parse(readFileSync(path, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    relax_quotes: true,
  });
  if (records.length > 0 && !('url' in (records[0] ?? {})))
    throw new Error(`${path}: no "url" column`);
  return records.map((record) => {
    const row: EvalRow = { url: record.url ?? '' };
    const brand = record.brand?.trim();
    if (brand !== undefined && brand !== '') row.brand = brand;
    const firstSeen = parseFeedDate(record.first_seen ?? '');
    if (firstSeen !== null) row.firstSeen = firstSeen;
    return row;
  });
}

/**
 * Judge every row and count the outcomes.
 *
 * @param engine the engine.
 * @param rows labelled URLs.
 * @param coverage which layers the verdicts may claim (eval runs in process, layer 1 only).
 * @param onVerdict called with each row's index and verdict (null when invalid), for callers that
 *   reuse the verdicts (the layer-2 evaluation judges only rows a feed matched again).
 */
export function evaluateRows(
  engine: Engine,
  rows: readonly EvalRow[],
  coverage: LayerCoverage,
  onVerdict?: (row: number, verdict: VerdictValue | null) => void,
): EvalCounts {
  const counts: EvalCounts = {
    rows: rows.length,
    invalid: 0,
    safe: 0,
    caution: 0,
    danger: 0,
    brandRows: 0,
    brandCorrect: 0,
    brandNamed: 0,
    unmappedBrandLabels: {},
    seconds: 0,
  };
  const started = performance.now();
  for (const [index, row] of rows.entries()) {
    const outcome = detectUrl(engine, row.url, coverage);
    onVerdict?.(index, outcome.ok ? outcome.verdict.verdict : null);
    if (!outcome.ok) {
      counts.invalid++;
      continue;
    }
    counts[outcome.verdict.verdict]++;
    if (row.brand === undefined) continue;
    const expected = engine.brands.brandByName(row.brand);
    if (expected === undefined) {
      counts.unmappedBrandLabels[row.brand] = (counts.unmappedBrandLabels[row.brand] ?? 0) + 1;
      continue;
    }
    counts.brandRows++;
    const named =
      outcome.verdict.brand === null ? undefined : engine.brands.brandByName(outcome.verdict.brand);
    if (named !== undefined) counts.brandNamed++;
    if (named === expected) counts.brandCorrect++;
  }
  counts.seconds = (performance.now() - started) / 1000;
  return counts;
}

/** Ratio helpers over valid (judged) rows. */
export function judged(counts: VerdictTally): number {
  return counts.rows - counts.invalid;
}

export function notSafeRate(counts: VerdictTally): number {
  return judged(counts) === 0 ? 0 : (counts.caution + counts.danger) / judged(counts);
}

export function dangerRate(counts: VerdictTally): number {
  return judged(counts) === 0 ? 0 : counts.danger / judged(counts);
}

export function brandAccuracy(counts: EvalCounts): number | null {
  return counts.brandRows === 0 ? null : counts.brandCorrect / counts.brandRows;
}

/** Of the labelled rows where the verdict named a brand, the share naming the right one. */
export function brandPrecision(counts: EvalCounts): number | null {
  return counts.brandNamed === 0 ? null : counts.brandCorrect / counts.brandNamed;
}

export function urlsPerSecond(counts: readonly Pick<EvalCounts, 'rows' | 'seconds'>[]): number {
  const rows = counts.reduce((sum, c) => sum + c.rows, 0);
  const seconds = counts.reduce((sum, c) => sum + c.seconds, 0);
  return seconds === 0 ? 0 : rows / seconds;
}
