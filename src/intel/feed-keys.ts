/**
 * @module intel/feed-keys
 * The environment variables that hold the keys of keyed catalog feeds (`data/feeds/catalog.json`),
 * apart from the catalog so configuration can read them without loading it. Keys stay in the
 * environment of `serve`: the store keeps a catalog URL with its `{key}` placeholder, never the
 * key (docs/decisions.md, decision 177).
 */

/** PhishTank application key; URLhaus (abuse.ch) Auth-Key. */
export const FEED_KEY_ENVS = ['PHISHTANK_APP_KEY', 'URLHAUS_AUTH_KEY'] as const;
export type FeedKeyEnv = (typeof FEED_KEY_ENVS)[number];
/** Keys by variable name; a variable that is not set is absent. Secrets: never logged. */
export type FeedKeys = Readonly<Partial<Record<FeedKeyEnv, string>>>;
