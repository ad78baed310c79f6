/**
 * `GET /report`, the page for site owners, through `app.inject()` over a real SQLite store and
 * the real engine: the three steps (URL form → verdict and dispute form → filed report), the
 * stored report (source `page`), every refusal with its status and the form kept (403 CSRF,
 * 400 input, 429 budgets with Retry-After and the wait in minutes), the headers of a
 * script-free page, and that nothing submitted reaches the logs.
 */
import { describe, expect, it } from 'vitest';

import { EXAMPLE_URLS } from '../../src/api/example-urls.js';
import { addOverride } from '../../src/corrections/operator-actions.js';
import { REPORT_CSRF_COOKIE } from '../../src/http/report-page/report-page-csrf.js';
import { type TestApp, type TestContext, useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

const FORM = 'application/x-www-form-urlencoded';
const CLIENT_IP = '203.0.113.7';

/** A browser's session with the page: its CSRF cookie and the token of the last form. */
interface Session {
  cookie: string;
  token: string;
}

/** The value of the hidden `csrf_token` field of a page. */
function formToken(html: string): string {
  const match = /name="csrf_token" value="([0-9A-Za-z]{43})"/.exec(html);
  if (match?.[1] === undefined) throw new Error('the page has no CSRF token');
  return match[1];
}

/** The CSRF cookie an answer sets. */
function csrfCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  const line = all.find((c) => c.startsWith(`${REPORT_CSRF_COOKIE}=`));
  if (line === undefined) throw new Error('no CSRF cookie was set');
  return line;
}

async function openPage(app: TestApp): Promise<Session & { html: string }> {
  const res = await app.inject({ method: 'GET', url: '/report', remoteAddress: CLIENT_IP });
  expect(res.statusCode).toBe(200);
  const line = csrfCookie(res.headers['set-cookie']);
  const cookie = line.split(';')[0]?.split('=')[1] ?? '';
  const token = formToken(res.body);
  expect(token).toBe(cookie);
  return { cookie, token, html: res.body };
}

function post(
  app: TestApp,
  path: '/report/check' | '/report/file',
  session: Session | null,
  fields: Record<string, string>,
  ip = CLIENT_IP,
) {
  return app.inject({
    method: 'POST',
    url: path,
    remoteAddress: ip,
    headers: {
      'content-type': FORM,
      ...(session === null ? {} : { cookie: `${REPORT_CSRF_COOKIE}=${session.cookie}` }),
    },
    payload: new URLSearchParams({
      ...(session === null ? {} : { csrf_token: session.token }),
      ...fields,
    }).toString(),
  });
}

/** The text of the error summary's item. */
function summary(html: string): string {
  const match = /<div class="error-summary"[^>]*>[\s\S]*?<li>([\s\S]*?)<\/li>/.exec(html);
  return (match?.[1] ?? '').replace(/<[^>]+>/g, '');
}

async function reportsOf(ctx: TestContext) {
  return ctx.store.reports.listReports();
}

describe('GET /report', () => {
  it('serves an accessible, script-free form with a CSRF cookie', async () => {
    const ctx = await start();
    const res = await ctx.app.inject({ method: 'GET', url: '/report' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const cookie = csrfCookie(res.headers['set-cookie']);
    expect(cookie).toMatch(/; Path=\/report(;|$)/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // Plain http here: the cookie is Secure only when PUBLIC_BASE_URL is https.
    expect(cookie).not.toContain('Secure');

    const html = res.body;
    expect(html).toContain('<html lang="en">');
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html).toContain('<label for="url">');
    expect(html).toContain('id="url" name="url"');
    expect(html).toContain('aria-describedby="url-hint"');
    expect(html).toContain('action="/report/check"');
    expect(html).not.toContain('<script');
  });

  it('sets a Secure cookie and prefixes the base path when PUBLIC_BASE_URL is https with a path', async () => {
    const ctx = await start({ env: { PUBLIC_BASE_URL: 'https://guard.example/lg' } });
    const res = await ctx.app.inject({ method: 'GET', url: '/report' });
    const cookie = csrfCookie(res.headers['set-cookie']);
    expect(cookie).toContain('Secure');
    expect(cookie).toMatch(/; Path=\/lg\/report(;|$)/);
    expect(res.body).toContain('action="/lg/report/check"');
  });

  it('shows the verdict, preselects the dispute, files the report (source page) and shows its id', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);

    const checked = await post(ctx.app, '/report/check', session, { url: EXAMPLE_URLS.danger });
    expect(checked.statusCode).toBe(200);
    expect(checked.headers['ratelimit-policy']).toBe('"report-checks-per-ip";q=30;w=3600');
    expect(checked.headers['ratelimit-remaining']).toBe('29');
    const page = checked.body;
    expect(page).toContain('class="verdict verdict-danger"');
    expect(page).toMatch(/<span aria-hidden="true">✕<\/span> Danger<\/p>/);
    expect(page).toContain('<dt>Reason</dt>');
    expect(page).toMatch(/<dt>Brand<\/dt><dd>MetaMask — the address appears to imitate/);
    // A warning is most likely disputed as wrong.
    expect(page).toMatch(/id="kind-false_positive" name="kind" value="false_positive" checked/);
    expect(page).not.toMatch(/value="false_negative" checked/);
    expect(page).toContain('<legend>What is wrong with the verdict?</legend>');
    expect(page).toContain(
      '<input type="hidden" name="url" value="https://metamask-restore-wallet.com/">',
    );
    expect(page).toContain('maxlength="1000"');
    expect(page).toContain('action="/report/file"');

    const filed = await post(ctx.app, '/report/file', session, {
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      comment: 'This is our own wallet support site.\nCall us to confirm.',
      contact: 'owner@example.com',
    });
    expect(filed.statusCode).toBe(200);
    expect(filed.headers['ratelimit-policy']).toBe('"reports-per-ip";q=10;w=3600');
    const id = /id="report-id">(rpt_[0-9A-Za-z]+)</.exec(filed.body)?.[1];
    expect(id).toMatch(/^rpt_[0-9A-Za-z]{16}$/);
    expect(filed.body).toContain('<h2>What happens next</h2>');

    const stored = await ctx.store.reports.findReport(id ?? '');
    expect(stored).toMatchObject({
      url: 'https://metamask-restore-wallet.com/',
      kind: 'false_positive',
      comment: 'This is our own wallet support site.\nCall us to confirm.',
      contact: 'owner@example.com',
      source: 'page',
      sourceId: null,
      status: 'open',
    });
    expect(stored?.verdict.verdict).toBe('danger');
    expect(stored?.verdict.brand).toBe('MetaMask');

    // The filing is logged by id, kind and source; nothing the user submitted, nor their address.
    const filedLine = ctx.logs.records().find((r) => r.msg === 'report filed');
    expect(filedLine?.report).toEqual({ id, kind: 'false_positive', source: 'page' });
    const logs = ctx.logs.text();
    expect(logs).not.toContain('metamask-restore-wallet');
    expect(logs).not.toContain('owner@example.com');
    expect(logs).not.toContain('our own wallet');
    expect(logs).not.toContain(CLIENT_IP);
  });

  it('preselects "dangerous — missed" for a safe verdict and files a report without comment or contact', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const checked = await post(ctx.app, '/report/check', session, { url: EXAMPLE_URLS.safe });
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toContain('class="verdict verdict-safe"');
    expect(checked.body).toMatch(/<span aria-hidden="true">✓<\/span> Safe<\/p>/);
    expect(checked.body).toMatch(/value="false_negative" checked/);
    const filed = await post(ctx.app, '/report/file', session, {
      url: 'https://docs.github.com/',
      kind: 'false_negative',
      comment: '   ',
      contact: '',
    });
    expect(filed.statusCode).toBe(200);
    const [report] = await reportsOf(ctx);
    expect(report).toMatchObject({
      kind: 'false_negative',
      comment: null,
      contact: null,
      source: 'page',
    });
  });

  describe('refuses a forged or stale form with 403 and keeps the input', () => {
    it.each([
      ['without the cookie', (s: Session) => ({ cookie: null, token: s.token })],
      ['without the token', (s: Session) => ({ cookie: s.cookie, token: null })],
      [
        'with a token that is not the cookie',
        (s: Session) => ({
          cookie: s.cookie,
          // The last character changed, whatever it was.
          token: s.token.slice(0, 42) + (s.token.endsWith('x') ? 'y' : 'x'),
        }),
      ],
    ])('%s', async (_name, forge) => {
      const ctx = await start();
      const session = await openPage(ctx.app);
      const forged = forge(session);
      for (const path of ['/report/check', '/report/file'] as const) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: path,
          remoteAddress: CLIENT_IP,
          headers: {
            'content-type': FORM,
            ...(forged.cookie === null ? {} : { cookie: `${REPORT_CSRF_COOKIE}=${forged.cookie}` }),
          },
          payload: new URLSearchParams({
            ...(forged.token === null ? {} : { csrf_token: forged.token }),
            url: 'https://keep.example/typed',
            kind: 'false_negative',
            comment: 'kept comment',
          }).toString(),
        });
        expect(res.statusCode).toBe(403);
        expect(summary(res.body)).toContain('could not be verified');
        expect(res.body).toContain('value="https://keep.example/typed"');
        // A fresh form comes back with a token that matches the cookie now set.
        const token = formToken(res.body);
        const cookie = csrfCookie(res.headers['set-cookie']).split(';')[0]?.split('=')[1];
        expect(token).toBe(cookie);
        if (path === '/report/file') {
          expect(res.body).toContain('kept comment</textarea>');
          expect(res.body).toMatch(/value="false_negative" checked/);
        }
        // No budget was spent on a refused form.
        expect(res.headers['ratelimit-policy']).toBeUndefined();
      }
      expect(await reportsOf(ctx)).toEqual([]);
    });
  });

  it('answers 400 with the URL field marked for an invalid URL, on both steps', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    for (const [url, words] of [
      ['http://10.0.0.1/', 'That address cannot be checked'],
      ['ftp://example.com/x', 'That address cannot be checked'],
      ['', 'Enter the address of the site.'],
    ] as const) {
      const res = await post(ctx.app, '/report/check', session, { url });
      expect(res.statusCode).toBe(400);
      expect(summary(res.body)).toContain(words);
      expect(res.body).toContain('<a href="#url">');
      expect(res.body).toContain('aria-describedby="url-hint url-error" aria-invalid="true"');
      expect(res.body).toContain('<title>Error: Report a wrong verdict');
      expect(res.body).toContain(`value="${url}"`);
    }
    const filed = await post(ctx.app, '/report/file', session, {
      url: 'http://10.0.0.1/',
      kind: 'false_positive',
    });
    expect(filed.statusCode).toBe(400);
    expect(summary(filed.body)).toContain('That address cannot be checked');
    expect(await reportsOf(ctx)).toEqual([]);
  });

  it('answers 400 for a comment over 1,000 characters, an unknown kind, no kind or a bad contact, keeping the input', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const url = 'https://docs.github.com/';
    const cases: { fields: Record<string, string>; field: string; words: string }[] = [
      {
        fields: { kind: 'false_positive', comment: 'é'.repeat(1001) },
        field: 'comment',
        words: 'The comment has 1001 characters: shorten it to 1,000 or fewer.',
      },
      {
        fields: { kind: 'looks_fine', comment: 'kept' },
        field: 'kind',
        words: 'Choose one of the two answers',
      },
      { fields: { comment: 'kept' }, field: 'kind', words: 'Choose what is wrong' },
      {
        fields: { kind: 'false_negative', contact: 'not an address' },
        field: 'contact',
        words: 'Enter an email address',
      },
    ];
    for (const { fields, field, words } of cases) {
      const res = await post(ctx.app, '/report/file', session, { url, ...fields });
      expect(res.statusCode).toBe(400);
      expect(summary(res.body)).toContain(words);
      const target = field === 'kind' ? 'kind-false_positive' : field;
      expect(res.body).toContain(`<a href="#${target}">`);
      expect(res.body).toContain(`id="${field}-error"`);
      if (field === 'kind') expect(res.body).toContain('<fieldset aria-describedby="kind-error">');
      else
        expect(res.body).toContain(
          `aria-describedby="${field}-hint ${field}-error" aria-invalid="true"`,
        );
      if (fields.comment !== undefined) {
        expect(res.body).toContain(`>${fields.comment}</textarea>`);
      }
      if (fields.contact !== undefined) expect(res.body).toContain(`value="${fields.contact}"`);
      expect(res.body).toContain(`<input type="hidden" name="url" value="${url}">`);
    }
    // Exactly 1,000 characters is accepted.
    const ok = await post(ctx.app, '/report/file', session, {
      url,
      kind: 'false_negative',
      comment: 'é'.repeat(1000),
    });
    expect(ok.statusCode).toBe(200);
    expect(await reportsOf(ctx)).toHaveLength(1);
  });

  it('escapes what the user typed when it comes back', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const res = await post(ctx.app, '/report/file', session, {
      url: 'https://docs.github.com/',
      kind: '"><script>alert(1)</script>',
      comment: '</textarea><script>alert(2)</script>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;</textarea>');
  });

  it('refuses the 11th filing from one source in an hour with 429, Retry-After and the wait in minutes', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const fields = { url: 'https://docs.github.com/', kind: 'false_negative' };
    for (let i = 0; i < 10; i++) {
      const res = await post(ctx.app, '/report/file', session, fields);
      expect(res.statusCode).toBe(200);
    }
    const refused = await post(ctx.app, '/report/file', session, {
      ...fields,
      comment: 'the eleventh',
    });
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(summary(refused.body)).toMatch(
      /filed 10 reports in the last hour, the most allowed\. Your report was not sent; try again in (5\d|60) minutes\./,
    );
    expect(refused.body).toContain('the eleventh</textarea>');
    expect(await reportsOf(ctx)).toHaveLength(10);
    // Another source still may.
    const other = await post(ctx.app, '/report/file', session, fields, '198.51.100.9');
    expect(other.statusCode).toBe(200);
  });

  it('refuses the 31st verdict look-up from one source in an hour with 429, keeping the URL', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    for (let i = 0; i < 30; i++) {
      const res = await post(ctx.app, '/report/check', session, {
        url: `https://docs.github.com/page-${String(i)}`,
      });
      expect(res.statusCode).toBe(200);
    }
    const refused = await post(ctx.app, '/report/check', session, {
      url: 'https://docs.github.com/one-more',
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(summary(refused.body)).toMatch(
      /looked up 30 addresses in the last hour, the most allowed\. Try again in (5\d|60) minutes\./,
    );
    expect(refused.body).toContain('value="https://docs.github.com/one-more"');
    // Invalid URLs never spent the budget: they are refused first.
    const invalid = await post(ctx.app, '/report/check', session, { url: 'http://10.0.0.1/' });
    expect(invalid.statusCode).toBe(400);
  });

  it('answers a page, not JSON, to a body that is not a form', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/report/check',
      headers: {
        'content-type': 'application/json',
        cookie: `${REPORT_CSRF_COOKIE}=${session.cookie}`,
      },
      payload: JSON.stringify({ csrf_token: session.token, url: 'https://docs.github.com/' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('The form could not be read.');
    const repeated = await ctx.app.inject({
      method: 'POST',
      url: '/report/check',
      headers: { 'content-type': FORM, cookie: `${REPORT_CSRF_COOKIE}=${session.cookie}` },
      payload: `csrf_token=${session.token}&url=a.example&url=b.example`,
    });
    expect(repeated.statusCode).toBe(400);
  });

  it('fills in ?url= without looking it up, and sends a direct visit of a form address back to the start', async () => {
    const ctx = await start();
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/report?url=${encodeURIComponent('https://example.com/"><b>x')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('value="https://example.com/&quot;&gt;&lt;b&gt;x"');
    expect(res.body).not.toContain('class="verdict');
    expect(ctx.logs.text()).not.toContain('example.com');
    for (const path of ['/report/check', '/report/file']) {
      const direct = await ctx.app.inject({ method: 'GET', url: path });
      expect(direct.statusCode).toBe(303);
      expect(direct.headers.location).toBe('/report');
    }
  });

  it("shows the operator's override as the current verdict, naming it", async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    const override = await addOverride(ctx.store, ctx.clock, {
      action: 'allow',
      target: 'metamask-restore-wallet.com',
      reason: 'The owner proved it is their support site',
      by: 'ops@example.com',
      expiresAt: null,
    });
    const checked = await post(ctx.app, '/report/check', session, { url: EXAMPLE_URLS.danger });
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toContain('class="verdict verdict-safe"');
    expect(checked.body).toContain('The owner proved it is their support site');
    expect(checked.body).toContain(override.id);
    // Safe now, so the form expects a missed threat unless the person says otherwise.
    expect(checked.body).toMatch(/value="false_negative" checked/);
  });

  it('answers a failure of the store with a page that says nothing was filed, logging no input', async () => {
    const ctx = await start();
    const session = await openPage(ctx.app);
    await ctx.store.close();
    const res = await post(ctx.app, '/report/file', session, {
      url: 'https://failing-site-for-test.com/path',
      kind: 'false_negative',
      comment: 'secret words',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('nothing was filed');
    expect(res.body).not.toContain('secret words');
    const logs = ctx.logs.text();
    expect(logs).toContain('report page request failed');
    expect(logs).not.toContain('failing-site-for-test');
    expect(logs).not.toContain('secret words');
  });
});
