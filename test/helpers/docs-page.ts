/**
 * Open the API reference (`/docs`) of a service listening on loopback in headless Chromium and
 * report what a visitor sees: the page title, the top bar's logo, the API title, and every
 * request the page made — those to another origin aborted and listed. Shared by
 * `test/http/docs-page.test.ts` and `scripts/screenshot-docs-page.ts`, so it must not import
 * vitest.
 */
import type { Browser, Page } from 'playwright-core';

export interface DocsPageView {
  page: Page;
  /** `document.title`. */
  title: string;
  /** `src` of the image in Swagger UI's top bar (a `data:` URL). */
  logoSrc: string;
  /** Text of the API title (`.info .title`). */
  apiTitle: string;
  /** Every URL the page requested, in order. */
  requested: string[];
  /** Requests to anything but `base` and `data:` URLs (aborted). */
  external: string[];
  /** HTTP statuses of responses other than 2xx/3xx from `base`. */
  failed: string[];
}

/**
 * @param browser a launched Chromium (`launchChromium()`).
 * @param base the service's origin, e.g. `http://127.0.0.1:8402`.
 * @param viewport page size in CSS pixels.
 * @param timeoutMs for each wait.
 */
export async function openDocsPage(
  browser: Browser,
  base: string,
  viewport: { width: number; height: number },
  timeoutMs: number,
): Promise<DocsPageView> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(timeoutMs);
  const requested: string[] = [];
  const external: string[] = [];
  const failed: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (url.startsWith('data:') || new URL(url).origin === base) {
      await route.continue();
    } else {
      external.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${String(response.status())} ${response.url()}`);
  });
  const opened = await page.goto(`${base}/docs`);
  if (opened?.status() !== 200) throw new Error(`/docs answered HTTP ${String(opened?.status())}`);
  // The operations are rendered once the document is loaded and read.
  await page.locator('.opblock-tag-section').first().waitFor({ state: 'visible' });
  const logo = page.locator('#swagger-ui .topbar .topbar-wrapper a.link img');
  await logo.waitFor({ state: 'visible' });
  return {
    page,
    title: await page.title(),
    logoSrc: (await logo.getAttribute('src')) ?? '',
    apiTitle: (await page.locator('.info .title').first().innerText()).trim(),
    requested,
    external,
    failed,
  };
}
