/**
 * The shipped URL model (`data/models/url-model.{bin,json}`): the loader checks it, the manifest
 * documents how it was trained and calibrated, and the engine scores with exactly those weights.
 * Figures here are the ones the training run measured and stored; docs/eval.md has the tables.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { HASH_BITS } from '../../src/engine/model/host-features.js';
import { dataDirectory, loadEngineData } from '../../src/engine-data/load-engine-data.js';

interface Manifest {
  thresholds: { support: number; caution: number; strong: number };
  calibration: { support_fpr: number; caution_fpr: number; strong_fpr: number };
  cutoff: string;
  trained_at: string;
  weights: { file: string; bytes: number; sha256: string };
  data: { counts: Record<string, number>; development_files: { file: string; sha256: string }[] };
  metrics: {
    recall_after_cutoff: { name: string; hosts: number; caution: number; strong: number }[];
    long_tail_test_fp: { name: string; hosts: number; caution: number; strong: number }[];
    independent_benign_fp: { name: string; hosts: number; caution: number; strong: number }[];
  };
}

const manifest = JSON.parse(
  readFileSync(join(dataDirectory(), 'models', 'url-model.json'), 'utf8'),
) as Manifest;
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the shipped URL model', () => {
  it('loads, with the weights the manifest names', () => {
    const model = loadEngineData().urlModel;
    expect(model).not.toBeNull();
    expect(model?.weights.length).toBe(1 << HASH_BITS);
    expect(manifest.weights.bytes).toBe(2 << HASH_BITS);
    expect(manifest.weights.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('refuses weights that differ from the manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkguard-model-'));
    scratch.push(dir);
    cpSync(dataDirectory(), dir, { recursive: true });
    const file = join(dir, 'models', manifest.weights.file);
    const bytes = readFileSync(file);
    bytes[12345] = (bytes[12345] ?? 0) ^ 1;
    writeFileSync(file, bytes);
    expect(() => loadEngineData(dir)).toThrow(/SHA-256/);
    expect(loadEngineData(dir, { urlModel: false }).urlModel).toBeNull();
  });

  it('records its data, date, time split and calibration', () => {
    expect(manifest.cutoff).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(manifest.trained_at)).not.toBeNaN();
    expect(manifest.data.development_files.length).toBeGreaterThan(5);
    for (const file of manifest.data.development_files)
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.data.counts.long_tail_calibration).toBeGreaterThan(5000);
    const { support, caution, strong } = manifest.thresholds;
    expect(support).toBeLessThan(caution);
    expect(caution).toBeLessThanOrEqual(strong);
    expect(manifest.calibration.caution_fpr).toBeLessThanOrEqual(0.005);
  });

  it('measured what its calibration promises on sites it never saw', () => {
    const longTail = manifest.metrics.long_tail_test_fp.find((r) => r.name.startsWith('long tail'));
    expect(longTail?.hosts).toBeGreaterThan(5000);
    expect(longTail?.caution).toBeLessThanOrEqual(0.01);
    for (const row of manifest.metrics.independent_benign_fp) {
      expect(row.caution, row.name).toBeLessThanOrEqual(0.01);
    }
    const all = manifest.metrics.recall_after_cutoff.find((r) => r.name === 'all feeds');
    expect(all?.caution).toBeGreaterThanOrEqual(0.5);
  });
});
