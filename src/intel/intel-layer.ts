/**
 * @module intel/intel-layer
 * Layer 2 as the detection service sees it: the threat-feed index (rebuilt from the store in the
 * background and swapped atomically when any process changes the feeds), domain age (RDAP) and
 * an optional commercial URL lookup (Google Web Risk), combined into the engine's
 * {@link IntelEvidence}. Lookups never throw: a source that fails or is late leaves its part
 * unknown (unknown is not safe, and it is not an error either).
 */
import { createHash } from 'node:crypto';

import type { Engine } from '../engine/create-engine.js';
import { type DomainAgeEvidence, type IntelEvidence, NO_INTEL } from '../engine/intel-evidence.js';
import type { SiteReading } from '../engine/rules/analyze-url.js';
import type { LayerCoverage } from '../engine/scoring/build-verdict.js';
import { THREAT_TYPES, type ThreatType } from '../engine/verdict.js';
import type { IntelStore } from '../store/ports/intel-store.js';
import { scopeOfSite } from './site-scope.js';
import { type IndexedFeed, ThreatIndex, ThreatIndexBuilder } from './threat-index.js';

/** Age of a registrable domain (the RDAP client implements it). */
export interface DomainAgeSource {
  /** Never rejects; answers within its own time budget. */
  domainAge(registrableDomain: string): Promise<SourcedAge>;
}

/** A domain-age answer: known, unknown, or exempt (a restricted TLD such as .gov: old by policy). */
export type SourcedAge =
  { status: 'known'; ageDays: number } | { status: 'unknown' } | { status: 'exempt' };

/** A URL reputation service (the Web Risk client implements it). */
export interface UrlReputationSource {
  /** Never rejects. */
  lookup(
    url: string,
  ): Promise<{ status: 'listed'; threatTypes: string[] } | { status: 'not_listed' | 'unknown' }>;
}

/** {@link IntelLayer.fingerprint} before the first build: no feeds, no entries. */
const EMPTY_INDEX_DIGEST = createHash('sha256').update('[]').digest('hex');

/** Entries read per page when the index is rebuilt; between pages, requests run. */
const PAGE_SIZE = 5000;

export interface IntelLayerOptions {
  engine: Engine;
  store: IntelStore;
  domainAge?: DomainAgeSource | null;
  webRisk?: UrlReputationSource | null;
  /** Called with any error of a background rebuild (the old index stays in service). */
  onError?: (error: unknown) => void;
}

export class IntelLayer {
  private index: ThreatIndex;
  private version = -1;
  private indexDigest = EMPTY_INDEX_DIGEST;
  private newest: ReadonlyMap<number, number> = new Map();
  private rebuilding: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly swapListeners: ((index: ThreatIndex) => void)[] = [];

  constructor(private readonly options: IntelLayerOptions) {
    this.index = ThreatIndex.empty(options.engine);
  }

  /** The index in service now. */
  get current(): ThreatIndex {
    return this.index;
  }

  /**
   * SHA-256 (hex) of the feeds and entries the index in service was built from: equal on two
   * processes exactly when they index the same feeds, whichever store they read (the shared
   * verdict cache keys verdicts by it; docs/decisions.md, decision 117).
   */
  get fingerprint(): string {
    return this.indexDigest;
  }

  /**
   * The newest entry of each feed in the index in service: feed id → the largest `firstSeen`
   * (epoch ms) among its entries. Feeds whose entries carry no date (plain host lists) have no
   * entry here. Feed freshness in the metrics is read from it (`linkguard_feed_newest_entry_age_seconds`).
   */
  get newestEntries(): ReadonlyMap<number, number> {
    return this.newest;
  }

  /** Call `listener` after each swap of a new index (the service drops cached verdicts). */
  onSwap(listener: (index: ThreatIndex) => void): void {
    this.swapListeners.push(listener);
  }

  /** Domain age is looked up (an RDAP client is configured). */
  get hasDomainAge(): boolean {
    return this.options.domainAge != null;
  }

  /** `ran` when any source exists (feeds loaded, RDAP or Web Risk configured). */
  get coverage(): LayerCoverage['intel'] {
    const { domainAge, webRisk } = this.options;
    return this.index.feeds.length > 0 || domainAge != null || webRisk != null
      ? 'ran'
      : 'unavailable';
  }

  /**
   * Rebuild the index when the store's feeds changed since the last build; concurrent calls
   * share one rebuild. Await it at start-up; afterwards {@link startPolling} calls it.
   *
   * @returns true when a new index was swapped in.
   */
  refresh(): Promise<boolean> {
    this.rebuilding ??= this.rebuild().finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  /** Check for feed changes every `intervalMs` in the background (timer does not hold the process). */
  startPolling(intervalMs: number): void {
    this.stopPolling();
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.options.onError?.(error));
    }, intervalMs).unref();
  }

  stopPolling(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * The feed index alone (no network): deny and allow hits, microseconds. Used to decide whether
   * a page still needs to be read before {@link evidence} is complete.
   *
   * @param site the URL's analysis (`analyzeParsedUrl()`), or `readSite()` of it.
   */
  listing(site: SiteReading): IntelEvidence {
    if (this.index.size === 0) return NO_INTEL;
    const match = this.index.lookup(site.url, scopeOfSite(this.options.engine, site));
    if (match.denied.length === 0 && match.allowedBy.length === 0) return NO_INTEL;
    return { ...NO_INTEL, denied: match.denied, allowedBy: match.allowedBy };
  }

  /**
   * What layer 2 knows about a URL. Feed hits come from memory (microseconds); domain age and
   * Web Risk are asked in parallel, each within its own time budget, and only when they can
   * still matter: not for listed or allowlisted URLs, not for a brand's own or a popular domain,
   * and domain age never for hosting-platform tenants or IP hosts (a tenant's age is its platform's).
   *
   * @param site the URL's analysis (`analyzeParsedUrl()`), or `readSite()` of it: whose site the
   *   URL is comes from there, not from the URL again.
   * @param deadline optional `performance.now()` value (ms) of the caller's budget: a source still
   *   unanswered then is reported unknown (its request goes on in the background, and RDAP's fills
   *   its cache), so layer 2 never holds a verdict past the page budget.
   */
  async evidence(site: SiteReading, deadline?: number): Promise<IntelEvidence> {
    const { url } = site;
    const { domainAge: ageSource, webRisk } = this.options;
    // Nothing to ask (no feeds loaded, no RDAP, no Web Risk): skip even the scope.
    if (this.index.size === 0 && ageSource == null && webRisk == null) return NO_INTEL;
    const scope = scopeOfSite(this.options.engine, site);
    const match = this.index.lookup(url, scope);
    if (match.denied.length > 0 || match.allowedBy.length > 0) {
      return { ...NO_INTEL, denied: match.denied, allowedBy: match.allowedBy };
    }
    if (ageSource == null && webRisk == null) return NO_INTEL;

    const registrable = url.registrableDomain;
    // A host that is a public suffix itself (`gov.uk`, `s3.amazonaws.com`) is no registration.
    const ageApplies =
      registrable !== null && url.ipVersion === null && site.hosting === null && !url.hostIsSuffix;
    const [domainAge, listedBy] = await Promise.all([
      ageApplies && ageSource != null && !scope.protectedDomain
        ? byDeadline(ageSource.domainAge(registrable).then(toAgeEvidence), deadline, {
            status: 'unknown',
          } satisfies DomainAgeEvidence)
        : Promise.resolve<DomainAgeEvidence>(
            ageApplies ? { status: 'unknown' } : { status: 'not_applicable' },
          ),
      webRisk != null && !scope.protectedDomain
        ? byDeadline(
            webRisk.lookup(url.href).then((r) => (r.status === 'listed' ? r.threatTypes : [])),
            deadline,
            [],
          )
        : Promise.resolve<string[]>([]),
    ]);
    return { denied: [], allowedBy: [], webRisk: listedBy, domainAge };
  }

  private async rebuild(): Promise<boolean> {
    const { store, engine } = this.options;
    const version = await store.feedsVersion();
    if (version === this.version) return false;
    const feeds: IndexedFeed[] = (await store.listFeeds()).map((feed) => ({
      id: feed.id,
      name: feed.name,
      threat: asThreatType(feed.threat),
    }));
    const builder = new ThreatIndexBuilder(engine, feeds);
    const digest = createHash('sha256').update(JSON.stringify(feeds));
    const newest = new Map<number, number>();
    for (let after = 0; ;) {
      const page = await store.readEntries(after, PAGE_SIZE);
      for (const row of page) {
        builder.add(row.feedId, row.entry);
        const { list, kind, value, target, firstSeen } = row.entry;
        digest.update(`\n${row.feedId}\t${list}\t${kind}\t${value}\t${target}\t${firstSeen}`);
        if (firstSeen !== null && firstSeen > (newest.get(row.feedId) ?? -Infinity)) {
          newest.set(row.feedId, firstSeen);
        }
      }
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1]?.id ?? after;
      // Let requests run between pages: a rebuild of a million entries takes seconds.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.index = builder.build();
    this.version = version;
    this.indexDigest = digest.digest('hex');
    this.newest = newest;
    for (const listener of this.swapListeners) listener(this.index);
    return true;
  }
}

/**
 * `answer`, or `fallback` when `deadline` (a `performance.now()` value, ms) passes first; no
 * deadline waits for `answer` (each source has its own time budget).
 */
async function byDeadline<T>(
  answer: Promise<T>,
  deadline: number | undefined,
  fallback: T,
): Promise<T> {
  if (deadline === undefined) return answer;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(
      () => {
        resolve(fallback);
      },
      Math.max(0, deadline - performance.now()),
    );
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

function toAgeEvidence(age: SourcedAge): DomainAgeEvidence {
  if (age.status === 'known') return { status: 'known', days: age.ageDays };
  return age.status === 'exempt' ? { status: 'not_applicable' } : { status: 'unknown' };
}

/** A stored feed threat, if it is one of the API's `threat_types` values. */
function asThreatType(value: string | null): ThreatType | null {
  return THREAT_TYPES.find((type) => type === value) ?? null;
}
