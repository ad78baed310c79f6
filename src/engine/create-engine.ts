/**
 * @module engine/create-engine
 * Builds the engine's indexes from plain data once (about 100 ms for the full catalog) so that
 * each URL costs microseconds. The result is immutable and safe to share across requests.
 */
import { getDomainWithoutSuffix } from 'tldts';

import { BoundedMemo } from './bounded-memo.js';
import { BrandIndex } from './brand/brand-index.js';
import { createSkeleton, parseConfusables } from './brand/skeleton.js';
import type { RawEngineData } from './engine-data.js';
import { UrlModel } from './model/url-model.js';
import type { TldTier, UrlRulesContext } from './rules/analyze-url.js';
import { HostingIndex } from './rules/hosting-index.js';
import { LABEL_MEMO_SIZE } from './rules/read-label.js';
import { WordIndex } from './words/word-index.js';

/** The built engine: layer-1 indexes. */
export interface Engine {
  readonly context: UrlRulesContext;
  readonly brands: BrandIndex;
}

/**
 * Build the engine from its data.
 *
 * @param data the data files' contents, validated by the loader.
 * @throws {Error} when the data is inconsistent (a domain or token claimed twice, a corrupt
 *   confusables table): the service must not start with a broken catalog.
 */
export function createEngine(data: RawEngineData): Engine {
  const skeleton = createSkeleton(parseConfusables(data.confusables));
  const brands = new BrandIndex(data.brands, skeleton);
  const tokens = data.brands.flatMap((brand) => brand.tokens);
  const words = new WordIndex(
    data.phishingWords,
    data.fillerWords,
    data.englishWords,
    tokens,
    data.companyWords,
  );
  const hosting = new HostingIndex(data.hostingPlatforms);

  const redirectors = new Map<string, 'shortener' | 'link_in_bio'>();
  for (const host of data.linkInBio) redirectors.set(host, 'link_in_bio');
  for (const host of data.shorteners) redirectors.set(host, 'shortener');

  const tldTiers = new Map<string, TldTier>();
  for (const tld of data.abusedTlds.tier_c) tldTiers.set(tld, 'c');
  for (const tld of data.abusedTlds.tier_b) tldTiers.set(tld, 'b');
  for (const tld of data.abusedTlds.tier_a) tldTiers.set(tld, 'a');

  const popular = new Set(data.popularDomains);
  const popularLabels = new Set<string>();
  for (const domain of popular) {
    const label = getDomainWithoutSuffix(domain, { allowPrivateDomains: true });
    if (label !== null) popularLabels.add(label);
  }

  const context: UrlRulesContext = {
    brands,
    words,
    skeleton,
    popularLabels,
    labelMemo: new BoundedMemo(LABEL_MEMO_SIZE, true),
    hosting,
    redirectors,
    tldTiers,
    popular,
    cdnEdgeSuffixes: new Set(data.cdnEdgeSuffixes),
    cloudEndpointSuffixes: new Set(data.cloudEndpointSuffixes),
    urlModel:
      data.urlModel === null ? null : new UrlModel(data.urlModel.weights, data.urlModel.params),
  };
  return { context, brands };
}
