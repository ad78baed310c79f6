/**
 * @module http/report-page/report-page-csrf
 * CSRF protection of the `GET /report` forms: the double-submit cookie pattern (OWASP CSRF
 * Prevention Cheat Sheet, "Alternative: Using a Double-Submit Cookie Pattern"), as the
 * connector's sign-in page does. A random token (256 bits) travels in an HttpOnly, SameSite=Strict
 * cookie scoped to the page's path and in a hidden field of every form; a POST is accepted only
 * when both are present and equal (compared in constant time). The page keeps no server-side
 * state, so one cookie serves every open tab until it expires.
 */
import { randomBytes } from 'node:crypto';

import { hashesEqual, randomSecretBody } from '../../access/api-key.js';

/** Name of the cookie. */
export const REPORT_CSRF_COOKIE = 'lg_report_csrf';

/** How long a token stays valid: 2 hours, far longer than filling in the form takes. */
export const REPORT_CSRF_MAX_AGE_SECONDS = 2 * 60 * 60;

/** A token: 43 base62 characters. */
const TOKEN = /^[0-9A-Za-z]{43}$/;

/** A new random token (from `crypto.randomBytes`). */
export function newCsrfToken(): string {
  return randomSecretBody(randomBytes);
}

/**
 * The token to put in the next form: the browser's current cookie when it is well formed (so
 * tabs already open keep working), else a new one.
 *
 * @returns the token and whether it is new (then the caller must set the cookie).
 */
export function csrfTokenFor(cookie: string | undefined): { token: string; fresh: boolean } {
  if (cookie !== undefined && TOKEN.test(cookie)) return { token: cookie, fresh: false };
  return { token: newCsrfToken(), fresh: true };
}

/**
 * Whether a form's token matches the cookie: both present, well formed and equal. Constant time
 * in the tokens' content. Never throws.
 */
export function csrfTokenMatches(formToken: string | undefined, cookie: string | undefined) {
  if (formToken === undefined || cookie === undefined) return false;
  if (!TOKEN.test(formToken) || !TOKEN.test(cookie)) return false;
  return hashesEqual(Buffer.from(formToken), Buffer.from(cookie));
}
