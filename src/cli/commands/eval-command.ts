/**
 * @module cli/commands/eval-command
 * `linkguard eval --malicious F --benign F [--intel] [--cutoff YYYY-MM-DD] [--json]`: accuracy of
 * the engine on labelled CSV files. Prints recall, danger recall, false-positive rates, brand
 * accuracy and throughput. `scripts/eval-dev.ts` runs it per source over the development data and
 * writes docs/eval.md.
 *
 * CSV columns (header row): `url` (required), `brand` (optional: the brand a phishing URL
 * targets), `first_seen` (optional: when a source first listed the row, ISO date or date-time,
 * UTC when no zone is given; needed on malicious rows for `--cutoff`).
 *
 * `--intel` adds layer 2: the threat feeds in the store (imported with `linkguard feeds import`)
 * are indexed as `serve` indexes them, and each row is judged with its feed hits, the way the
 * service judges it. No network request is made (domain age and Web Risk stay unknown). The
 * report adds the known-threat share (verdicts with `signals.known_threat`), rows per feed, and
 * the URL layer alone on the same rows for comparison.
 *
 * `--cutoff D` (implies `--intel`) is the time-split evaluation: the index holds only deny
 * entries first seen before D (undated deny entries are left out; allow entries are kept, they
 * name platforms, not threats), and only malicious rows first seen on or after D are evaluated
 * (rows before D or without a readable `first_seen` are counted and skipped). Benign rows are all
 * evaluated against that index. It answers: how much of what appeared after D would the feeds of
 * D have caught?
 *
 * `--pages MANIFEST` is the page-level eval of layer 3 (src/evaluation/evaluate-pages.ts): a page
 * corpus served from loopback under its realistic host names, judged by the service with page
 * analysis on; precision and recall per threat category.
 */
import { Command } from 'commander';

import { loadConfig } from '../../config/config.js';
import type { Engine } from '../../engine/create-engine.js';
import { THREAT_TYPES } from '../../engine/verdict.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import {
  brandAccuracy,
  brandPrecision,
  dangerRate,
  type EvalCounts,
  type EvalRow,
  evaluateRows,
  notSafeRate,
  readEvalCsv,
  urlsPerSecond,
  type VerdictTally,
} from '../../evaluation/evaluate-urls.js';
import {
  evaluateWithIntel,
  type IntelEvalCounts,
  knownThreatRate,
} from '../../evaluation/evaluate-with-intel.js';
import { readPageCorpus } from '../../evaluation/page-corpus.js';
import { categoryTable, summaryTable } from '../../evaluation/page-eval-table.js';
import { parseFeedDate } from '../../intel/feeds/parse-feed-date.js';
import {
  type IndexedFeed,
  type ThreatIndex,
  ThreatIndexBuilder,
} from '../../intel/threat-index.js';
import { SERVICE_COVERAGE } from '../../service/detection-service.js';
import { runPageEval } from '../page-eval.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

const pct = (value: number | null): string =>
  value === null ? '-' : `${(100 * value).toFixed(2)} %`;

interface EvalOptions {
  pages?: string;
  malicious?: string;
  benign?: string;
  intel?: boolean;
  cutoff?: string;
  json?: boolean;
}

/** Entries read from the store per page (as the intel layer does). */
const PAGE_SIZE = 5000;

/** What was indexed from the store. */
interface StoreIndex {
  index: ThreatIndex;
  feeds: string[];
  /** Deny entries left out because they were first seen on or after the cut-off. */
  afterCutoff: number;
  /** Deny entries left out because they have no first-seen date (with a cut-off only). */
  undated: number;
}

/**
 * Index the store's feeds like `serve` does, keeping with a cut-off only deny entries first seen
 * before it.
 *
 * @throws UsageError when the store holds no feed.
 */
async function indexFromStore(engine: Engine, cutoff: number | null): Promise<StoreIndex> {
  return withStore(async (store) => {
    const feeds: IndexedFeed[] = (await store.intel.listFeeds()).map((feed) => ({
      id: feed.id,
      name: feed.name,
      threat: THREAT_TYPES.find((type) => type === feed.threat) ?? null,
    }));
    if (feeds.length === 0) {
      throw new UsageError(
        '--intel: the store has no feeds; import some with `linkguard feeds import`.',
      );
    }
    const builder = new ThreatIndexBuilder(engine, feeds);
    let afterCutoff = 0;
    let undated = 0;
    for (let after = 0; ;) {
      const page = await store.intel.readEntries(after, PAGE_SIZE);
      for (const { feedId, entry } of page) {
        if (cutoff !== null && entry.list === 'deny') {
          if (entry.firstSeen === null) {
            undated++;
            continue;
          }
          if (entry.firstSeen >= cutoff) {
            afterCutoff++;
            continue;
          }
        }
        builder.add(feedId, entry);
      }
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1]?.id ?? after;
    }
    return {
      index: builder.build(),
      feeds: feeds.map((feed) => feed.name),
      afterCutoff,
      undated,
    };
  });
}

/** `--cutoff` as epoch ms (midnight UTC). */
function readCutoff(text: string): number {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseFeedDate(text) : null;
  if (at === null) throw new UsageError(`--cutoff ${text}: expected a date YYYY-MM-DD`);
  return at;
}

function readRows(path: string): EvalRow[] {
  try {
    return readEvalCsv(path);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : `cannot read ${path}`);
  }
}

function urlLayerView(tally: VerdictTally) {
  return {
    safe: tally.safe,
    caution: tally.caution,
    danger: tally.danger,
    not_safe_rate: notSafeRate(tally),
    danger_rate: dangerRate(tally),
  };
}

function intelView(counts: IntelEvalCounts) {
  return {
    rows: counts.rows,
    invalid: counts.invalid,
    safe: counts.safe,
    caution: counts.caution,
    danger: counts.danger,
    known_threat: counts.knownThreat,
    known_threat_rate: knownThreatRate(counts),
    allowed: counts.allowed,
    hits_by_feed: counts.hitsByFeed,
    url_layer: urlLayerView(counts.urlLayer),
    seconds: counts.seconds,
  };
}

export function evalCommand(): Command {
  return new Command('eval')
    .description('measure accuracy on labelled CSV files (url[,brand][,first_seen])')
    .option('--malicious <csv>', 'malicious URLs (recall, brand accuracy)')
    .option('--benign <csv>', 'benign URLs (false positives)')
    .option(
      '--intel',
      'add layer 2: the threat feeds in the store (linkguard feeds import); no network requests',
    )
    .option(
      '--cutoff <date>',
      'time split (implies --intel): index only entries first seen before YYYY-MM-DD and ' +
        'evaluate only malicious rows whose first_seen is on or after it',
    )
    .option(
      '--pages <manifest>',
      'page-level eval: serve a page corpus (manifest.json) from loopback and judge every page ' +
        'with layer 3; precision and recall per category',
    )
    .option('--json', 'print JSON')
    .action(async (options: EvalOptions) => {
      if (options.pages !== undefined) {
        await evalPages(options.pages, options.json === true);
        return;
      }
      if (options.malicious === undefined && options.benign === undefined) {
        console.error('Give --pages, or --malicious and/or --benign.');
        process.exitCode = 2;
        return;
      }
      if (options.intel === true || options.cutoff !== undefined) {
        await evalWithIntel(options);
        return;
      }
      evalUrlLayer(options);
    });
}

/** `--pages`: the page corpus through the service with layer 3 (no store, no network). */
async function evalPages(manifest: string, json: boolean): Promise<void> {
  let corpus;
  try {
    corpus = readPageCorpus(manifest);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : `cannot read ${manifest}`);
  }
  const report = await runPageEval(defaultEngine(), corpus, loadConfig());
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const summary = summaryTable(report);
  printTable(summary.headers, summary.rows);
  // A corpus without threat-type labels (real captures) has no per-category truth to score.
  if (report.categories.some((c) => c.support > 0)) {
    console.log('');
    const categories = categoryTable(report);
    printTable(categories.headers, categories.rows);
  }
  const misses = report.rows.filter((r) => r.verdict !== r.expected || r.missingSignals.length > 0);
  if (misses.length > 0) {
    console.log('\npages off their label:');
    for (const row of misses) {
      const signals =
        row.missingSignals.length > 0 ? `; missing ${row.missingSignals.join(', ')}` : '';
      console.log(`  ${row.id}: ${row.verdict} (expected ${row.expected})${signals}`);
    }
  }
  for (const alarm of report.benignAlarms) {
    console.log(`  benign ${alarm.id}: ${alarm.alarms.join(', ')}`);
  }
}

/** The URL layer alone (no store needed). */
function evalUrlLayer(options: EvalOptions): void {
  const engine = defaultEngine();
  const malicious =
    options.malicious === undefined
      ? null
      : evaluateRows(engine, readRows(options.malicious), SERVICE_COVERAGE);
  const benign =
    options.benign === undefined
      ? null
      : evaluateRows(engine, readRows(options.benign), SERVICE_COVERAGE);
  const all = [malicious, benign].filter((c): c is EvalCounts => c !== null);
  const report = {
    malicious:
      malicious === null
        ? null
        : {
            ...malicious,
            recall: notSafeRate(malicious),
            danger_recall: dangerRate(malicious),
            brand_accuracy: brandAccuracy(malicious),
            brand_precision: brandPrecision(malicious),
          },
    benign:
      benign === null
        ? null
        : {
            ...benign,
            false_positive_rate: notSafeRate(benign),
            danger_false_positive_rate: dangerRate(benign),
          },
    urls_per_second: Math.round(urlsPerSecond(all)),
  };
  if (options.json === true) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const rows: string[][] = [];
  if (malicious !== null) {
    rows.push(['malicious rows (invalid)', `${malicious.rows} (${malicious.invalid})`]);
    rows.push(['recall (not safe)', pct(notSafeRate(malicious))]);
    rows.push(['danger recall', pct(dangerRate(malicious))]);
    rows.push([
      'brand precision',
      `${pct(brandPrecision(malicious))} of ${malicious.brandNamed} rows where a brand was named`,
    ]);
    rows.push([
      'brand accuracy',
      `${pct(brandAccuracy(malicious))} of ${malicious.brandRows} rows with a catalog brand`,
    ]);
  }
  if (benign !== null) {
    rows.push(['benign rows (invalid)', `${benign.rows} (${benign.invalid})`]);
    rows.push(['false positives (not safe)', pct(notSafeRate(benign))]);
    rows.push(['danger false positives', pct(dangerRate(benign))]);
  }
  rows.push(['URLs per second', String(report.urls_per_second)]);
  printTable(['measure', 'value'], rows);
}

/** The URL layer plus the store's feeds, optionally split in time at `--cutoff`. */
async function evalWithIntel(options: EvalOptions): Promise<void> {
  const cutoff = options.cutoff === undefined ? null : readCutoff(options.cutoff);
  // Read the files first: a bad path is reported before the index is built.
  const maliciousRows = options.malicious === undefined ? null : readRows(options.malicious);
  const benignRows = options.benign === undefined ? null : readRows(options.benign);
  const engine = defaultEngine();
  const started = performance.now();
  const stored = await indexFromStore(engine, cutoff);
  const indexSeconds = (performance.now() - started) / 1000;

  let beforeCutoff = 0;
  let undatedRows = 0;
  const selected =
    maliciousRows === null
      ? null
      : maliciousRows.filter((row) => {
          if (cutoff === null) return true;
          if (row.firstSeen === undefined) {
            undatedRows++;
            return false;
          }
          if (row.firstSeen < cutoff) {
            beforeCutoff++;
            return false;
          }
          return true;
        });
  const malicious =
    selected === null ? null : evaluateWithIntel(engine, selected, stored.index, {});
  const benign =
    benignRows === null
      ? null
      : evaluateWithIntel(engine, benignRows, stored.index, { listedLimit: 100 });
  const all = [malicious, benign].filter((c): c is IntelEvalCounts => c !== null);

  const report = {
    intel: {
      feeds: stored.feeds,
      indexed: stored.index.size,
      index: stored.index.stats,
      index_seconds: indexSeconds,
      cutoff: cutoff === null ? null : new Date(cutoff).toISOString().slice(0, 10),
      entries_after_cutoff: stored.afterCutoff,
      entries_undated: stored.undated,
    },
    malicious:
      malicious === null
        ? null
        : {
            ...intelView(malicious),
            recall: notSafeRate(malicious),
            danger_recall: dangerRate(malicious),
            rows_before_cutoff: beforeCutoff,
            rows_undated: undatedRows,
          },
    benign:
      benign === null
        ? null
        : {
            ...intelView(benign),
            false_positive_rate: notSafeRate(benign),
            danger_false_positive_rate: dangerRate(benign),
            listed: benign.listed.map((row) => ({ url: row.url, feeds: row.feeds })),
          },
    urls_per_second: Math.round(urlsPerSecond(all)),
  };
  if (options.json === true) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const rows: string[][] = [];
  const cutoffDay = report.intel.cutoff;
  rows.push([
    'feeds indexed',
    `${stored.feeds.join(', ')}: ${stored.index.size} entries` +
      (cutoffDay === null
        ? ''
        : ` first seen before ${cutoffDay} (left out: ${stored.afterCutoff} later, ${stored.undated} undated)`),
  ]);
  if (malicious !== null) {
    const skipped =
      cutoffDay === null
        ? ''
        : ` (skipped: ${beforeCutoff} first seen before ${cutoffDay}, ${undatedRows} undated)`;
    rows.push(['malicious rows (invalid)', `${malicious.rows} (${malicious.invalid})${skipped}`]);
    rows.push(['recall (not safe)', pct(notSafeRate(malicious))]);
    rows.push(['  URL layer alone', pct(notSafeRate(malicious.urlLayer))]);
    rows.push(['danger recall', pct(dangerRate(malicious))]);
    rows.push(['  URL layer alone', pct(dangerRate(malicious.urlLayer))]);
    rows.push([
      'known threat (feed hit)',
      `${pct(knownThreatRate(malicious))} ${byFeed(malicious)}`,
    ]);
  }
  if (benign !== null) {
    rows.push(['benign rows (invalid)', `${benign.rows} (${benign.invalid})`]);
    rows.push(['false positives (not safe)', pct(notSafeRate(benign))]);
    rows.push(['  URL layer alone', pct(notSafeRate(benign.urlLayer))]);
    rows.push(['danger false positives', pct(dangerRate(benign))]);
    rows.push(['benign rows a feed lists', `${benign.knownThreat} ${byFeed(benign)}`]);
  }
  rows.push(['URLs per second', String(report.urls_per_second)]);
  printTable(['measure', 'value'], rows);
}

/** `(openphish 12, phishtank 3)`, or '' without hits. */
function byFeed(counts: IntelEvalCounts): string {
  const entries = Object.entries(counts.hitsByFeed).sort((a, b) => b[1] - a[1]);
  return entries.length === 0
    ? ''
    : `(${entries.map(([feed, hits]) => `${feed} ${hits}`).join(', ')})`;
}
