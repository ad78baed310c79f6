/**
 * @module http/html-page
 * What the service's few server-rendered HTML pages share (the connector's sign-in page in
 * `oauth/`, the `GET /report` page in `http/report-page/`): the document shell, the CSP source of
 * their one inline style block, and the response headers that keep them out of caches, frames and
 * referrers. The pages run no script and load nothing: every byte comes in the one response, so
 * the CSP can be `default-src 'none'` with the style allowed by its hash.
 */

import { hash } from 'node:crypto';

import escapeHtml from 'escape-html';

/** Response headers of every server-rendered page (and of the sign-in page's redirects). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * The CSP source that allows one inline style block: `'sha256-<base64>'` of its exact text
 * (CSP Level 3, "hash-source").
 */
export function styleHashSource(style: string): string {
  return `'sha256-${hash('sha256', style, 'base64')}'`;
}

/**
 * A Content-Security-Policy for a page without scripts: nothing loads, the one inline style is
 * allowed by its hash, forms post only to `formAction` (CSP sources, e.g. `'self'`), no framing
 * (`frame-ancestors 'none'`, against clickjacking) and no `<base>`.
 *
 * @param styleHash {@link styleHashSource} of the page's style block.
 * @param formAction the `form-action` sources, `'none'` for a page without a form.
 */
export function scriptlessPagePolicy(styleHash: string, formAction: string): string {
  return [
    "default-src 'none'",
    `style-src ${styleHash}`,
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * A whole HTML document: English, UTF-8, a viewport for small screens, no referrer, the given
 * style inline and `body` inside `<main>`.
 *
 * @param title plain text (escaped here).
 * @param style the page's CSS, exactly the text hashed by {@link styleHashSource}.
 * @param body HTML, already escaped by the caller.
 */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>${body}
</main>
</body>
</html>
`;
}
