/**
 * @module corrections/override-index
 * Finds the operator's override that applies to a URL among those in force. Built once per
 * snapshot of the store's overrides (`OverrideStore.activeOverrides()`), consulted on every
 * verdict served: look-ups by host, by registrable domain and by the host of URL prefixes, so
 * the cost does not grow with the number of overrides of other sites.
 */
import type { ParsedUrl } from '../engine/url/normalize-url.js';
import { normalizeUrl } from '../engine/url/normalize-url.js';
import type { OverrideRecord } from '../store/ports/correction-store.js';
import { schemelessUrl } from './override-target.js';

/** A URL-prefix override with its compared form. */
interface PrefixEntry {
  override: OverrideRecord;
  /** `schemelessUrl()` of the target. */
  prefix: string;
}

export class OverrideIndex {
  readonly #byHost = new Map<string, OverrideRecord[]>();
  readonly #byDomain = new Map<string, OverrideRecord[]>();
  readonly #prefixesByHost = new Map<string, PrefixEntry[]>();
  /** Number of overrides indexed (0: {@link match} answers null at once). */
  readonly size: number;

  /**
   * @param overrides the overrides not removed (expired ones are skipped at match time, so an
   *   index stays right as the clock passes an expiry).
   */
  constructor(overrides: readonly OverrideRecord[]) {
    for (const override of overrides) {
      if (override.scope === 'host') push(this.#byHost, override.target, override);
      else if (override.scope === 'domain') push(this.#byDomain, override.target, override);
      else {
        const parsed = normalizeUrl(override.target);
        // A stored prefix was normalized when added; one that no longer parses covers nothing.
        if (!parsed.ok) continue;
        push(this.#prefixesByHost, parsed.url.hostname, {
          override,
          prefix: schemelessUrl(override.target),
        });
      }
    }
    this.size = overrides.length;
  }

  /**
   * The override that decides `url` at `now`, or null. The most specific scope wins (the longest
   * matching URL prefix, then the exact host, then the registrable domain); within one scope and
   * length a deny wins over an allow (a wrong allow costs more than a wrong deny), then the
   * newest.
   *
   * @param url the submitted URL, normalized.
   * @param now ms since the epoch; an override whose `expiresAt` ≤ `now` is ignored.
   */
  match(url: ParsedUrl, now: number): OverrideRecord | null {
    if (this.size === 0) return null;
    const prefixes = this.#prefixesByHost.get(url.hostname);
    if (prefixes !== undefined) {
      const href = schemelessUrl(url.href);
      let best: PrefixEntry | null = null;
      for (const entry of prefixes) {
        if (!live(entry.override, now) || !href.startsWith(entry.prefix)) continue;
        if (
          best === null ||
          entry.prefix.length > best.prefix.length ||
          (entry.prefix.length === best.prefix.length && outranks(entry.override, best.override))
        ) {
          best = entry;
        }
      }
      if (best !== null) return best.override;
    }
    const host = pick(this.#byHost.get(url.hostname), now);
    if (host !== null) return host;
    return url.registrableDomain === null
      ? null
      : pick(this.#byDomain.get(url.registrableDomain), now);
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function live(override: OverrideRecord, now: number): boolean {
  return override.expiresAt === null || now < override.expiresAt;
}

/** Deny before allow, then the newer. */
function outranks(a: OverrideRecord, b: OverrideRecord): boolean {
  if (a.action !== b.action) return a.action === 'deny';
  return a.createdAt > b.createdAt;
}

function pick(list: readonly OverrideRecord[] | undefined, now: number): OverrideRecord | null {
  if (list === undefined) return null;
  let best: OverrideRecord | null = null;
  for (const override of list) {
    if (live(override, now) && (best === null || outranks(override, best))) best = override;
  }
  return best;
}
