/**
 * @module engine/intel-evidence
 * What layer 2 (threat intelligence, domain age) found about a URL, handed to the pure engine
 * by the detection service, which does the lookups (DESIGN §1: I/O reaches the engine as data).
 */
import type { Brand } from './brand/brand-index.js';
import type { ThreatType } from './verdict.js';

/** A deny entry of a threat feed that matched the URL. */
export interface FeedHit {
  /** Feed name (`matched_patterns` shows `intel:<source>`). */
  source: string;
  /** Matched on the host (or a parent domain up to the site boundary) or on a URL prefix. */
  match: 'host' | 'url_prefix';
  /** The entry that matched (host, or host + path prefix). */
  matched: string;
  /** Threat type the feed implies, or null. */
  threat: ThreatType | null;
  /** The feed's target brand, resolved in the brand catalog, or null. */
  brand: Brand | null;
  /** When the feed first listed it (epoch ms), or null. */
  firstSeen: number | null;
}

/** Age of the registrable domain (RDAP), when it applies. */
export type DomainAgeEvidence =
  | { status: 'known'; days: number }
  /** The lookup failed, timed out, or the registry publishes no date: `fresh_domain` is null. */
  | { status: 'unknown' }
  /** Meaningless here: a hosting-platform tenant or an IP host (detection.md §5.3). */
  | { status: 'not_applicable' };

export interface IntelEvidence {
  /** Deny hits; always empty when an allow entry matched (allow entries win). */
  denied: readonly FeedHit[];
  /** Feeds whose allow entry matched. */
  allowedBy: readonly string[];
  /** Google Web Risk threat types when the URL is listed there, else empty. */
  webRisk: readonly string[];
  domainAge: DomainAgeEvidence;
}

/** A domain younger than this is `fresh_domain` (detection.md §5.4: 30 days). */
export const FRESH_DOMAIN_DAYS = 30;

/** Evidence when layer 2 did not run or found nothing. */
export const NO_INTEL: IntelEvidence = Object.freeze({
  denied: [],
  allowedBy: [],
  webRisk: [],
  domainAge: { status: 'unknown' as const },
});
