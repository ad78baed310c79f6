/**
 * Inputs for testing one page analyzer at a time: the shared view of an inline HTML string or of a
 * corpus fixture, and the page context of a realistic URL (built by the real engine, as the
 * service does). `analyzeFixture()` runs every analyzer; these let a test look at one.
 */
import { pageView } from '../../src/engine/page/analyze-page.js';
import { createPageContext } from '../../src/engine/page/create-page-context.js';
import type { PageContext, PageView } from '../../src/engine/page/page-context.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { fixtureDocument, fixtureUrl, type PageFixture } from './page-fixtures.js';
import { rulesEngine } from './rules-engine.js';

/** The view of an inline HTML page. */
export function htmlView(html: string): PageView {
  return pageView(parsePage(html));
}

/**
 * The context of a page at `url`.
 *
 * @param fresh layer 2's domain-age verdict to assume (default unknown).
 */
export function urlContext(url: string, fresh: boolean | null = null): PageContext {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(`${url}: ${parsed.message}`);
  return createPageContext(rulesEngine(), parsed.url, fresh);
}

/** A corpus fixture's view (its same-host scripts filled in) and context. */
export function fixtureInput(fixture: PageFixture): { view: PageView; context: PageContext } {
  return { view: pageView(fixtureDocument(fixture)), context: urlContext(fixtureUrl(fixture)) };
}
