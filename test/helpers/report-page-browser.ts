/**
 * Drive the `GET /report` page of a service listening on loopback in headless Chromium the way
 * a person does: type a URL, check its verdict, choose what is wrong, write a comment and send
 * the report. Shared by `test/http/report-page-chromium.test.ts` and
 * `scripts/screenshot-report-page.ts`, so it must not import vitest.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The visible labels of the page's controls (what a person and a screen reader go by). */
export const REPORT_PAGE_LABELS = {
  url: 'Address of the site (URL)',
  check: 'Check the verdict',
  falsePositive: 'This site is safe — it was flagged wrongly',
  falseNegative: 'This site is dangerous — it was missed',
  comment: 'Comment (optional)',
  contact: 'Your email address (optional)',
  send: 'Send the report',
} as const;

/** A browser context limited to the service: requests to any other origin are aborted and kept. */
export interface ReportPageContext {
  context: BrowserContext;
  page: Page;
  /** URLs the page tried to load from another origin (there must be none). */
  external: string[];
  /** CSP violations Chromium reported on the console (with or without JavaScript). */
  cspViolations: string[];
}

/**
 * A new context and page for `base`.
 *
 * @param options `javaScriptEnabled` (the page needs none), the viewport, and the bound on each
 *   wait.
 */
export async function openReportContext(
  browser: Browser,
  base: string,
  options: {
    javaScriptEnabled: boolean;
    viewport: { width: number; height: number };
    timeoutMs: number;
  },
): Promise<ReportPageContext> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled,
    viewport: options.viewport,
  });
  context.setDefaultTimeout(options.timeoutMs);
  context.setDefaultNavigationTimeout(options.timeoutMs);
  const external: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === base) {
      await route.continue();
    } else {
      external.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      cspViolations.push(message.text());
    }
  });
  return { context, page, external, cspViolations };
}

/**
 * Open `/report`, type `url` and press "Check the verdict".
 *
 * @returns the HTTP status of the page the form led to.
 */
export async function checkVerdict(page: Page, base: string, url: string): Promise<number> {
  const opened = await page.goto(`${base}/report`);
  if (opened?.status() !== 200)
    throw new Error(`/report answered HTTP ${String(opened?.status())}`);
  await page.getByLabel(REPORT_PAGE_LABELS.url).fill(url);
  return submit(page, REPORT_PAGE_LABELS.check);
}

/**
 * Fill in the dispute form on the verdict page and press "Send the report".
 *
 * @returns the HTTP status of the page the form led to.
 */
export async function sendDispute(
  page: Page,
  dispute: { kind: 'false_positive' | 'false_negative'; comment: string; contact: string },
): Promise<number> {
  const label =
    dispute.kind === 'false_positive'
      ? REPORT_PAGE_LABELS.falsePositive
      : REPORT_PAGE_LABELS.falseNegative;
  await page.getByLabel(label).check();
  await page.getByLabel(REPORT_PAGE_LABELS.comment).fill(dispute.comment);
  await page.getByLabel(REPORT_PAGE_LABELS.contact).fill(dispute.contact);
  return submit(page, REPORT_PAGE_LABELS.send);
}

/** Press the button named `name` and wait for the page its form posts to. */
export async function submit(page: Page, name: string): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name }).click(),
  ]);
  await page.waitForLoadState('load');
  return response.status();
}
