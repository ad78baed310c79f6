/**
 * @module cli/commands/feeds-command
 * `linkguard feeds import|list|status|remove`: threat-intelligence feeds of layer 2. `import`
 * reads a file in one of the feed formats and replaces that feed's entries; running servers
 * pick the change up within seconds (they poll the store's feed version). Feeds configured by
 * URL (`FEEDS`) are refreshed by `serve` itself.
 */
import { readFileSync } from 'node:fs';

import { Command, Option } from 'commander';
import pc from 'picocolors';

import { systemClock } from '../../clock.js';
import { THREAT_TYPES, type ThreatType } from '../../engine/verdict.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { importFeed } from '../../intel/feed-import.js';
import { FEED_FORMATS, type FeedFormat, FeedFormatError } from '../../intel/feeds/parse-feed.js';
import { IntelLayer } from '../../intel/intel-layer.js';
import type { FeedRecord } from '../../store/ports/intel-store.js';
import { isoOrEmpty } from '../format-time.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

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
          csv === undefined ? {} : { csv },
        ).catch((error: unknown) => {
          if (error instanceof FeedFormatError || error instanceof RangeError) {
            throw new UsageError(error.message);
          }
          throw error;
        }),
      );
      if (options.json === true) {
        console.log(JSON.stringify({ ...feedView(result.feed), skipped: result.skipped }));
        return;
      }
      console.log(
        `${pc.green('Imported')} ${result.entries} entries into feed ${pc.bold(name)}` +
          (result.skipped > 0 ? ` (${result.skipped} unreadable rows skipped)` : '') +
          '.',
      );
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

  return feeds;
}
