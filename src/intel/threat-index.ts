/**
 * @module intel/threat-index
 * The in-memory index of threat-feed entries (layer 2): exact hosts, parent domains up to the site
 * boundary, and URL prefixes for shared hosts (see site-scope.ts). Allow entries win over deny
 * entries. Built once from the store by {@link ThreatIndexBuilder}, then read-only: a rebuild
 * makes a new index that the intel layer swaps in atomically.
 *
 * Entries are classified when indexed, with the engine's data of this version:
 * - a feed host on a hosting platform's own name (`vercel.app`, `docs.google.com`) is dropped —
 *   one bad tenant never blocks the platform;
 * - a feed host whose registrable domain is a brand's official or a popular domain is dropped
 *   (a feed error; a compromised page arrives as a URL);
 * - a feed URL on a path-tenancy host or a protected domain becomes a URL-prefix entry (host +
 *   path and query); any other feed URL condemns its host (dedicated phishing hosts), with a
 *   leading `www.` removed.
 * Memory: a Map key per host and a shared entry object per (feed, brand, first-seen day).
 */
import type { Brand } from '../engine/brand/brand-index.js';
import type { Engine } from '../engine/create-engine.js';
import type { FeedHit } from '../engine/intel-evidence.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import type { ThreatType } from '../engine/verdict.js';
import type { StoredFeedEntry } from '../store/ports/intel-store.js';
import { type SiteScope, siteScope, withoutWww } from './site-scope.js';

/** A feed as the index knows it. */
export interface IndexedFeed {
  id: number;
  name: string;
  threat: ThreatType | null;
}

interface Entry {
  feed: IndexedFeed;
  brand: Brand | null;
  firstSeen: number | null;
}

interface PrefixEntry {
  entry: Entry;
  /** Path and query the URL must start with (`/forms/d/abc`). */
  path: string;
}

/** Counts of what was indexed and what was dropped, for `feeds status` and the benchmark. */
export interface IndexStats {
  hostDeny: number;
  hostAllow: number;
  prefixDeny: number;
  prefixAllow: number;
  fuzzy: number;
  invalid: number;
  platformHosts: number;
  protectedHosts: number;
}

/** The result of a lookup: what the engine needs as `IntelEvidence.denied` / `allowedBy`. */
export interface IndexMatch {
  denied: FeedHit[];
  allowedBy: string[];
}

type Slot<T> = T | T[];

/** Feed first-seen times are kept to the day (the reason shows a date). */
const DAY_MS = 24 * 60 * 60 * 1000;

function push<T>(map: Map<string, Slot<T>>, key: string, value: T): void {
  const slot = map.get(key);
  if (slot === undefined) map.set(key, value);
  else if (Array.isArray(slot)) slot.push(value);
  else map.set(key, [slot, value]);
}

function each<T>(slot: Slot<T> | undefined): readonly T[] {
  return slot === undefined ? [] : Array.isArray(slot) ? slot : [slot];
}

export class ThreatIndex {
  constructor(
    private readonly engine: Engine,
    private readonly hostDeny: ReadonlyMap<string, Slot<Entry>>,
    private readonly hostAllow: ReadonlyMap<string, Slot<Entry>>,
    private readonly prefixDeny: ReadonlyMap<string, Slot<PrefixEntry>>,
    private readonly prefixAllow: ReadonlyMap<string, Slot<PrefixEntry>>,
    readonly feeds: readonly IndexedFeed[],
    readonly stats: Readonly<IndexStats>,
  ) {}

  /** An index with nothing in it. */
  static empty(engine: Engine): ThreatIndex {
    return new ThreatIndexBuilder(engine, []).build();
  }

  /** Entries indexed (deny and allow, host and prefix). */
  get size(): number {
    const s = this.stats;
    return s.hostDeny + s.hostAllow + s.prefixDeny + s.prefixAllow;
  }

  /**
   * Feed entries matching a URL: allow hits, else deny hits (at most one per feed).
   *
   * @param url a URL accepted by `normalizeUrl()`.
   * @param scope its scope when the caller has it (`scopeOfSite()` over the service's analysis);
   *   worked out from `url` otherwise.
   */
  lookup(url: ParsedUrl, scope?: SiteScope): IndexMatch {
    if (this.size === 0) return { denied: [], allowedBy: [] };
    scope ??= siteScope(this.engine, url);
    const pathAndQuery = url.pathname + url.search;
    const prefixHost = withoutWww(url.hostname, scope);

    // Allow entries vouch for the host they name (and its www), never for its subdomains: a
    // list that allows a platform (`fleek.co`) must not allow every tenant below it.
    const allowed = new Set<string>();
    for (const host of scope.hostCandidates.slice(0, 2)) {
      if (host !== url.hostname && host !== withoutWww(url.hostname, scope)) continue;
      for (const entry of each(this.hostAllow.get(host))) allowed.add(entry.feed.name);
    }
    for (const prefix of each(this.prefixAllow.get(prefixHost))) {
      if (pathAndQuery.startsWith(prefix.path)) allowed.add(prefix.entry.feed.name);
    }
    if (allowed.size > 0) return { denied: [], allowedBy: [...allowed].sort() };

    const hits = new Map<string, FeedHit>();
    if (!scope.protectedDomain) {
      for (const host of scope.hostCandidates) {
        for (const entry of each(this.hostDeny.get(host))) {
          if (!hits.has(entry.feed.name)) hits.set(entry.feed.name, hit(entry, 'host', host));
        }
      }
    }
    for (const prefix of each(this.prefixDeny.get(prefixHost))) {
      const { entry, path } = prefix;
      if (pathAndQuery.startsWith(path) && !hits.has(entry.feed.name)) {
        hits.set(entry.feed.name, hit(entry, 'url_prefix', prefixHost + path));
      }
    }
    return { denied: [...hits.values()], allowedBy: [] };
  }
}

function hit(entry: Entry, match: FeedHit['match'], matched: string): FeedHit {
  return {
    source: entry.feed.name,
    match,
    matched,
    threat: entry.feed.threat,
    brand: entry.brand,
    firstSeen: entry.firstSeen,
  };
}

/** Collects stored entries, classifies them (see the module comment) and builds the index. */
export class ThreatIndexBuilder {
  private readonly hostDeny = new Map<string, Slot<Entry>>();
  private readonly hostAllow = new Map<string, Slot<Entry>>();
  private readonly prefixDeny = new Map<string, Slot<PrefixEntry>>();
  private readonly prefixAllow = new Map<string, Slot<PrefixEntry>>();
  private readonly feedsById = new Map<number, IndexedFeed>();
  private readonly brands = new Map<string, Brand | null>();
  /** One shared Entry per (feed, brand, first-seen day): a million entries share a few thousand. */
  private readonly interned = new Map<string, Entry>();
  private readonly stats: IndexStats = {
    hostDeny: 0,
    hostAllow: 0,
    prefixDeny: 0,
    prefixAllow: 0,
    fuzzy: 0,
    invalid: 0,
    platformHosts: 0,
    protectedHosts: 0,
  };

  constructor(
    private readonly engine: Engine,
    private readonly feeds: readonly IndexedFeed[],
  ) {
    for (const feed of feeds) this.feedsById.set(feed.id, feed);
  }

  /** Add one stored entry of feed `feedId` (entries of unknown feeds are ignored). */
  add(feedId: number, stored: StoredFeedEntry): void {
    const feed = this.feedsById.get(feedId);
    if (feed === undefined) return;
    if (stored.list === 'fuzzy') {
      // Fuzzy lists name brands to protect from lookalikes: layer 1's job, not a deny entry.
      this.stats.fuzzy++;
      return;
    }
    const parsed = normalizeUrl(stored.value);
    if (!parsed.ok) {
      this.stats.invalid++;
      return;
    }
    const url = parsed.url;
    const scope = siteScope(this.engine, url);
    const entry = this.intern(feed, this.brandOf(stored.target), stored.firstSeen);
    const deny = stored.list === 'deny';
    const hostOnly = stored.kind === 'host';

    if (hostOnly || !(scope.pathTenancy || scope.platformHost || scope.protectedDomain)) {
      if (scope.platformHost || (scope.pathTenancy && hostOnly)) {
        this.stats.platformHosts++;
        return;
      }
      if (scope.protectedDomain && deny) {
        this.stats.protectedHosts++;
        return;
      }
      push(deny ? this.hostDeny : this.hostAllow, withoutWww(url.hostname, scope), entry);
      if (deny) this.stats.hostDeny++;
      else this.stats.hostAllow++;
      return;
    }
    const path = url.pathname + url.search;
    if (path === '/') {
      // The whole shared or protected host: never blocked because one tenant or page is bad.
      if (scope.protectedDomain) this.stats.protectedHosts++;
      else this.stats.platformHosts++;
      return;
    }
    const prefix: PrefixEntry = { entry, path };
    push(deny ? this.prefixDeny : this.prefixAllow, withoutWww(url.hostname, scope), prefix);
    if (deny) this.stats.prefixDeny++;
    else this.stats.prefixAllow++;
  }

  build(): ThreatIndex {
    return new ThreatIndex(
      this.engine,
      this.hostDeny,
      this.hostAllow,
      this.prefixDeny,
      this.prefixAllow,
      this.feeds,
      { ...this.stats },
    );
  }

  private intern(feed: IndexedFeed, brand: Brand | null, firstSeen: number | null): Entry {
    const day = firstSeen === null ? null : Math.floor(firstSeen / DAY_MS) * DAY_MS;
    const key = `${feed.id}|${brand?.id ?? ''}|${day ?? ''}`;
    let entry = this.interned.get(key);
    if (entry === undefined) {
      entry = { feed, brand, firstSeen: day };
      this.interned.set(key, entry);
    }
    return entry;
  }

  /** The catalog brand a feed's target names (PhishTank "PayPal", "Amazon.com"), or null. */
  private brandOf(target: string | null): Brand | null {
    if (target === null) return null;
    let brand = this.brands.get(target);
    if (brand === undefined) {
      brand = this.engine.brands.brandByName(target) ?? null;
      this.brands.set(target, brand);
    }
    return brand;
  }
}
