/**
 * @module intel/feed-import
 * Putting a feed into the store: parse its text (`feeds/parse-feed.ts`) and replace the feed's
 * entries in one transaction. Used by `linkguard feeds import` (a file) and by the refresher
 * (a URL). Servers notice the change through the store's feed version and rebuild their index.
 */
import type { Engine } from '../engine/create-engine.js';
import type { ThreatType } from '../engine/verdict.js';
import type { FeedRecord, IntelStore } from '../store/ports/intel-store.js';
import { type FeedFormat, parseFeed, type ParseFeedOptions } from './feeds/parse-feed.js';
import { ThreatIndexBuilder } from './threat-index.js';

/**
 * Threat type a hit on a feed implies, by format, when the operator does not say: PhishTank and
 * OpenPhish list credential phishing; the web3 lists (polkadot-js, MetaMask, ScamSniffer,
 * CryptoScamDB) list crypto scams and drainers; URLhaus and generic lists imply none.
 */
export const DEFAULT_THREAT: Readonly<Record<FeedFormat, ThreatType | null>> = {
  plain: null,
  csv: null,
  'phishtank-csv': 'credential_phishing',
  'phishtank-json': 'credential_phishing',
  openphish: 'credential_phishing',
  'urlhaus-csv': null,
  'polkadot-json': 'crypto_scam',
  'metamask-json': 'crypto_scam',
  'scamsniffer-json': 'crypto_scam',
  'cryptoscamdb-yaml': 'crypto_scam',
};

/** Feed names appear in verdicts (`intel:<name>`): short, lower-case, no spaces. */
export const FEED_NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

/**
 * What the threat index makes of a feed's stored entries on its own (the classification of
 * `threat-index.ts`): entries it looks up, and entries it keeps out, by why.
 */
export interface ImportIndexReport {
  /** Entries the index uses: deny and allow hosts and URL prefixes. */
  indexed: number;
  /** Hosting-platform names and whole platform hosts: judged per tenant, never condemned whole. */
  platformHosts: number;
  /** Official or popular domains listed whole: never condemned whole (their pages may be). */
  protectedHosts: number;
  /** Fuzzy-list names: brands to protect from lookalikes, which layer 1 does; not looked up. */
  fuzzy: number;
  /** Values that are not URLs linkguard judges (private addresses, special-use names, …). */
  invalid: number;
}

export interface ImportResult {
  feed: FeedRecord;
  /** Data rows read from the file. */
  rows: number;
  /** Entries stored (the feed's whole content now). */
  entries: number;
  /** Unreadable rows, skipped. */
  skipped: number;
  /** Readable rows the format's rules leave out (PhishTank rows not verified online). */
  dropped: number;
  /** Rows merged into an earlier entry with the same list and value. */
  duplicates: number;
  /** What the index makes of the stored entries; present when an engine was given. */
  index?: ImportIndexReport;
  problems: string[];
}

/**
 * Parse `text` and make it the feed's whole content.
 *
 * @param feed name (see {@link FEED_NAME}), format, source URL (null for a file), threat type
 *   (null: the format's default).
 * @param meta import time (epoch ms) and HTTP validators of the download, if any.
 * @param options `csv` columns for format `csv`; `engine` to report what the threat index makes
 *   of the stored entries (`index`), classified as servers classify them when they rebuild.
 * @throws FeedFormatError when the text is not in that format (nothing is changed).
 * @throws RangeError for an invalid feed name.
 */
export async function importFeed(
  store: IntelStore,
  feed: { name: string; format: FeedFormat; url: string | null; threat: ThreatType | null },
  text: string,
  meta: { at: number; etag?: string | null; lastModified?: string | null },
  options: ParseFeedOptions & { engine?: Engine } = {},
): Promise<ImportResult> {
  if (!FEED_NAME.test(feed.name)) {
    throw new RangeError(
      `feed name "${feed.name}" must be 1–40 of a-z 0-9 . _ - (it appears in verdicts)`,
    );
  }
  const parsed = parseFeed(feed.format, text, options);
  const record = await store.upsertFeed({
    name: feed.name,
    format: feed.format,
    url: feed.url,
    threat: feed.threat ?? DEFAULT_THREAT[feed.format],
  });
  await store.replaceEntries(record.id, parsed.entries, {
    importedAt: meta.at,
    etag: meta.etag ?? null,
    lastModified: meta.lastModified ?? null,
  });
  const updated = (await store.listFeeds()).find((f) => f.id === record.id) ?? record;
  return {
    feed: updated,
    rows: parsed.rows,
    entries: parsed.entries.length,
    skipped: parsed.skipped,
    dropped: parsed.dropped,
    duplicates: parsed.duplicates,
    ...(options.engine === undefined
      ? {}
      : { index: indexReport(options.engine, updated, parsed.entries) }),
    problems: parsed.problems,
  };
}

/** Classify a feed's entries as the threat index would, this feed alone. */
function indexReport(
  engine: Engine,
  feed: FeedRecord,
  entries: ReturnType<typeof parseFeed>['entries'],
): ImportIndexReport {
  const builder = new ThreatIndexBuilder(engine, [{ id: feed.id, name: feed.name, threat: null }]);
  for (const entry of entries) builder.add(feed.id, entry);
  const stats = builder.build().stats;
  return {
    indexed: stats.hostDeny + stats.hostAllow + stats.prefixDeny + stats.prefixAllow,
    platformHosts: stats.platformHosts,
    protectedHosts: stats.protectedHosts,
    fuzzy: stats.fuzzy,
    invalid: stats.invalid,
  };
}
