/**
 * @module http/docs-branding
 * linkguard's own look for the API reference at `/docs` (Swagger UI through @fastify/swagger-ui):
 * the logo in its top bar, the page title, a favicon, a few colours, and a Content-Security-Policy
 * that lets the page load nothing but its own files. The images are drawn here (no third-party
 * asset) and kept as strings, so the built service needs no extra file next to its code.
 */

/** The page title of `/docs`. */
export const DOCS_TITLE = 'linkguard API';

/** linkguard's green, the top bar's accent. */
const ACCENT = '#2f9e6b';

/** The shield with a chain link, drawn in a 32×32 box (also the favicon). */
const SHIELD =
  `<path d="M16 2 4 6.5v8.2C4 22.3 9.1 28.2 16 30c6.9-1.8 12-7.7 12-15.3V6.5Z" fill="${ACCENT}"/>` +
  '<path d="M13.2 18.8l5.6-5.6M12 15.6l-1.7 1.7a3 3 0 0 0 4.2 4.3l1.7-1.7M20 16.4l1.7-1.7a3 3 0 0 0-4.2-4.3L15.8 12.1" ' +
  'fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>';

/**
 * The top-bar logo (SVG, 168×40): the shield and the word "linkguard" in white on Swagger UI's
 * dark top bar. `<title>` names it for screen readers and for the browser test.
 */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="168" height="40" viewBox="0 0 168 40" role="img" aria-label="linkguard">' +
  '<title>linkguard</title>' +
  `<g transform="translate(2 4)">${SHIELD}</g>` +
  '<text x="42" y="27.5" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" ' +
  'font-size="22" font-weight="700" fill="#fff" letter-spacing="0.2">linkguard</text>' +
  '</svg>';

/** The favicon (SVG): the shield alone. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
  `${SHIELD}</svg>`;

/** Top bar and link colours over Swagger UI's own stylesheet. */
export const THEME_CSS = `
.swagger-ui .topbar { background-color: #14241d; border-bottom: 3px solid ${ACCENT}; }
.swagger-ui .topbar .download-url-wrapper .download-url-button { background: ${ACCENT}; }
.swagger-ui .topbar .download-url-wrapper input[type=text] { border-color: ${ACCENT}; }
.swagger-ui .info a { color: ${ACCENT}; }
`;

/**
 * The Content-Security-Policy of `/docs` and its files: everything from the service's own origin,
 * images also inline (`data:`, the logo), no frames of others, no plug-ins, no inline scripts.
 * @fastify/swagger-ui's default adds `https:` sources for fonts and styles and the public
 * validator's host for images; none is needed, since the validator is off and every file is
 * served locally.
 */
export const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
  "style-src 'self'; form-action 'self'";
