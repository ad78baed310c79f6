/**
 * A fake browser for the MCP Inspector's interactive OAuth (guides/mcp.md §7.4), started by
 * fake-browser.sh when the Inspector opens the authorization URL through xdg-open and `$BROWSER`.
 * It does what a person does: opens the sign-in page, types the credential from
 * `LINKGUARD_TEST_CREDENTIAL` (inherited from the Inspector's environment), presses Connect, and
 * follows the redirect to the Inspector's loopback callback listener, which then receives the
 * code. It only talks to loopback addresses.
 *
 * Exit status: 0 when the page redirected and the callback listener answered 2xx; 1 when the page
 * did not redirect (a refused credential re-renders it), the redirect carried an error, or the
 * listener refused; 2 for a usage error; 3 when the visit took longer than {@link VISIT_TIMEOUT_MS}.
 * Each visit appends one JSON line to `LINKGUARD_FAKE_BROWSER_LOG` when it is set, since xdg-open
 * runs the browser detached with its output discarded. (xdg-open tries `$BROWSER` a second time
 * when it exits non-zero, so a failed visit is logged twice.)
 */
import { appendFileSync } from 'node:fs';

import { request } from 'undici';

import { openAuthorizationPage, submitAuthorizationForm } from '../helpers/scripted-browser.js';

/** The whole visit is bounded: nobody waits for a detached browser. */
const VISIT_TIMEOUT_MS = 20_000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** One visit, as logged. */
export interface FakeBrowserVisit {
  pid: number;
  url: string;
  outcome: 'redirected' | 'no-redirect' | 'error' | 'timeout';
  exitCode: number;
  /** HTTP status of the form submission. */
  pageStatus?: number;
  /** The text of the page's error message when it did not redirect. */
  pageError?: string;
  /** Where the page sent the browser. */
  location?: string;
  /** HTTP status of the callback listener. */
  callbackStatus?: number;
  message?: string;
}

function log(visit: FakeBrowserVisit): void {
  const path = process.env.LINKGUARD_FAKE_BROWSER_LOG;
  if (path === undefined || path === '') return;
  try {
    appendFileSync(path, JSON.stringify(visit) + '\n');
  } catch {
    // The test may already have removed its directory; there is nobody left to tell.
  }
}

function finish(visit: FakeBrowserVisit): never {
  log(visit);
  if (visit.exitCode !== 0) {
    process.stderr.write(`fake-browser: ${visit.outcome} ${visit.message ?? ''}\n`);
  }
  process.exit(visit.exitCode);
}

/** The URL when it is http(s) on a loopback host, else null. */
function loopbackUrl(raw: string): URL | null {
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return LOOPBACK.has(url.hostname) ? url : null;
}

/** The text of the page's `role="alert"` element, if any. */
function pageError(body: string): string | undefined {
  const match = /role="alert">([^<]*)</.exec(body);
  return match?.[1];
}

async function visit(raw: string, credential: string): Promise<FakeBrowserVisit> {
  const base = { pid: process.pid, url: raw };
  const url = loopbackUrl(raw);
  if (url === null) {
    return { ...base, outcome: 'error', exitCode: 2, message: 'not a loopback http(s) URL' };
  }
  const form = await openAuthorizationPage(url.href);
  const submitted = await submitAuthorizationForm(form, credential);
  if (submitted.location === null) {
    return {
      ...base,
      outcome: 'no-redirect',
      exitCode: 1,
      pageStatus: submitted.status,
      ...(pageError(submitted.body) === undefined ? {} : { pageError: pageError(submitted.body) }),
      message: `the page did not redirect (HTTP ${String(submitted.status)})`,
    };
  }
  const callback = loopbackUrl(submitted.location);
  if (callback === null) {
    return {
      ...base,
      outcome: 'error',
      exitCode: 1,
      pageStatus: submitted.status,
      location: submitted.location,
      message: 'the redirect does not go to a loopback listener',
    };
  }
  const response = await request(callback.href, { method: 'GET' });
  await response.body.dump();
  const ok =
    response.statusCode >= 200 && response.statusCode < 300 && !callback.searchParams.has('error');
  return {
    ...base,
    outcome: 'redirected',
    exitCode: ok ? 0 : 1,
    pageStatus: submitted.status,
    location: submitted.location,
    callbackStatus: response.statusCode,
  };
}

const [target, ...rest] = process.argv.slice(2);
const credential = process.env.LINKGUARD_TEST_CREDENTIAL ?? '';
if (target === undefined || rest.length > 0 || credential === '') {
  finish({
    pid: process.pid,
    url: target ?? '',
    outcome: 'error',
    exitCode: 2,
    message:
      'usage: LINKGUARD_TEST_CREDENTIAL=<license or key> fake-browser.sh <authorization URL>',
  });
}
setTimeout(() => {
  finish({
    pid: process.pid,
    url: target,
    outcome: 'timeout',
    exitCode: 3,
    message: `gave up after ${String(VISIT_TIMEOUT_MS)} ms`,
  });
}, VISIT_TIMEOUT_MS).unref();
try {
  finish(await visit(target, credential));
} catch (error) {
  finish({
    pid: process.pid,
    url: target,
    outcome: 'error',
    exitCode: 1,
    message: error instanceof Error ? error.message : String(error),
  });
}
