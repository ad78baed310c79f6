/**
 * @module cli/commands/feeds-command
 * `linkguard feeds import|list|status|remove|catalog|add`: threat-intelligence feeds of layer 2.
 * `import` reads a file in one of the feed formats and replaces that feed's entries; running
 * servers pick the change up within seconds (they poll the store's feed version). Feeds with a
 * URL — registered from the catalog (`feeds add`, `feeds-catalog-commands.ts`) or configured in
 * `FEEDS` — are downloaded and refreshed by `serve` itself.
 */
import { readFileSync } from 'node:fs';

import { Command, Option } from 'commander';
import pc from 'picocolors';

import { systemClock } from '../../clock.js';
import { THREAT_TYPES, type ThreatType } from '../../engine/verdict.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { importFeed, type ImportResult } from '../../intel/feed-import.js';
import { FEED_FORMATS, type FeedFormat, FeedFormatError } from '../../intel/feeds/parse-feed.js';
import { IntelLayer } from '../../intel/intel-layer.js';
import type { FeedRecord } from '../../store/ports/intel-store.js';
import { isoOrEmpty } from '../format-time.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';
import { addCatalogCommands } from './feeds-catalog-commands.js';

interface ImportOptions {
  format: FeedFormat;
  source?: string;
  threat?: ThreatType;
  csvValue?: string;
  csvDate?: string;
  csvTarget?: string;
  json?: boolean;
}

function feedView(feed: FeedRecord) {
  return {
    name: feed.name,
    format: feed.format,
    url: feed.url,
    threat: feed.threat,
    entries: feed.entryCount,
    imported_at: feed.importedAt === null ? null : isoOrEmpty(feed.importedAt),
    checked_at: feed.checkedAt === null ? null : isoOrEmpty(feed.checkedAt),
    last_error: feed.lastError,
  };
}

/** The JSON fields of an import beyond the feed's own: what was read, stored and used. */
function importView(result: ImportResult) {
  return {
    rows: result.rows,
    skipped: result.skipped,
    dropped: result.dropped,
    duplicates: result.duplicates,
    indexed: result.index?.indexed ?? null,
    not_indexed:
      result.index === undefined
        ? null
        : {
            hosting_platform: result.index.platformHosts,
            protected_domain: result.index.protectedHosts,
            fuzzy: result.index.fuzzy,
            invalid: result.index.invalid,
          },
  };
}

/**
 * The import in words: rows read, entries stored, and of those what the index uses and what it
 * leaves out and why, so a count never claims entries that do nothing.
 */
function describeImport(name: string, result: ImportResult): string[] {
  const count = (n: number): string => n.toLocaleString('en-US');
  const notStored = [
    [result.duplicates, 'duplicates merged'],
    [result.skipped, 'unreadable rows skipped'],
    [result.dropped, "rows the format's rules leave out (e.g. not verified)"],
  ] as const;
  const lines = [
    `${pc.green('Imported')} feed ${pc.bold(name)}: ${count(result.rows)} rows read, ` +
      `${count(result.entries)} entries stored` +
      notStored
        .filter(([n]) => n > 0)
        .map(([n, why]) => `; ${count(n)} ${why}`)
        .join('') +
      '.',
  ];
  const index = result.index;
  if (index === undefined) return lines;
  const unused = [
    [index.platformHosts, 'hosting-platform names (judged per tenant, never whole)'],
    [index.protectedHosts, 'official or popular domains (never condemned whole)'],
    [index.fuzzy, 'fuzzy-list names (lookalikes are layer 1’s job)'],
    [index.invalid, 'not URLs linkguard judges (private addresses, special-use names, …)'],
  ] as const;
  const left = unused.filter(([n]) => n > 0);
  lines.push(
    `Used by the index: ${count(index.indexed)} of ${count(result.entries)}` +
      (left.length === 0
        ? '.'
        : `; not used: ${left.map(([n, why]) => `${count(n)} ${why}`).join(', ')}.`),
  );
  return lines;
}

/** Default feed name of a file: its base name without extension (`verified_online`). */
function nameOf(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, 40);
}

export function feedsCommand(): Command {
  const feeds = new Command('feeds').description('threat-intelligence feeds (layer 2)');

  feeds
    .command('import')
    .description("import a feed file, replacing that feed's entries")
    .argument('<file>', 'the feed file')
    .addOption(
      new Option('--format <format>', 'feed format').choices(FEED_FORMATS).makeOptionMandatory(),
    )
    .option('--source <name>', 'feed name shown in verdicts (default: the file name)')
    .addOption(
      new Option('--threat <type>', 'threat type a hit implies (default: by format)').choices(
        THREAT_TYPES,
      ),
    )
    .option('--csv-value <column>', 'format csv: the column with the host or URL')
    .option('--csv-date <column>', 'format csv: the first-seen date column')
    .option('--csv-target <column>', 'format csv: the target brand column')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: ImportOptions) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw new UsageError(`cannot read ${file}`);
      }
      if (options.format === 'csv' && options.csvValue === undefined) {
        throw new UsageError('--format csv needs --csv-value <column>');
      }
      const csv =
        options.csvValue === undefined
          ? undefined
          : {
              value: options.csvValue,
              ...(options.csvDate === undefined ? {} : { date: options.csvDate }),
              ...(options.csvTarget === undefined ? {} : { target: options.csvTarget }),
            };
      const name = options.source ?? nameOf(file);
      const result = await withStore((store) =>
        importFeed(
          store.intel,
          { name, format: options.format, url: null, threat: options.threat ?? null },
          text,
          { at: systemClock.now() },
          { engine: defaultEngine(), ...(csv === undefined ? {} : { csv }) },
        ).catch((error: unknown) => {
          if (error instanceof FeedFormatError || error instanceof RangeError) {
            throw new UsageError(error.message);
          }
          throw error;
        }),
      );
      if (options.json === true) {
        console.log(JSON.stringify({ ...feedView(result.feed), ...importView(result) }));
        return;
      }
      for (const line of describeImport(name, result)) console.log(line);
      for (const problem of result.problems) console.log(pc.dim(`  ${problem}`));
    });

  feeds
    .command('list')
    .description('feeds in the store')
    .option('--json', 'JSON Lines')
    .action(async (options: { json?: boolean }) => {
      const list = await withStore((store) => store.intel.listFeeds());
      if (options.json === true) {
        for (const feed of list) console.log(JSON.stringify(feedView(feed)));
        return;
      }
      printTable(
        ['name', 'format', 'entries', 'imported', 'source'],
        list.map((f) => [
          f.name,
          f.format,
          String(f.entryCount),
          isoOrEmpty(f.importedAt),
          f.url ?? '(file)',
        ]),
      );
    });

  feeds
    .command('status')
    .description('feeds, their freshness and errors, and what the index makes of them')
    .option('--json', 'JSON')
    .action(async (options: { json?: boolean }) => {
      const { list, stats, ms } = await withStore(async (store) => {
        const started = performance.now();
        const layer = new IntelLayer({ engine: defaultEngine(), store: store.intel });
        await layer.refresh();
        return {
          list: await store.intel.listFeeds(),
          stats: layer.current.stats,
          ms: performance.now() - started,
        };
      });
      if (options.json === true) {
        console.log(JSON.stringify({ feeds: list.map(feedView), index: stats }));
        return;
      }
      printTable(
        ['name', 'entries', 'imported', 'last check', 'error'],
        list.map((f) => [
          f.name,
          String(f.entryCount),
          isoOrEmpty(f.importedAt),
          isoOrEmpty(f.checkedAt),
          f.lastError === null ? '' : pc.red(f.lastError),
        ]),
      );
      console.log(
        `\nIndex: ${stats.hostDeny} deny hosts, ${stats.prefixDeny} deny URL prefixes, ` +
          `${stats.hostAllow + stats.prefixAllow} allow entries; not indexed: ` +
          `${stats.platformHosts} hosting-platform names, ${stats.protectedHosts} official or popular domains, ` +
          `${stats.fuzzy} fuzzy-list names, ${stats.invalid} invalid (built in ${Math.round(ms)} ms).`,
      );
    });

  feeds
    .command('remove')
    .description('delete a feed and its entries')
    .argument('<name>', 'feed name')
    .action(async (name: string) => {
      const removed = await withStore((store) => store.intel.removeFeed(name));
      if (!removed) {
        console.error(`No feed named ${name}.`);
        process.exitCode = 1;
        return;
      }
      console.log(`Removed feed ${name}.`);
    });

  addCatalogCommands(feeds);
  return feeds;
}
