/**
 * `linkguard eval --pages MANIFEST` as a child process: the page corpus served from loopback and
 * judged with layer 3; the report (table and JSON) and refusal of a broken manifest.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PageEvalReport } from '../../src/evaluation/evaluate-pages.js';
import { type CliResult, runCli } from '../helpers/run-cli.js';

const MANIFEST = 'test/fixtures/pages/manifest.json';
let dir: string;
let json: CliResult;
let table: CliResult;
let broken: CliResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-eval-pages-'));
  const bad = join(dir, 'manifest.json');
  writeFileSync(bad, JSON.stringify([{ id: 'x', file: 'x.html' }]));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`, RDAP_ENABLED: 'false' };
  [json, table, broken] = await Promise.all([
    runCli(['eval', '--pages', MANIFEST, '--json'], env),
    runCli(['eval', '--pages', MANIFEST], env),
    runCli(['eval', '--pages', bad], env),
  ]);
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('linkguard eval --pages', () => {
  it('judges every page of the corpus and reports per category', () => {
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as PageEvalReport;
    expect(report.pages).toBe(100);
    expect(report.malicious + report.benign).toBe(100);
    expect(report.rows).toHaveLength(100);
    expect(report.recall).toBeGreaterThanOrEqual(0.95);
    expect(report.falsePositiveRate).toBe(0);
    const categories = report.categories.map((c) => c.category);
    expect(categories).toEqual(
      expect.arrayContaining(['wallet_drainer', 'seed_phrase_phishing', 'fake_captcha']),
    );
    // Address facts are not page categories.
    expect(categories).not.toContain('disposable_tld');
    for (const c of report.categories) {
      expect(c.truePositives + c.falseNegatives).toBe(c.support);
    }
  });

  it('prints the summary and the category table', () => {
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/malicious judged not safe \(recall\)\s+\d/);
    expect(table.stdout).toMatch(/^category\s+pages\s+TP\s+FP\s+FN\s+precision\s+recall$/m);
    expect(table.stdout).toMatch(/^fake_captcha\s+7\s/m);
  });

  it('refuses a broken manifest with a usage error naming the entry', () => {
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/entry 0/);
  });
});
