/**
 * @module engine/engine-data
 * Shapes of the data files the engine runs on (`data/*.json`, documented in data/SOURCES.md).
 * The engine never reads files: a loader outside the engine (`src/engine-data/`) reads and
 * validates them and passes a {@link RawEngineData} to `createEngine()`, the way tldts-core takes
 * its suffix trie as an argument.
 */

import type { UrlModelParams } from './model/url-model.js';

/** Brand categories of `data/brands.json`. */
export const BRAND_CATEGORIES = [
  'wallet',
  'exchange',
  'defi',
  'nft',
  'crypto',
  'payment',
  'bank',
  'delivery',
  'government',
  'tech',
  'email',
  'social',
  'retail',
  'streaming',
  'gaming',
  'telecom',
  'travel',
  'other',
] as const;

export type BrandCategory = (typeof BRAND_CATEGORIES)[number];

/** Brand categories of the crypto world: wallets, exchanges, DeFi, NFT markets and chains. */
export const CRYPTO_BRAND_CATEGORIES: ReadonlySet<BrandCategory> = new Set([
  'wallet',
  'exchange',
  'defi',
  'nft',
  'crypto',
]);

/** One entry of `data/brands.json`. */
export interface BrandRecord {
  /** kebab-case unique id. */
  id: string;
  /** Display name, used in `brand` and `details.matched_brand`. */
  name: string;
  /** Lowercase names people write in text, for brand look-up by name. */
  aliases: string[];
  /** Lowercase `[a-z0-9]{3,}` strings that point to the brand inside a host name. */
  tokens: string[];
  /** The main token is an ordinary word: match only whole words with phishing context. */
  common_word: boolean;
  /**
   * Software customers run on their own domains (Roundcube, cPanel, Outlook Web App): its name on
   * an unrelated host or page is how it is installed, not impersonation by itself.
   */
  self_hosted?: boolean;
  /** Official registrable domains (PSL with private section); the first is the primary one. */
  domains: string[];
  category: BrandCategory;
  /** ISO 3166-1 alpha-2 of the brand's home country. */
  country: string;
  /** `national` brands serve one country's market; their country becomes `target_country`. */
  scope: 'global' | 'national';
  /** How the official domains were established (entries added from 2026-11-26 on). */
  source?: string;
}

/** Kinds of shared hosting in `data/lists/hosting-platforms.json`. */
export type HostingKind = 'static' | 'builder' | 'tunnel' | 'ddns' | 'ipfs' | 'storage' | 'shared';

/** One platform whose subdomains or paths third parties control. */
export interface HostingPlatformRecord {
  /** Host suffix, e.g. `pages.dev`, `storage.googleapis.com`. */
  suffix: string;
  /** Who runs it, for reasons. */
  operator: string;
  kind: HostingKind;
  /** `subdomain`: tenant = label left of the suffix; `path`: tenant = first path segment(s). */
  tenancy: 'subdomain' | 'path';
  /** Whether the suffix is in the PSL private section (informational). */
  psl: boolean;
  /** For `subdomain` platforms that also serve tenants under these path prefixes (`/ipfs/`). */
  path_prefixes?: string[];
}

/** Word groups of `data/lists/phishing-words.json`. */
export const WORD_GROUPS = [
  'credential',
  'account',
  'crypto',
  'seed',
  'airdrop',
  'giveaway',
  'support',
  'delivery',
  'payment',
  'government',
  'invoice',
  'web3',
  'generic',
] as const;

export type WordGroup = (typeof WORD_GROUPS)[number];

/** Everything the engine needs, as plain data. */
export interface RawEngineData {
  brands: BrandRecord[];
  hostingPlatforms: HostingPlatformRecord[];
  /** URL shortener hosts (`bit.ly`). */
  shorteners: string[];
  /** Link-in-bio hubs (`linktr.ee`): redirectors, judged like shorteners. */
  linkInBio: string[];
  /** Abused TLD tiers (detection.md §1.8). */
  abusedTlds: { tier_a: string[]; tier_b: string[]; tier_c: string[] };
  /** Lure words per group. A word may be in several groups. */
  phishingWords: Record<WordGroup, string[]>;
  /** Ordinary short words and web tokens used to segment labels. */
  fillerWords: string[];
  /**
   * Words companies put next to their own name in their own domains (`group`, `usa`, `cdn`,
   * `forum`), from `data/lists/company-words.json`.
   */
  companyWords: string[];
  /** English dictionary (SCOWL) used to segment labels and to spare real words from lookalike rules. */
  englishWords: string[];
  /** CDN and DNS edge suffixes whose host names embed customer domains by design. */
  cdnEdgeSuffixes: string[];
  /** Suffixes of machine-named cloud service endpoints (`elb.amazonaws.com`): the model skips them. */
  cloudEndpointSuffixes: string[];
  /** Popular registrable domains (top-site lists minus hosting platforms and shorteners). */
  popularDomains: string[];
  /** Text of `data/unicode/confusables.txt`. */
  confusables: string;
  /**
   * The learned URL model (`data/models/url-model.{bin,json}`), or null to run without it
   * (training runs, and tests that measure the rules alone).
   */
  urlModel: { weights: Int16Array; params: UrlModelParams } | null;
}
