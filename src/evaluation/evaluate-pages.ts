/**
 * @module evaluation/evaluate-pages
 * The page-level eval (`linkguard eval --pages`): every page of a labelled corpus is served from
 * loopback under its realistic host name and judged by the detection service with layer 3 on —
 * the production path (fetch, redirects, scripts, analyzers, scoring; allowlisted sites are not
 * fetched, as in production). Reported: precision and recall per threat category (a category is
 * predicted when it is in a non-safe verdict's `threat_types`), verdict agreement, and — with
 * page analysis forced on every page, allowlisted ones included — the analyzers' false alarms
 * (danger or caution findings) on benign pages, which the allowlist would otherwise hide.
 */
import type { Brand } from '../engine/brand/brand-index.js';
import type { Engine } from '../engine/create-engine.js';
import { analyzePage } from '../engine/page/analyze-page.js';
import { createPageContext } from '../engine/page/create-page-context.js';
import { THREAT_TYPES, type ThreatType, type Verdict } from '../engine/verdict.js';
import type { PageLayer } from '../page/page-layer.js';
import type { DetectionService } from '../service/detection-service.js';
import type { PageCorpus, PageCorpusServer, PageEntry } from './page-corpus.js';

/** One page's outcome. */
export interface PageEvalRow {
  id: string;
  category: string;
  expected: PageEntry['expect']['verdict'];
  verdict: Verdict['verdict'];
  threatTypes: string[];
  /** Expected signals that were not true. */
  missingSignals: string[];
  /** Danger/caution finding ids of the forced analysis (benign pages: false alarms). */
  alarms: string[];
  ms: number;
  /** The brand the verdict names, or null. */
  brand: string | null;
  /** The catalog brand the page's `brand_label` names, or null (no label, or not in the catalog). */
  labelBrand: string | null;
  capture: NonNullable<PageEntry['capture']>;
}

/** Precision and recall of one category. */
export interface CategoryScore {
  category: ThreatType;
  /** Pages labelled with it. */
  support: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** null when nothing was predicted / labelled. */
  precision: number | null;
  recall: number | null;
}

export interface PageEvalReport {
  pages: number;
  malicious: number;
  benign: number;
  /** Malicious pages judged not safe / all malicious. */
  recall: number | null;
  /** Malicious pages judged danger / all malicious. */
  dangerRecall: number | null;
  /** Malicious pages that show a phishing kit (capture `kit`): judged not safe / all of them. */
  kitRecall: number | null;
  /** Malicious pages by capture kind. */
  captures: Record<NonNullable<PageEntry['capture']>, number>;
  /** Benign pages judged not safe / all benign. */
  falsePositiveRate: number | null;
  /** Benign pages judged danger / all benign. */
  dangerFalsePositiveRate: number | null;
  /**
   * Brand accuracy on malicious pages whose label names a catalog brand: `correct` of `labelled`
   * named that brand; `named` of them named some brand (the denominator of brand precision).
   */
  brand: { labelled: number; correct: number; named: number };
  /** Pages whose verdict equals the expected one. */
  verdictAgreement: number;
  /** Malicious pages whose expected signals were all true. */
  signalsComplete: number;
  categories: CategoryScore[];
  /** Benign pages where a forced analysis raised danger/caution findings. */
  benignAlarms: { id: string; alarms: string[] }[];
  latencyMs: { p50: number; p95: number; max: number };
  rows: PageEvalRow[];
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/**
 * The categories a page can show. `disposable_tld`, `free_hosting_subdomain` and `fresh_domain`
 * are facts about the address, not the page, and the corpus does not label them.
 */
const PAGE_CATEGORIES = THREAT_TYPES.filter(
  (type) =>
    type !== 'disposable_tld' && type !== 'free_hosting_subdomain' && type !== 'fresh_domain',
);

/**
 * Evaluate a corpus.
 *
 * @param server the running corpus server (its URLs are what the service judges).
 * @param detection the detection service to judge with and its page layer (for the forced
 *   analysis), built with name resolution pinned to `server` (`cli/page-eval.ts` does that).
 * @returns the report; per-page latency in ms.
 */
export async function evaluatePages(
  engine: Engine,
  corpus: PageCorpus,
  server: Pick<PageCorpusServer, 'url'>,
  detection: { service: DetectionService; page: PageLayer },
): Promise<PageEvalReport> {
  const { service, page } = detection;
  const rows: PageEvalRow[] = [];
  const labelBrand = (label: string | undefined): string | null =>
    label === undefined ? null : (catalogBrandOfLabel(engine, label)?.name ?? null);
  for (const entry of corpus.pages) {
    const url = service.parse(server.url(entry));
    const started = performance.now();
    const verdict = await service.judge(url);
    const ms = performance.now() - started;
    // Forced analysis: the page read even where the allowlist would skip it.
    const fetched = await page.fetcher.fetch(url, performance.now() + page.budgetMs);
    const alarms = fetched.ok
      ? analyzePage(fetched.doc, createPageContext(engine, fetched.finalUrl, null))
          .findings.filter((f) => f.level !== 'soft')
          .map((f) => `${f.level}:${f.id}`)
      : [];
    rows.push({
      id: entry.id,
      category: entry.category,
      expected: entry.expect.verdict,
      verdict: verdict.verdict,
      threatTypes: verdict.verdict === 'safe' ? [] : verdict.threat_types,
      missingSignals: entry.expect.signals.filter(
        (s) => (verdict.signals as Record<string, unknown>)[s] !== true,
      ),
      alarms,
      ms,
      brand: verdict.verdict === 'safe' ? null : verdict.brand,
      labelBrand: labelBrand(entry.brand_label),
      capture: entry.capture ?? 'kit',
    });
  }
  return report(corpus, rows);
}

/**
 * Words a feed's brand label adds to a brand's name: legal forms and the generic word "Bank"
 * ("PT Bank Rakyat Indonesia", "Wells Fargo Bank", "Chronopost International").
 */
const LABEL_DESIGNATORS = new Set([
  'pt',
  'inc',
  'ltd',
  'llc',
  'plc',
  'ag',
  'sa',
  'corp',
  'corporation',
  'group',
  'international',
  'bank',
]);

/**
 * The catalog brand a corpus label names: the label itself, else its longest part that drops
 * only leading and trailing designators (`LABEL_DESIGNATORS`).
 *
 * @returns the brand, or undefined when the label names none (`Webmail`, `Provider`).
 */
function catalogBrandOfLabel(engine: Engine, label: string): Brand | undefined {
  const exact = engine.brands.brandByName(label);
  if (exact !== undefined) return exact;
  const words = label.trim().split(/\s+/);
  const designator = (word: string): boolean => LABEL_DESIGNATORS.has(word.toLowerCase());
  // Longest span first whose dropped words, before and after it, are all designators.
  for (let length = words.length - 1; length >= 1; length -= 1) {
    for (let start = 0; start + length <= words.length; start += 1) {
      const dropped = [...words.slice(0, start), ...words.slice(start + length)];
      if (!dropped.every(designator)) continue;
      const brand = engine.brands.brandByName(words.slice(start, start + length).join(' '));
      if (brand !== undefined) return brand;
    }
  }
  return undefined;
}

function report(corpus: PageCorpus, rows: PageEvalRow[]): PageEvalReport {
  const expectedTypes = new Map(corpus.pages.map((p) => [p.id, p.expect.threat_types]));
  const categories = PAGE_CATEGORIES.map((category): CategoryScore => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const row of rows) {
      const labelled = expectedTypes.get(row.id)?.includes(category) ?? false;
      const predicted = row.threatTypes.includes(category);
      if (labelled && predicted) tp++;
      else if (predicted) fp++;
      else if (labelled) fn++;
    }
    return {
      category,
      support: tp + fn,
      truePositives: tp,
      falsePositives: fp,
      falseNegatives: fn,
      precision: ratio(tp, tp + fp),
      recall: ratio(tp, tp + fn),
    };
  }).filter((c) => c.support > 0 || c.falsePositives > 0);
  const malicious = rows.filter((r) => r.category !== 'benign');
  const benign = rows.filter((r) => r.category === 'benign');
  const kits = malicious.filter((r) => r.capture === 'kit');
  const labelled = malicious.filter((r) => r.labelBrand !== null);
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number): number =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    pages: rows.length,
    malicious: malicious.length,
    benign: benign.length,
    recall: ratio(malicious.filter((r) => r.verdict !== 'safe').length, malicious.length),
    dangerRecall: ratio(malicious.filter((r) => r.verdict === 'danger').length, malicious.length),
    kitRecall: ratio(kits.filter((r) => r.verdict !== 'safe').length, kits.length),
    captures: {
      kit: kits.length,
      stub: malicious.filter((r) => r.capture === 'stub').length,
      not_phishing: malicious.filter((r) => r.capture === 'not_phishing').length,
    },
    falsePositiveRate: ratio(benign.filter((r) => r.verdict !== 'safe').length, benign.length),
    dangerFalsePositiveRate: ratio(
      benign.filter((r) => r.verdict === 'danger').length,
      benign.length,
    ),
    brand: {
      labelled: labelled.length,
      correct: labelled.filter((r) => r.brand === r.labelBrand).length,
      named: labelled.filter((r) => r.brand !== null).length,
    },
    verdictAgreement: rows.filter((r) => r.verdict === r.expected).length,
    signalsComplete: malicious.filter((r) => r.missingSignals.length === 0).length,
    categories,
    benignAlarms: benign
      .filter((r) => r.alarms.length > 0)
      .map((r) => ({ id: r.id, alarms: r.alarms })),
    latencyMs: { p50: at(0.5), p95: at(0.95), max: times[times.length - 1] ?? 0 },
    rows,
  };
}
