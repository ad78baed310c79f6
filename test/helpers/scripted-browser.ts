/**
 * A scripted browser for the authorization page: it does what a person does, over plain HTTP.
 * GET the authorization URL (keeping the CSRF cookie it sets), read the form, type a credential,
 * press Connect (or Cancel), and report where the 303 sends the browser. It parses the page with
 * htmlparser2 (the page is server-rendered and needs no JavaScript), so it sees exactly the form
 * a real browser would submit.
 */
import { parseDocument } from 'htmlparser2';
import { request } from 'undici';

/** What the browser saw after pressing a button. */
export interface BrowserResult {
  /** HTTP status of the form submission (303 when the page sends the browser back). */
  status: number;
  /** The Location of a redirect, or null. */
  location: string | null;
  /** The response body (an HTML page when not redirected). */
  body: string;
}

/** The form of the authorization page: action and hidden fields. */
export interface AuthorizationForm {
  action: string;
  fields: Record<string, string>;
  /** `name=value` pairs of the cookies the page set. */
  cookies: string[];
  status: number;
  body: string;
}

/** GET the authorization URL and read its form (throws if the page has none). */
export async function openAuthorizationPage(authorizationUrl: string): Promise<AuthorizationForm> {
  const response = await request(authorizationUrl, { method: 'GET' });
  const body = await response.body.text();
  const setCookie = response.headers['set-cookie'];
  const cookies = (
    Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]
  )
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair !== '');
  const document = parseDocument(body);
  let action = '';
  const fields: Record<string, string> = {};
  const visit = (node: unknown): void => {
    const element = node as {
      name?: string;
      attribs?: Record<string, string>;
      children?: unknown[];
    };
    if (element.name === 'form') action = element.attribs?.action ?? '';
    if (element.name === 'input' && element.attribs?.type === 'hidden') {
      fields[element.attribs.name ?? ''] = element.attribs.value ?? '';
    }
    for (const child of element.children ?? []) visit(child);
  };
  visit(document);
  if (action === '') {
    throw new Error(
      `no form on the authorization page (HTTP ${String(response.statusCode)}): ${body}`,
    );
  }
  return { action, fields, cookies, status: response.statusCode, body };
}

/**
 * Submit the page's form with `credential` and the button `action`.
 *
 * @param withCookies false to drop the cookies (a cross-site forgery has none).
 */
export async function submitAuthorizationForm(
  form: AuthorizationForm,
  credential: string,
  action: 'approve' | 'deny' = 'approve',
  withCookies = true,
): Promise<BrowserResult> {
  const body = new URLSearchParams({ ...form.fields, credential, action }).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (withCookies && form.cookies.length > 0) headers.cookie = form.cookies.join('; ');
  const response = await request(form.action, { method: 'POST', headers, body });
  const location = response.headers.location;
  return {
    status: response.statusCode,
    location: typeof location === 'string' ? location : null,
    body: await response.body.text(),
  };
}

/**
 * The whole visit: open the page, type `credential`, press Connect.
 *
 * @returns where the browser is sent (the client's redirect URI with `code` or `error`).
 * @throws when the page does not redirect.
 */
export async function authorizeInBrowser(
  authorizationUrl: string,
  credential: string,
): Promise<URL> {
  const form = await openAuthorizationPage(authorizationUrl);
  const result = await submitAuthorizationForm(form, credential);
  if (result.location === null) {
    throw new Error(`the page did not redirect (HTTP ${String(result.status)}): ${result.body}`);
  }
  return new URL(result.location);
}
