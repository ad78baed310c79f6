/**
 * @module scripts/url-model/training-data
 * The labelled hosts the URL model learns from and is measured on.
 *
 * Every example is a site as the model reads it (`src/engine/model/model-site.ts`: the
 * registrable domain, or a hosting tenant's own host), one per site.
 * - **Malicious**: every development threat feed (`scripts/dev-feeds.ts`), one example per site
 *   (its earliest first-seen date across feeds). Time split at `cutoff`: sites first seen before it
 *   train, sites first seen on or after it (and not seen before) test. CryptoScamDB has no dates;
 *   all of it was public by 2022-06, so it trains. Hosts on official brand or popular domains,
 *   platform front pages and redirector hosts are feed noise the engine never scores with the
 *   model (allowlisted or judged by other rules) and are left out.
 * - **Benign, popular**: Tranco top-10k (already the popular allowlist), train only.
 * - **Benign, long tail**: `benign-sources.ts`, split by registrable domain (SHA-256 of it) into
 *   train 70 %, calibration 15 % (the thresholds are set here) and test 15 % (reported only), so
 *   no site is on two sides. A host that a threat feed lists is dropped from the benign side.
 * The benign lists of the evaluation tables (Majestic, Cisco Umbrella, Cloudflare Radar, Moz,
 * banks, universities) are never read here: they stay independent measures of false positives.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Engine } from '../../src/engine/create-engine.js';
import { modelSite } from '../../src/engine/model/model-site.js';
import { modelReads } from '../../src/engine/rules/analyze-url.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { loadDevFeeds } from '../dev-feeds.js';
import { type BenignItem, collectBenign, type InputFile } from './benign-sources.js';

/** A labelled site (the name the model reads, `modelSite()`), with what the split needs. */
export interface LabelledHost {
  /** The site: registrable domain or hosting tenant host. */
  host: string;
  /** Public suffix (PSL with private entries) the features use. */
  suffix: string;
  registrable: string;
  /** Feed or benign source names it came from. */
  sources: string[];
  /** Earliest first-seen date (epoch ms) for malicious hosts, else null. */
  firstSeen: number | null;
}

export interface TrainingData {
  maliciousTrain: LabelledHost[];
  maliciousTest: LabelledHost[];
  popularTrain: LabelledHost[];
  longTailTrain: LabelledHost[];
  longTailCalibration: LabelledHost[];
  longTailTest: LabelledHost[];
  inputs: InputFile[];
  /** Counts of what was left out and why. */
  dropped: Record<string, number>;
}

/** Where a long-tail site falls: by the first byte of SHA-256 of its registrable domain. */
export function longTailSplit(registrable: string): 'train' | 'calibration' | 'test' {
  const byte = createHash('sha256').update(registrable).digest()[0] ?? 0;
  return byte < 179 ? 'train' : byte < 217 ? 'calibration' : 'test';
}

/**
 * Assemble the data.
 *
 * @param engine for the official, popular, hosting and redirector knowledge.
 * @param sharedData the development data directory (`../shared/data`).
 * @param cacheDir package cache for the benign sources.
 * @param cutoff epoch ms of the time split.
 */
export function buildTrainingData(
  engine: Engine,
  sharedData: string,
  cacheDir: string,
  cutoff: number,
): TrainingData {
  const dropped: Record<string, number> = {};
  const drop = (reason: string): void => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  const { context } = engine;
  const label = (value: string): LabelledHost | null => {
    const parsed = normalizeUrl(value);
    if (!parsed.ok || parsed.url.ipVersion !== null || parsed.url.registrableDomain === null) {
      return null;
    }
    const { hostname, pathname } = parsed.url;
    const tenant = context.hosting.tenantOf(hostname, pathname);
    // Only what the engine would have the model read (cloud endpoints, storage roots are not).
    if (!modelReads(context, parsed.url, tenant, false)) return null;
    const site = modelSite(parsed.url, tenant, context.hosting.platformOf(hostname) !== undefined);
    if (site === null) return null;
    return {
      host: site.site,
      suffix: site.suffix,
      registrable: parsed.url.registrableDomain,
      sources: [],
      firstSeen: null,
    };
  };
  /** Sites the engine never scores with the model, or whose label would be noise. */
  const protectedHost = (item: LabelledHost): string | null => {
    const tenant = context.hosting.tenantOf(item.host, '/');
    if (context.redirectors.has(item.host)) return 'redirector host';
    if (tenant === null && engine.brands.officialBrand(item.registrable) !== undefined) {
      return 'official brand domain';
    }
    if (tenant === null && context.popular.has(item.registrable)) return 'popular domain';
    return null;
  };

  const malicious = new Map<string, LabelledHost>();
  for (const feed of loadDevFeeds(sharedData)) {
    for (const entry of feed.entries) {
      if (entry.list !== 'deny') continue;
      const item = label(entry.value);
      if (item === null) {
        drop('malicious: nothing the model reads (IP, platform page, path tenant, cloud endpoint)');
        continue;
      }
      const reason = protectedHost(item);
      if (reason !== null) {
        drop(`malicious: ${reason}`);
        continue;
      }
      // Undated CryptoScamDB entries were all public before the earliest cut-off we use.
      const seen = entry.firstSeen ?? Date.parse('2022-06-28T00:00:00Z');
      const known = malicious.get(item.host);
      if (known === undefined) {
        malicious.set(item.host, { ...item, sources: [feed.name], firstSeen: seen });
      } else {
        if (!known.sources.includes(feed.name)) known.sources.push(feed.name);
        known.firstSeen = Math.min(known.firstSeen ?? seen, seen);
      }
    }
  }

  const benign = collectBenign(cacheDir);
  const longTail = new Map<string, LabelledHost>();
  const addBenign = (item: BenignItem): void => {
    const labelled = label(item.host);
    if (labelled === null) {
      drop('benign: not a public host');
      return;
    }
    if (malicious.has(labelled.host)) {
      drop('benign: listed by a threat feed');
      return;
    }
    const known = longTail.get(labelled.host);
    if (known === undefined) longTail.set(labelled.host, { ...labelled, sources: [item.source] });
    else if (!known.sources.includes(item.source)) known.sources.push(item.source);
  };
  for (const item of benign.items) addBenign(item);

  const tranco = (
    JSON.parse(readFileSync(join(sharedData, 'misp-warninglists/tranco10k/list.json'), 'utf8')) as {
      list: string[];
    }
  ).list;
  const popularTrain: LabelledHost[] = [];
  for (const host of tranco) {
    const item = label(host);
    if (item === null || malicious.has(item.host)) continue;
    longTail.delete(item.host);
    popularTrain.push({ ...item, sources: ['tranco'] });
  }

  const split = {
    train: [] as LabelledHost[],
    calibration: [] as LabelledHost[],
    test: [] as LabelledHost[],
  };
  for (const item of longTail.values()) split[longTailSplit(item.registrable)].push(item);

  const maliciousTrain: LabelledHost[] = [];
  const maliciousTest: LabelledHost[] = [];
  for (const item of malicious.values()) {
    if ((item.firstSeen ?? 0) < cutoff) maliciousTrain.push(item);
    else maliciousTest.push(item);
  }
  return {
    maliciousTrain,
    maliciousTest,
    popularTrain,
    longTailTrain: split.train,
    longTailCalibration: split.calibration,
    longTailTest: split.test,
    inputs: benign.inputs,
    dropped,
  };
}
