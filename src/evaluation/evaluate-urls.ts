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

/** One labelled row: a URL and, optionally, the brand a phishing URL targets. */
export interface EvalRow {
  url: string;
  brand?: string;
}

/** Counts for one labelled set. */
export interface EvalCounts {
  rows: number;
  invalid: number;
  safe: number;
  caution: number;
  danger: number;
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

/** Read a CSV with a `url` column and an optional `brand` column. */
export function readEvalCsv(path: string): EvalRow[] {
  const records: Record<string, string | undefined>[] = parse(readFileSync(path, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    relax_quotes: true,
  });
  if (records.length > 0 && !('url' in (records[0] ?? {})))
    throw new Error(`${path}: no "url" column`);
  return records.map((record) => {
    const brand = record.brand?.trim();
    return brand === undefined || brand === ''
      ? { url: record.url ?? '' }
      : { url: record.url ?? '', brand };
  });
}

/**
 * Judge every row and count the outcomes.
 *
 * @param engine the engine.
 * @param rows labelled URLs.
 * @param coverage which layers the verdicts may claim (eval runs in process, layer 1 only).
 */
export function evaluateRows(
  engine: Engine,
  rows: readonly EvalRow[],
  coverage: LayerCoverage,
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
  for (const row of rows) {
    const outcome = detectUrl(engine, row.url, coverage);
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
export function judged(counts: EvalCounts): number {
  return counts.rows - counts.invalid;
}

export function notSafeRate(counts: EvalCounts): number {
  return judged(counts) === 0 ? 0 : (counts.caution + counts.danger) / judged(counts);
}

export function dangerRate(counts: EvalCounts): number {
  return judged(counts) === 0 ? 0 : counts.danger / judged(counts);
}

export function brandAccuracy(counts: EvalCounts): number | null {
  return counts.brandRows === 0 ? null : counts.brandCorrect / counts.brandRows;
}

/** Of the labelled rows where the verdict named a brand, the share naming the right one. */
export function brandPrecision(counts: EvalCounts): number | null {
  return counts.brandNamed === 0 ? null : counts.brandCorrect / counts.brandNamed;
}

export function urlsPerSecond(counts: readonly EvalCounts[]): number {
  const rows = counts.reduce((sum, c) => sum + c.rows, 0);
  const seconds = counts.reduce((sum, c) => sum + c.seconds, 0);
  return seconds === 0 ? 0 : rows / seconds;
}
