/**
 * @module oauth/authorization-page
 * The authorization page (docs/architecture.md, "Authorization server"): server-rendered HTML
 * that works without JavaScript, asking for a Premium license or an enterprise key. Every value
 * from the client's registration or the request is escaped (`escape-html`). The page names the
 * client and the address it will be sent to, with the site's host in ASCII (punycode) beside its
 * Unicode form ({@link describeRedirectTarget}), so a user who did not start the connection can
 * recognise a phishing attempt, a look-alike host included. Headers: a CSP without scripts whose
 * `form-action` allows only this page and the client's redirect target (browsers apply it to the
 * redirect after the form), `frame-ancestors 'none'` against clickjacking, `no-store`, and no
 * referrer.
 */

import escapeHtml from 'escape-html';

import {
  htmlDocument,
  PAGE_HEADERS,
  scriptlessPagePolicy,
  styleHashSource,
} from '../http/html-page.js';
import type { AuthorizationPageView } from './authorization-request.js';
import { describeRedirectTarget, redirectSource } from './redirect-uri.js';

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:30rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.35rem;margin:0 0 1rem}
.who{padding:.75rem 1rem;background:#f0f3f9;border-radius:8px;margin:0 0 1rem}
.where{word-break:break-all;font-family:ui-monospace,monospace;font-size:.9rem}
.host{font-family:ui-monospace,monospace;font-weight:700}
label{display:block;font-weight:600;margin:1.25rem 0 .35rem}
input[type=password]{box-sizing:border-box;width:100%;padding:.6rem;font:inherit;font-family:ui-monospace,monospace;border:1px solid #aab;border-radius:6px}
.hint{font-size:.85rem;color:#556}
.error{color:#a0001c;background:#fde8ec;padding:.6rem .8rem;border-radius:6px}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #1d4ed8;cursor:pointer}
button.approve{background:#1d4ed8;color:#fff}
button.deny{background:#fff;color:#1d2330;border-color:#aab}
`.trim();

/** CSP hash of the one inline style block (CSP3 'sha256-…' source). */
const STYLE_HASH = styleHashSource(STYLE);

/** Response headers of every authorization-page response (page, error page, redirect). */
export { PAGE_HEADERS };

/**
 * The Content-Security-Policy of a page.
 *
 * @param redirectUri the client's redirect URI (its origin or scheme joins `form-action`), or
 *   null for a page without a form.
 */
export function pageSecurityPolicy(redirectUri: string | null): string {
  const formAction = redirectUri === null ? "'none'" : `'self' ${redirectSource(redirectUri)}`;
  return scriptlessPagePolicy(STYLE_HASH, formAction);
}

/** The sign-in page for a pending authorization. */
export function renderAuthorizationPage(view: AuthorizationPageView): string {
  // The name is the client's own claim (registration is open), and the page says so.
  const client =
    view.clientName === null
      ? 'An application that did not give its name'
      : `An application calling itself <strong>${escapeHtml(view.clientName)}</strong>`;
  const error =
    view.error === null ? '' : `<p class="error" role="alert">${escapeHtml(view.error)}</p>`;
  const body = `
<h1>Connect an AI client to linkguard</h1>
<div class="who">
<p>${client} asks to check links with linkguard on your behalf.</p>
<p>After you connect, your browser returns to:<br><span class="where">${escapeHtml(describeRedirectTarget(view.redirectUri).href)}</span></p>
${destination(view.redirectUri)}
<p><strong>Only continue if you started this connection yourself</strong>, from your own AI client.</p>
</div>
${error}
<form method="post" action="${escapeHtml(view.formAction)}">
<input type="hidden" name="request_id" value="${escapeHtml(view.requestId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<label for="credential">Premium license or enterprise key</label>
<input id="credential" name="credential" type="password" required autocomplete="off" spellcheck="false" autocapitalize="off" placeholder="lic_… or sk_live_…" aria-describedby="credential-hint">
<p id="credential-hint" class="hint">A Premium license includes 1,000 checks a month; an enterprise key counts against its own allowance. The client never sees what you type: it receives an access token valid for 30 days, which you can revoke.</p>
<div class="actions">
<button class="approve" type="submit" name="action" value="approve">Connect</button>
<button class="deny" type="submit" name="action" value="deny" formnovalidate>Cancel</button>
</div>
</form>`;
  return document('Connect to linkguard', body);
}

/**
 * The paragraph naming who receives the browser: the site's host in ASCII (what the browser
 * connects to) and, when it differs, its Unicode form with a warning; a loopback program; or an
 * app by its scheme.
 */
function destination(redirectUri: string): string {
  const target = describeRedirectTarget(redirectUri);
  if (target.kind === 'app') {
    return `<p>That is the app on this device that opens <span class="host">${escapeHtml(target.scheme)}:</span> links.</p>`;
  }
  if (target.loopback) {
    return `<p>That is a program on this computer (<span class="host">${escapeHtml(target.asciiHost)}</span>).</p>`;
  }
  const site = `<p>Site: <span class="host" title="host in ASCII">${escapeHtml(target.asciiHost)}</span>`;
  if (target.unicodeHost === null) return `${site}</p>`;
  return (
    `${site}, written in Unicode as <span class="host" title="host in Unicode">${escapeHtml(target.unicodeHost)}</span>. ` +
    'Names in other scripts can look like a familiar site’s: the ASCII form is the real one.</p>'
  );
}

/** A page that explains why the authorization cannot go on (nothing is redirected). */
export function renderErrorPage(message: string): string {
  return document(
    'linkguard sign-in',
    `
<h1>This connection cannot continue</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}

function document(title: string, body: string): string {
  return htmlDocument(title, STYLE, body);
}
