/**
 * @module intel/feed-import
 * Putting a feed into the store: parse its text (`feeds/parse-feed.ts`) and replace the feed's
 * entries in one transaction. Used by `linkguard feeds import` (a file) and by the refresher
 * (a URL). Servers notice the change through the store's feed version and rebuild their index.
 */
import type { ThreatType } from '../engine/verdict.js';
import type { FeedRecord, IntelStore } from '../store/ports/intel-store.js';
import { type FeedFormat, parseFeed, type ParseFeedOptions } from './feeds/parse-feed.js';

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

export interface ImportResult {
  feed: FeedRecord;
  entries: number;
  skipped: number;
  problems: string[];
}

/**
 * Parse `text` and make it the feed's whole content.
 *
 * @param feed name (see {@link FEED_NAME}), format, source URL (null for a file), threat type
 *   (null: the format's default).
 * @param meta import time (epoch ms) and HTTP validators of the download, if any.
 * @throws FeedFormatError when the text is not in that format (nothing is changed).
 * @throws RangeError for an invalid feed name.
 */
export async function importFeed(
  store: IntelStore,
  feed: { name: string; format: FeedFormat; url: string | null; threat: ThreatType | null },
  text: string,
  meta: { at: number; etag?: string | null; lastModified?: string | null },
  options: ParseFeedOptions = {},
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
    entries: parsed.entries.length,
    skipped: parsed.skipped,
    problems: parsed.problems,
  };
}
