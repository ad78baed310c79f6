/**
 * The layer-3 page corpus (`test/fixtures/pages/`, see its SOURCES.md) for tests: the manifest,
 * each page's HTML, and a direct analysis of a page (parsed, its same-host script assets filled
 * in as the fetcher would, judged in the context of its realistic URL). Tests that need the whole
 * path (fetch over loopback, service, HTTP) serve the same files with `servePageFixtures()`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { analyzePage, type PageAnalysis } from '../../src/engine/page/analyze-page.js';
import { createPageContext } from '../../src/engine/page/create-page-context.js';
import type { PageDocument } from '../../src/engine/page/page-document.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { type PageEntry, readPageCorpus } from '../../src/evaluation/page-corpus.js';
import { rulesEngine } from './rules-engine.js';

export const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pages');

/** One corpus page (see src/evaluation/page-corpus.ts). */
export type PageFixture = PageEntry;

export const PAGE_CORPUS = readPageCorpus(join(PAGES_DIR, 'manifest.json'));
export const PAGE_FIXTURES: readonly PageFixture[] = PAGE_CORPUS.pages;

/** The fixture with this id (throws on a typo). */
export function pageFixture(id: string): PageFixture {
  const fixture = PAGE_FIXTURES.find((f) => f.id === id);
  if (fixture === undefined) throw new Error(`no page fixture ${id}`);
  return fixture;
}

export const MALICIOUS_FIXTURES = PAGE_FIXTURES.filter((f) => f.category !== 'benign');
export const BENIGN_FIXTURES = PAGE_FIXTURES.filter((f) => f.category === 'benign');

/** The page's HTML. */
export function fixtureHtml(fixture: PageFixture): string {
  return readFileSync(join(PAGES_DIR, fixture.file), 'utf8');
}

/** The page's realistic URL (https, no port). */
export function fixtureUrl(fixture: PageFixture): string {
  return `https://${fixture.host}${fixture.path}`;
}

/** Parse a fixture and fill in the code of its same-host scripts, as the fetcher does. */
export function fixtureDocument(fixture: PageFixture): PageDocument {
  const doc = parsePage(fixtureHtml(fixture));
  const base = fixtureUrl(fixture);
  for (const script of doc.scripts) {
    if (script.src === null) continue;
    const path = URL.parse(script.src, base)?.pathname;
    const asset = fixture.assets?.find((a) => a.path === path);
    if (asset !== undefined) script.code = readFileSync(join(PAGES_DIR, asset.file), 'utf8');
  }
  return doc;
}

/**
 * Analyse a fixture directly (no network): its document in the context of its URL.
 *
 * @param fresh the domain age verdict to assume (default unknown).
 */
export function analyzeFixture(fixture: PageFixture, fresh: boolean | null = null): PageAnalysis {
  const parsed = normalizeUrl(fixtureUrl(fixture));
  if (!parsed.ok) throw new Error(`fixture ${fixture.id}: ${parsed.message}`);
  const context = createPageContext(rulesEngine(), parsed.url, fresh);
  return analyzePage(fixtureDocument(fixture), context);
}

/** Findings of one analyzer's rules (by id prefix) — for readable assertions. */
export function findingIds(findings: readonly PageFinding[]): string[] {
  return findings.map((f) => `${f.level}:${f.id}`);
}
