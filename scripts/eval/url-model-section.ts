/**
 * @module scripts/eval/url-model-section
 * The "URL layer and the learned URL model" section of docs/eval.md: the URL rules alone, the
 * model alone and the two together (what the service runs), on the development feeds' rows
 * first seen after the model's training cut-off (a time split: the model never saw them), and
 * false positives on every benign list — the popular lists of the tables above and the
 * long-tail test split the training set aside (`scripts/url-model/training-data.ts`), apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { getDomain } from 'tldts';

import { createEngine, type Engine } from '../../src/engine/create-engine.js';
import { detectUrl } from '../../src/engine/detect.js';
import { loadEngineData } from '../../src/engine-data/load-engine-data.js';
import type { EvalRow } from '../../src/evaluation/evaluate-urls.js';
import { collectBenign } from '../url-model/benign-sources.js';
import { longTailSplit } from '../url-model/training-data.js';

/** What one engine said about a set of rows. */
interface Tally {
  rows: number;
  notSafe: number;
  danger: number;
  /** Rows the model flagged (`url_model:` in the patterns). */
  model: number;
}

function tally(engine: Engine, urls: readonly string[]): Tally {
  const out: Tally = { rows: 0, notSafe: 0, danger: 0, model: 0 };
  for (const url of urls) {
    const outcome = detectUrl(engine, url);
    if (!outcome.ok) continue;
    out.rows++;
    const { verdict, details } = outcome.verdict;
    if (verdict !== 'safe') out.notSafe++;
    if (verdict === 'danger') out.danger++;
    if (details.matched_patterns.some((p) => p.startsWith('url_model:'))) out.model++;
  }
  return out;
}

const pct = (n: number, d: number, digits = 1): string =>
  d === 0 ? '–' : `${((100 * n) / d).toFixed(digits)} %`;

/**
 * The section's Markdown lines.
 *
 * @param root the repository root.
 * @param malicious each malicious source's rows (with first-seen dates where the source has them).
 * @param benign each benign list's rows and whether it measures false positives.
 */
export function urlModelLines(
  root: string,
  malicious: readonly { name: string; rows: readonly EvalRow[] }[],
  benign: readonly { name: string; rows: readonly EvalRow[]; measures: boolean }[],
): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'data/models/url-model.json'), 'utf8')) as {
    cutoff: string;
    trained_at: string;
    calibration: { support_fpr: number; caution_fpr: number; strong_fpr: number };
    weights: { bytes: number; sha256: string };
    data: { counts: Record<string, number> };
  };
  const cutoff = Date.parse(`${manifest.cutoff}T00:00:00Z`);
  const full = createEngine(loadEngineData());
  const rules = createEngine(loadEngineData(undefined, { urlModel: false }));

  const maliciousLines: string[] = [];
  const pooled = { rules: 0, model: 0, both: 0, danger: 0, rows: 0 };
  for (const source of malicious) {
    const urls = source.rows
      .filter((r) => r.firstSeen !== undefined && r.firstSeen >= cutoff)
      .map((r) => r.url);
    if (urls.length === 0) continue;
    const r = tally(rules, urls);
    const b = tally(full, urls);
    pooled.rules += r.notSafe;
    pooled.model += b.model;
    pooled.both += b.notSafe;
    pooled.danger += b.danger;
    pooled.rows += b.rows;
    maliciousLines.push(
      `| ${source.name} | ${b.rows} | ${pct(r.notSafe, r.rows)} | ${pct(b.model, b.rows)} | **${pct(b.notSafe, b.rows)}** | ${pct(r.danger, r.rows)} | ${pct(b.danger, b.rows)} |`,
    );
  }
  maliciousLines.push(
    `| all, pooled | ${pooled.rows} | ${pct(pooled.rules, pooled.rows)} | ${pct(pooled.model, pooled.rows)} | **${pct(pooled.both, pooled.rows)}** | – | ${pct(pooled.danger, pooled.rows)} |`,
  );

  const benignLines: string[] = [];
  const row = (name: string, what: string, urls: readonly string[]): void => {
    const r = tally(rules, urls);
    const b = tally(full, urls);
    benignLines.push(
      `| ${name} | ${what} | ${b.rows} | ${pct(r.notSafe, r.rows, 2)} | ${pct(b.model, b.rows, 2)} | **${pct(b.notSafe, b.rows, 2)}** | **${pct(b.danger, b.rows, 3)}** |`,
    );
  };
  for (const list of benign) {
    row(
      list.name,
      list.measures ? 'popular (independent)' : 'popular (used to build lists)',
      list.rows.map((r) => r.url),
    );
  }
  let longTailNote = '';
  try {
    const { items } = collectBenign(join(root, '.cache', 'url-model'));
    const bySource = new Map<string, Set<string>>();
    for (const item of items) {
      const domain = getDomain(item.host, { allowPrivateDomains: true });
      if (domain === null || longTailSplit(domain) !== 'test') continue;
      const set = bySource.get(item.source) ?? new Set<string>();
      set.add(item.url ?? item.host);
      bySource.set(item.source, set);
    }
    const all = [...new Set([...bySource.values()].flatMap((s) => [...s]))];
    row('long tail (all)', 'long tail, test split', all);
    for (const [source, urls] of [...bySource].sort())
      row(`  ${source}`, 'long tail, test split', [...urls]);
  } catch (error) {
    longTailNote = `The long-tail test split could not be built here (${(error as Error).message}); run on a machine with Debian's archive.`;
  }

  return [
    '## URL layer with the learned URL model',
    '',
    `The model (\`data/models/url-model.bin\`, ${manifest.weights.bytes.toLocaleString('en-US')} bytes, trained ${manifest.trained_at.slice(0, 10)} by`,
    '`npm run train:url-model`) read only feed entries first seen before',
    `${manifest.cutoff}; the malicious rows below are those first seen on or after it (PhishTank and`,
    'CryptoScamDB lie wholly before, so they are not here). Its thresholds were calibrated on a',
    `long-tail benign calibration split: \`support\` at ${100 * manifest.calibration.support_fpr} %, \`caution\` at ${100 * manifest.calibration.caution_fpr} %, \`strong\` at`,
    `${100 * manifest.calibration.strong_fpr} % of those sites. "Rules" is the engine without the model; "model" the share the`,
    'model flags (caution or stronger) where the engine lets it read (not on official, popular,',
    'CDN-edge or cloud-endpoint names); "URL layer" the two together, as the service judges: the',
    'model raises a verdict to caution alone, to danger only next to other evidence, and lets weak',
    'brand evidence (a lookalike, a brand next to ordinary words) count only with its support.',
    '',
    '| source (rows first seen ≥ cut-off) | rows | recall, rules | model flags | recall, URL layer | danger recall, rules | danger recall, URL layer |',
    '|---|---|---|---|---|---|---|',
    ...maliciousLines,
    '',
    'False positives of the same engines on every benign list: the popular lists of the tables',
    'above (host names) and the long-tail sites the training held out (`test` split by site: Debian',
    'package homepages with their paths, ad-block site lists, tracker hosts, mail providers,',
    'platform names; see data/SOURCES.md). Budgets: URL layer ≤ 1 % not safe and ≤ 0.1 % danger',
    'on every list.',
    '',
    '| list | kind | rows | FP, rules | model flags | FP, URL layer | danger FP, URL layer |',
    '|---|---|---|---|---|---|---|',
    ...benignLines,
    ...(longTailNote === '' ? [] : ['', longTailNote]),
  ];
}
