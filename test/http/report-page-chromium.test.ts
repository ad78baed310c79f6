/**
 * The `GET /report` page in a real browser: Debian's headless Chromium, driven by playwright-core,
 * with JavaScript enabled and disabled. A person types a URL, sees the verdict, chooses what is
 * wrong, writes a comment, sends the report and reads its id; the report is then in the store
 * with source `page`. Also: an invalid URL comes back with the error summary focused and linked
 * to the field, the CSRF cookie round-trips, nothing is loaded from another origin, the inline
 * style's CSP hash matches (no violation), the page fits a 320-pixel-wide screen, and axe-core
 * (deque, injected through Playwright) finds no violation of serious or critical impact on any
 * step (WCAG 2.x A and AA rules).
 *
 * Chromium is `/usr/bin/chromium` (`apt-get install chromium`; `.ci/run` installs it). A clone
 * without it skips this file unless `CI` is set, in which case the missing browser is a failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLE_URLS } from '../../src/api/example-urls.js';
import { CHROMIUM, launchChromium } from '../helpers/headless-chromium.js';
import { startListeningApp } from '../helpers/oauth-app.js';
import {
  checkVerdict,
  openReportContext,
  REPORT_PAGE_LABELS,
  type ReportPageContext,
  sendDispute,
  submit,
} from '../helpers/report-page-browser.js';
import { useTestApp } from '../helpers/test-app.js';

const HAS_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
/** Without a browser a developer clone still passes `npm test`; in CI a missing one fails. */
const SKIP = !HAS_CHROMIUM && !IN_CI;
const TITLE = SKIP
  ? `report page in headless Chromium — skipped: ${CHROMIUM} not found (apt-get install chromium; with CI set this is a failure)`
  : 'report page in headless Chromium';

/** Bound on every browser wait (navigation, locator, launch). */
const BROWSER_TIMEOUT_MS = 10_000;
const VIEWPORT = { width: 800, height: 900 };

/** axe-core's browser build, injected into the page by Playwright (not by the page). */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** What is kept of an axe violation. */
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Run axe-core on the page (WCAG 2.0–2.2 A and AA rules and best practices); the violations
 * of serious or critical impact. Evaluated by Playwright, which works with page scripts off.
 */
async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(`
    axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        targets: v.nodes.map((n) => String(n.target)),
      })),
    )`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The id of the element that has the focus ('' for none). */
function focusedId(page: Page): Promise<string> {
  return page.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
}

describe.skipIf(SKIP)(TITLE, { timeout: 60_000 }, () => {
  const start = useTestApp();
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!HAS_CHROMIUM) {
      throw new Error(
        `CI is set but ${CHROMIUM} is missing: install Debian's chromium (.ci/run does) to run this test`,
      );
    }
    browser = await launchChromium(BROWSER_TIMEOUT_MS);
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function withPage(
    javaScriptEnabled: boolean,
    use: (env: {
      base: string;
      view: ReportPageContext;
      app: Awaited<ReturnType<typeof startListeningApp>>;
    }) => Promise<void>,
    viewport = VIEWPORT,
  ): Promise<void> {
    if (browser === undefined) throw new Error('beforeAll did not run');
    const app = await startListeningApp(start);
    const view = await openReportContext(browser, app.base, {
      javaScriptEnabled,
      viewport,
      timeoutMs: BROWSER_TIMEOUT_MS,
    });
    try {
      await use({ base: app.base, view, app });
    } finally {
      await view.context.close();
    }
  }

  describe.each([
    ['with JavaScript', true],
    ['with JavaScript disabled', false],
  ])('%s', (_name, javaScriptEnabled) => {
    it('checks a URL, shows the verdict, files a dispute and shows the report id', async () => {
      await withPage(javaScriptEnabled, async ({ base, view, app }) => {
        const { page } = view;
        const checked = await checkVerdict(page, base, EXAMPLE_URLS.danger);
        expect(checked).toBe(200);
        expect(await page.title()).toBe('Dispute a verdict – linkguard');
        await page.getByRole('heading', { name: 'Current verdict' }).waitFor();
        const verdict = page.locator('#verdict');
        expect(await verdict.locator('.verdict-word').innerText()).toBe('✕ Danger');
        expect(await verdict.innerText()).toContain('MetaMask — the address appears to imitate');
        // A warning preselects "flagged wrongly"; the person may change it, and does twice here.
        expect(await page.getByLabel(REPORT_PAGE_LABELS.falsePositive).isChecked()).toBe(true);
        await page.getByLabel(REPORT_PAGE_LABELS.falseNegative).check();
        const filed = await sendDispute(page, {
          kind: 'false_positive',
          comment: 'This is our own support site; the domain is ours since 2019.',
          contact: 'owner@example.com',
        });
        expect(filed).toBe(200);
        await page.getByRole('heading', { name: 'Report filed' }).waitFor();
        const id = await page.locator('#report-id').innerText();
        expect(id).toMatch(/^rpt_[0-9A-Za-z]{16}$/);
        expect(await page.getByRole('heading', { name: 'What happens next' }).isVisible()).toBe(
          true,
        );

        const stored = await app.ctx.store.reports.findReport(id);
        expect(stored).toMatchObject({
          url: 'https://metamask-restore-wallet.com/',
          kind: 'false_positive',
          comment: 'This is our own support site; the domain is ours since 2019.',
          contact: 'owner@example.com',
          source: 'page',
          sourceId: null,
        });
        expect(stored?.verdict.verdict).toBe('danger');
        // The cookie is the page's: HttpOnly, SameSite=Strict, for /report only.
        const cookies = await view.context.cookies(`${base}/report`);
        expect(cookies).toHaveLength(1);
        expect(cookies[0]).toMatchObject({ path: '/report', httpOnly: true, sameSite: 'Strict' });
        expect(view.external).toEqual([]);
        expect(view.cspViolations).toEqual([]);
      });
    });

    it('shows an invalid URL in a focused error summary linked to the field, keeping what was typed', async () => {
      await withPage(javaScriptEnabled, async ({ base, view }) => {
        const { page } = view;
        const status = await checkVerdict(page, base, 'http://10.0.0.1/admin');
        expect(status).toBe(400);
        expect(await page.title()).toBe('Error: Report a wrong verdict – linkguard');
        const alert = page.getByRole('alert');
        expect(await alert.innerText()).toContain('That address cannot be checked');
        // The summary has the focus (autofocus, no script needed) and its link leads to the field.
        expect(
          await page.evaluate<boolean>(
            'document.activeElement?.classList.contains("error-summary") === true',
          ),
        ).toBe(true);
        const field = page.getByLabel(REPORT_PAGE_LABELS.url);
        expect(await field.inputValue()).toBe('http://10.0.0.1/admin');
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        await alert.getByRole('link').click();
        expect(await focusedId(page)).toBe('url');
        // Corrected, the same form goes on.
        await field.fill('docs.github.com');
        expect(await submit(page, REPORT_PAGE_LABELS.check)).toBe(200);
        expect(await page.locator('#verdict .verdict-word').innerText()).toBe('✓ Safe');
        expect(await page.getByLabel(REPORT_PAGE_LABELS.falseNegative).isChecked()).toBe(true);
        expect(view.cspViolations).toEqual([]);
      });
    });
  });

  it('has no serious or critical axe-core violation on any step, and fits 320 px', async () => {
    await withPage(
      true,
      async ({ base, view }) => {
        const { page } = view;
        const found: Record<string, AxeViolation[]> = {};
        const noHorizontalScroll = () =>
          page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

        await page.goto(`${base}/report`);
        found.form = await seriousAxeViolations(page);
        expect(await noHorizontalScroll()).toBe(true);

        await page.getByLabel(REPORT_PAGE_LABELS.url).fill('ftp://example.com/');
        expect(await submit(page, REPORT_PAGE_LABELS.check)).toBe(400);
        found.error = await seriousAxeViolations(page);

        await page.getByLabel(REPORT_PAGE_LABELS.url).fill(EXAMPLE_URLS.danger);
        expect(await submit(page, REPORT_PAGE_LABELS.check)).toBe(200);
        found.verdict = await seriousAxeViolations(page);
        expect(await noHorizontalScroll()).toBe(true);

        await page.getByLabel(REPORT_PAGE_LABELS.comment).fill('x'.repeat(20));
        await page.getByLabel(REPORT_PAGE_LABELS.contact).fill('not an address');
        expect(await submit(page, REPORT_PAGE_LABELS.send)).toBe(400);
        found.disputeError = await seriousAxeViolations(page);

        await page.getByLabel(REPORT_PAGE_LABELS.contact).fill('');
        expect(await submit(page, REPORT_PAGE_LABELS.send)).toBe(200);
        found.filed = await seriousAxeViolations(page);
        expect(await noHorizontalScroll()).toBe(true);

        expect(found).toEqual({ form: [], error: [], verdict: [], disputeError: [], filed: [] });
        expect(view.cspViolations).toEqual([]);
      },
      { width: 320, height: 640 },
    );
  });
});
