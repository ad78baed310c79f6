/**
 * @module intel/feed-catalog
 * The catalog of free public threat feeds shipped in `data/feeds/catalog.json`: where each one is
 * published, the parser that reads it, its licence terms, whether it needs a key, and the shortest
 * interval its provider asks to be fetched at. `linkguard feeds add <name>` registers an entry in
 * the store (a feed with a URL), and `serve` keeps registered feeds fresh
 * (`feed-refresh-plan.ts`); nothing in the catalog is fetched until an operator registers it
 * (docs/decisions.md, decision 176).
 *
 * The file is validated when it is loaded, like the engine's data files: a bad hand edit stops
 * the command with the file and the field named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import Type from 'typebox';
import { Compile } from 'typebox/compile';

import { THREAT_TYPES, type ThreatType } from '../engine/verdict.js';
import { dataDirectory } from '../engine-data/load-engine-data.js';
import { FEED_NAME } from './feed-import.js';
import { FEED_KEY_ENVS, type FeedKeyEnv, type FeedKeys } from './feed-keys.js';
import { FEED_FORMATS, type FeedFormat } from './feeds/parse-feed.js';

export { FEED_KEY_ENVS, type FeedKeyEnv, type FeedKeys } from './feed-keys.js';

/** The placeholder a keyed feed's URL carries where the key goes. */
export const KEY_PLACEHOLDER = '{key}';

const Url = Type.String({ pattern: '^https?://[^\\s]+$' });

export const CatalogFeedSchema = Type.Object(
  {
    name: Type.String({ pattern: FEED_NAME.source }),
    title: Type.String({ minLength: 1 }),
    url: Url,
    format: Type.Union(FEED_FORMATS.filter((f) => f !== 'csv').map((f) => Type.Literal(f))),
    threat: Type.Union([Type.Null(), ...THREAT_TYPES.map((t) => Type.Literal(t))]),
    /** Shortest interval between downloads, minutes: the provider's stated limit or cadence. */
    min_refresh_minutes: Type.Integer({ minimum: 5, maximum: 10_080 }),
    /** Where that interval comes from, with the provider's page. */
    refresh_source: Type.String({ minLength: 1 }),
    license: Type.String({ minLength: 1 }),
    /** The public page stating the licence or terms. */
    terms_url: Url,
    /**
     * Whether the terms allow a commercial service (linkguard sells verdicts) to use the data:
     * `unverified` when the terms could not be confirmed from a public source.
     */
    commercial_use: Type.Union([
      Type.Literal('allowed'),
      Type.Literal('forbidden'),
      Type.Literal('unverified'),
    ]),
    key: Type.Union([
      Type.Null(),
      Type.Object(
        {
          env: Type.Union(FEED_KEY_ENVS.map((e) => Type.Literal(e))),
          signup_url: Url,
          notes: Type.String(),
        },
        { additionalProperties: false },
      ),
    ]),
    /** Registered by `linkguard feeds add --all-free`. */
    all_free: Type.Boolean(),
    notes: Type.String(),
  },
  { additionalProperties: false },
);

export const CatalogFileSchema = Type.Object(
  { _comment: Type.String(), feeds: Type.Array(CatalogFeedSchema, { minItems: 1 }) },
  { additionalProperties: false },
);

/** One catalog entry: the fields of {@link CatalogFeedSchema}, with their literal types. */
export interface CatalogFeed {
  name: string;
  title: string;
  url: string;
  format: Exclude<FeedFormat, 'csv'>;
  threat: ThreatType | null;
  min_refresh_minutes: number;
  refresh_source: string;
  license: string;
  terms_url: string;
  commercial_use: 'allowed' | 'forbidden' | 'unverified';
  key: { env: FeedKeyEnv; signup_url: string; notes: string } | null;
  all_free: boolean;
  notes: string;
}

/**
 * Read and validate the catalog.
 *
 * Beyond the schema: names are unique; a URL carries `{key}` exactly when the entry names a key;
 * an `all_free` entry needs no key and allows commercial use (the one command that registers
 * every free feed must never take on a licence the operator did not read).
 *
 * @param dir data directory (default: the package's own `data/`).
 * @returns the entries in file order, frozen.
 * @throws Error naming `data/feeds/catalog.json` and the field when the file is missing or invalid.
 */
export function loadFeedCatalog(dir: string = dataDirectory()): readonly CatalogFeed[] {
  const file = 'feeds/catalog.json';
  const fail = (message: string): never => {
    throw new Error(`data/${file}: ${message}`);
  };
  const value: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const validator = Compile(CatalogFileSchema);
  if (!validator.Check(value)) {
    const first = [...validator.Errors(value)][0];
    return fail(`${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`);
  }
  // The schema checked every field; its inferred type is wider than the literals it checked.
  const feeds = value.feeds as unknown as CatalogFeed[];
  const seen = new Set<string>();
  for (const feed of feeds) {
    if (seen.has(feed.name)) fail(`feed name ${feed.name} appears twice`);
    seen.add(feed.name);
    const keyed = feed.url.includes(KEY_PLACEHOLDER);
    if (keyed !== (feed.key !== null)) {
      fail(`${feed.name}: the URL must carry ${KEY_PLACEHOLDER} exactly when "key" is set`);
    }
    if (feed.all_free && (feed.key !== null || feed.commercial_use !== 'allowed')) {
      fail(`${feed.name}: an all_free feed needs no key and allows commercial use`);
    }
  }
  return Object.freeze(feeds.map((feed) => Object.freeze(feed)));
}

let shared: readonly CatalogFeed[] | undefined;

/** The package's catalog, read once per process. @throws as {@link loadFeedCatalog}. */
export function feedCatalog(): readonly CatalogFeed[] {
  shared ??= loadFeedCatalog();
  return shared;
}

/**
 * The URL to download a catalog feed from: its URL with the key filled in (URL-encoded) when it
 * needs one.
 *
 * @returns `{ url }`, or `{ missing }` naming the variable that is not set. The URL holds a
 *   secret when the feed is keyed: never store or log it.
 */
export function downloadUrl(
  feed: Pick<CatalogFeed, 'url' | 'key'>,
  keys: FeedKeys,
): { url: string } | { missing: FeedKeyEnv } {
  if (feed.key === null) return { url: feed.url };
  const key = keys[feed.key.env];
  if (key === undefined || key === '') return { missing: feed.key.env };
  return { url: feed.url.replace(KEY_PLACEHOLDER, encodeURIComponent(key)) };
}
