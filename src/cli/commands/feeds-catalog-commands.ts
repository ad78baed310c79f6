/**
 * @module cli/commands/feeds-catalog-commands
 * `linkguard feeds catalog` and `linkguard feeds add <name…> | --all-free`: the shipped catalog of
 * free public feeds (`data/feeds/catalog.json`) and registering its entries for `serve` to keep
 * fresh. A registered feed is a feed in the store with the catalog's URL and format and no entries
 * yet; `serve` downloads it within a minute and then at the provider's interval, and so does
 * every other instance on the same store (docs/decisions.md, decisions 176–179).
 *
 * Registering never takes on terms the operator did not see: a feed whose terms forbid or do not
 * clearly allow commercial use needs `--accept-terms`, and `--all-free` takes only feeds with
 * permissive licences and no key.
 */
import type { Command } from 'commander';
import pc from 'picocolors';

import { loadConfig } from '../../config/config.js';
import { type CatalogFeed, feedCatalog } from '../../intel/feed-catalog.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

/** The JSON of a catalog entry as `feeds catalog --json` prints it: the file's own fields. */
function catalogView(feed: CatalogFeed) {
  return { ...feed };
}

function minutes(n: number): string {
  return n % 60 === 0 ? `${n / 60} h` : `${n} min`;
}

function compactMinutes(n: number): string {
  return n % 60 === 0 ? `${n / 60}h` : `${n}m`;
}

/** One line on the terms of a feed, for the operator to read before registering it. */
function termsLine(feed: CatalogFeed): string {
  const use =
    feed.commercial_use === 'allowed'
      ? 'commercial use allowed'
      : feed.commercial_use === 'forbidden'
        ? 'commercial use forbidden'
        : 'commercial use not verified';
  return `${feed.name}: ${feed.license}; ${use} (${feed.terms_url}). ${feed.notes}`;
}

/**
 * Resolve the names to register.
 *
 * @throws UsageError for no names and no `--all-free`, both at once, an unknown name, or a feed
 *   whose terms need `--accept-terms` (nothing is registered then).
 */
function selectFeeds(
  catalog: readonly CatalogFeed[],
  names: readonly string[],
  options: { allFree?: boolean; acceptTerms?: boolean },
): CatalogFeed[] {
  if (options.allFree === true) {
    if (names.length > 0) throw new UsageError('give feed names or --all-free, not both');
    return catalog.filter((feed) => feed.all_free);
  }
  if (names.length === 0) {
    throw new UsageError('give one or more catalog feed names, or --all-free (see feeds catalog)');
  }
  const selected = [...new Set(names)].map((name) => {
    const feed = catalog.find((entry) => entry.name === name);
    if (feed === undefined) {
      throw new UsageError(
        `no catalog feed named ${name}; known: ${catalog.map((f) => f.name).join(', ')}`,
      );
    }
    return feed;
  });
  const restricted = selected.filter((feed) => feed.commercial_use !== 'allowed');
  if (restricted.length > 0 && options.acceptTerms !== true) {
    throw new UsageError(
      `read the terms first, then add --accept-terms: ${restricted.map(termsLine).join(' | ')}`,
    );
  }
  return selected;
}

/** Register `feeds catalog` and `feeds add` on the `feeds` command. */
export function addCatalogCommands(feeds: Command): void {
  feeds
    .command('catalog')
    .description('free public feeds linkguard can keep fresh (feeds add <name>)')
    .option('--json', 'JSON Lines: every field of each catalog entry')
    .action((options: { json?: boolean }) => {
      const catalog = feedCatalog();
      if (options.json === true) {
        for (const feed of catalog) console.log(JSON.stringify(catalogView(feed)));
        return;
      }
      printTable(
        // Kept within 80 columns: the terms follow on lines of their own.
        ['name', 'format', 'every', 'key', 'commercial', 'free'],
        catalog.map((feed) => [
          feed.name,
          feed.format,
          compactMinutes(feed.min_refresh_minutes),
          feed.key?.env ?? '-',
          feed.commercial_use,
          feed.all_free ? 'yes' : 'no',
        ]),
      );
      console.log(
        '\nevery: the least interval between downloads; free: added by feeds add --all-free.',
      );
      console.log('\nTerms (read them before adding a feed):');
      for (const feed of catalog) console.log(pc.dim(`  ${termsLine(feed)}`));
    });

  feeds
    .command('add')
    .description('register catalog feeds for serve to download and keep fresh')
    .argument('[names...]', 'catalog feed names (feeds catalog)')
    .option('--all-free', 'every catalog feed with a permissive licence and no key')
    .option(
      '--accept-terms',
      'register feeds whose terms restrict or do not clearly allow commercial use',
    )
    .option('--json', 'JSON Lines: the registered feeds')
    .action(
      async (
        names: string[],
        options: { allFree?: boolean; acceptTerms?: boolean; json?: boolean },
      ) => {
        const selected = selectFeeds(feedCatalog(), names, options);
        // Only whether a key is set is said, never the key.
        const keys = loadConfig().feedKeys;
        const records = await withStore(async (store) => {
          const out = [];
          for (const feed of selected) {
            out.push(
              await store.intel.upsertFeed({
                name: feed.name,
                format: feed.format,
                url: feed.url,
                threat: feed.threat,
              }),
            );
          }
          return out;
        });
        for (const [i, record] of records.entries()) {
          const feed = selected[i];
          if (feed === undefined) continue;
          const keyEnv = feed.key?.env;
          if (options.json === true) {
            console.log(
              JSON.stringify({
                name: record.name,
                format: record.format,
                url: record.url,
                threat: record.threat,
                entries: record.entryCount,
                min_refresh_minutes: feed.min_refresh_minutes,
                key_env: keyEnv ?? null,
                key_set: keyEnv === undefined ? null : keys[keyEnv] !== undefined,
              }),
            );
            continue;
          }
          console.log(
            `${pc.green('Registered')} ${pc.bold(feed.name)} (${feed.format}, at most every ` +
              `${minutes(feed.min_refresh_minutes)}): serve downloads it and keeps it fresh.`,
          );
          if (keyEnv !== undefined && keys[keyEnv] === undefined) {
            console.log(
              pc.yellow(`  needs ${keyEnv} in the environment of serve (${feed.key?.signup_url}).`),
            );
          }
        }
      },
    );
}
