/**
 * @module scripts/dev-feeds
 * The development data of `../shared/data` as layer-2 threat feeds, for `npm run eval` (the
 * known-threat and time-split sections) and `npm run bench:intel`: one feed per malicious source,
 * named like the source so verdicts show `intel:<source>`, parsed by the same `parseFeed()` as
 * `linkguard feeds import`, with the threat type of `DEFAULT_THREAT` (src/intel/feed-import.ts)
 * for that kind of list.
 *
 * Only the development files listed in `../shared/data/README.md` are read; nothing is fetched and
 * no slice reserved for the held-out set is touched (each folder holds dev data only).
 *
 * First-seen dates: PhishTank `submission_time`; OpenPhish and ScamSniffer `first_seen`;
 * Discord-AntiScam `first_added`; ClickGrab `first_seen`; polkadot-js deny entries get the
 * earliest `date` of `meta_dated_additions.csv` (150 of the 53,319 deny hosts have none).
 * CryptoScamDB has no per-entry dates; its repository's last commit is 2022-06-28, so
 * `publishedBy` says every entry was public by then.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ThreatType } from '../src/engine/verdict.js';
import {
  type CsvColumns,
  type FeedFormat,
  parseFeed,
  type RawFeedEntry,
} from '../src/intel/feeds/parse-feed.js';

/** One development source as a feed. */
export interface DevFeed {
  /** The eval source name, also the feed name (`intel:<name>`). */
  name: string;
  threat: ThreatType | null;
  /** De-duplicated entries as `parseFeed` returns them, dates attached. */
  entries: RawFeedEntry[];
  /** Rows the parser could not read. */
  skipped: number;
  /** For a feed without per-entry dates: epoch ms by which all of it was published, else null. */
  publishedBy: number | null;
}

interface DevFeedFile {
  name: string;
  threat: ThreatType | null;
  file: string;
  format: FeedFormat;
  csv?: CsvColumns;
  publishedBy?: number;
}

/** The files, in the order of the eval tables. */
const FILES: readonly DevFeedFile[] = [
  {
    name: 'phishtank',
    threat: 'credential_phishing',
    file: 'phishtank-2022-03/verified_online.csv',
    format: 'phishtank-csv',
  },
  {
    name: 'openphish',
    threat: 'credential_phishing',
    file: 'openphish-community-feed-archive/urls_first_seen_2024-07_to_2024-12.csv',
    format: 'csv',
    csv: { value: 'url', date: 'first_seen' },
  },
  {
    name: 'scamsniffer',
    threat: 'crypto_scam',
    file: 'scamsniffer-scam-database/domains_first_seen_2022-05_to_2025-12.csv',
    format: 'csv',
    csv: { value: 'domain', date: 'first_seen' },
  },
  {
    name: 'polkadot',
    threat: 'crypto_scam',
    file: 'polkadot-js-phishing/all.json',
    format: 'polkadot-json',
  },
  {
    name: 'cryptoscamdb',
    threat: 'crypto_scam',
    file: 'cryptoscamdb-blacklist/urls_dev_split.csv',
    format: 'csv',
    csv: { value: 'url', target: 'subcategory' },
    // CryptoScamDB/blacklist @2208d2e (2022-06-28), the last commit (SOURCE.md).
    publishedBy: Date.UTC(2022, 5, 28),
  },
  {
    name: 'discord-antiscam',
    threat: 'crypto_scam',
    file: 'discord-antiscam-scam-links/domains_first_added_2021-09_to_2025-06.csv',
    format: 'csv',
    csv: { value: 'domain', date: 'first_added' },
  },
  {
    name: 'clickgrab',
    threat: null,
    file: 'clickgrab-clickfix/clickfix_urls_2026-04.csv',
    format: 'csv',
    csv: { value: 'url', date: 'first_seen' },
  },
];

/** Earliest addition date of each polkadot-js host (`meta_dated_additions.csv`), by feed value. */
export function polkadotDates(dataDir: string): Map<string, number> {
  const text = readFileSync(join(dataDir, 'polkadot-js-phishing/meta_dated_additions.csv'), 'utf8');
  const dates = new Map<string, number>();
  for (const entry of parseFeed('csv', text, { csv: { value: 'domain', date: 'date' } }).entries) {
    if (entry.firstSeen === null) continue;
    const known = dates.get(entry.value);
    if (known === undefined || entry.firstSeen < known) dates.set(entry.value, entry.firstSeen);
  }
  return dates;
}

/**
 * Parse the development feeds one at a time (a caller that indexes and drops each feed never holds
 * all the parsed entries at once, as the service reading the store page by page does not).
 *
 * @param dataDir the `shared/data` directory.
 */
export function* devFeeds(dataDir: string): Generator<DevFeed> {
  for (const spec of FILES) {
    const text = readFileSync(join(dataDir, spec.file), 'utf8');
    const parsed = parseFeed(spec.format, text, spec.csv === undefined ? {} : { csv: spec.csv });
    let entries = parsed.entries;
    if (spec.name === 'polkadot') {
      const dates = polkadotDates(dataDir);
      entries = entries.map((entry) =>
        entry.list === 'deny' ? { ...entry, firstSeen: dates.get(entry.value) ?? null } : entry,
      );
    }
    yield {
      name: spec.name,
      threat: spec.threat,
      entries,
      skipped: parsed.skipped,
      publishedBy: spec.publishedBy ?? null,
    };
  }
}

/** The names and threat types of the development feeds, in table order (nothing is read). */
export const DEV_FEEDS: readonly { name: string; threat: ThreatType | null }[] = FILES.map(
  ({ name, threat }) => ({ name, threat }),
);

/**
 * Parse every development feed (about 530k entries; about a second).
 *
 * @param dataDir the `shared/data` directory.
 */
export function loadDevFeeds(dataDir: string): DevFeed[] {
  return [...devFeeds(dataDir)];
}

/**
 * Whether an entry was public before `cutoff` (epoch ms): dated entries by their date; undated
 * entries of a feed with `publishedBy` before the cut-off; allow entries always (they name
 * platforms never to block, not threats, so they cannot leak knowledge of later scams).
 */
export function knownBefore(feed: DevFeed, entry: RawFeedEntry, cutoff: number): boolean {
  if (entry.list === 'allow') return true;
  if (entry.firstSeen !== null) return entry.firstSeen < cutoff;
  return feed.publishedBy !== null && feed.publishedBy < cutoff;
}
