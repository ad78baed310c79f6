/**
 * @module http/report-page/report-page-routes
 * The page for site owners (README "Verdict corrections"), in its own Fastify plugin scope:
 *
 * | route | what |
 * |---|---|
 * | `GET /report` | the URL form (`?url=` fills in the field) |
 * | `POST /report/check` | the verdict and the dispute form (30 look-ups per source an hour) |
 * | `POST /report/file` | files the report, shows its id (10 reports per source an hour) |
 *
 * Plain HTML forms (`application/x-www-form-urlencoded`), no script: it works with JavaScript
 * disabled. Only this scope parses urlencoded bodies and cookies (like the sign-in page's) and
 * answers its errors as pages. Headers as the sign-in page's: a CSP without scripts whose
 * `form-action` is `'self'`, no framing, `no-store`, no referrer. Nothing submitted is logged:
 * the request log has the path only, and a failure logs the error alone.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { isAppError } from '../../errors.js';
import { PAGE_HEADERS, scriptlessPagePolicy } from '../html-page.js';
import { setRateLimitHeaders } from '../rate-limit-headers.js';
import {
  csrfTokenFor,
  csrfTokenMatches,
  REPORT_CSRF_COOKIE,
  REPORT_CSRF_MAX_AGE_SECONDS,
} from './report-page-csrf.js';
import {
  checkStep,
  fileStep,
  type ReportForm,
  type ReportPageDeps,
  type StepInput,
  type StepResult,
} from './report-page-steps.js';
import { REPORT_PAGE_STYLE_HASH } from './report-page-style.js';
import { renderAskPage, renderReportErrorPage, type ReportPagePaths } from './report-page-views.js';

/** What the routes need. */
export interface ReportPageRouteDeps extends ReportPageDeps {
  /** `PUBLIC_BASE_URL`: its path prefixes the forms' actions and the cookie's path. */
  publicBaseUrl: string;
}

/** The page's routes, relative to the service's root. */
export const REPORT_PAGE_ROUTES = {
  page: '/report',
  check: '/report/check',
  file: '/report/file',
} as const;

const FORM = 'application/x-www-form-urlencoded';

/** Largest form: a 2,048-character URL and a 1,000-character comment, percent-encoded, fit. */
const FORM_BODY_LIMIT_BYTES = 64 * 1024;

/** Longest `?url=` put in the field (twice the longest URL `/v1/detect` accepts). */
const MAX_PREFILL_LENGTH = 4096;

const CSP = scriptlessPagePolicy(REPORT_PAGE_STYLE_HASH, "'self'");

/** Not part of the REST API: kept out of the OpenAPI description. */
const hidden = { schema: { hide: true } };

/** Register `GET /report` and its two forms' routes. */
export async function registerReportPage(
  app: FastifyInstance,
  deps: ReportPageRouteDeps,
): Promise<void> {
  const base = URL.parse(deps.publicBaseUrl);
  const basePath = base === null || base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const secureCookie = base?.protocol === 'https:';
  const paths: ReportPagePaths = {
    page: basePath + REPORT_PAGE_ROUTES.page,
    check: basePath + REPORT_PAGE_ROUTES.check,
    file: basePath + REPORT_PAGE_ROUTES.file,
  };

  await app.register(async (scope) => {
    await scope.register(formbody);
    await scope.register(cookie);
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = isAppError(error) ? error.status : (error.statusCode ?? 500);
      // The error only: never the form (README "Limitations and security considerations").
      if (status >= 500) request.log.error({ err: error }, 'report page request failed');
      if (isAppError(error) && error.retryAfter !== undefined) {
        void reply.header('retry-after', String(error.retryAfter));
      }
      const message =
        status === 413
          ? 'The form is too large to be read.'
          : status >= 500
            ? 'The service could not answer just now; nothing was filed. Try again in a few minutes.'
            : 'The form could not be read.';
      return sendPage(reply, status >= 400 ? status : 500, renderReportErrorPage(paths, message));
    });

    scope.get(REPORT_PAGE_ROUTES.page, hidden, (request, reply) => {
      const token = csrfFor(request, reply);
      const url = prefilledUrl(request.query);
      return sendPage(reply, 200, renderAskPage({ paths, csrfToken: token, url, error: null }));
    });
    // The forms' addresses opened directly (a bookmark, a reload after the POST was forgotten):
    // back to the start.
    for (const path of [REPORT_PAGE_ROUTES.check, REPORT_PAGE_ROUTES.file]) {
      scope.get(path, hidden, (_request, reply) =>
        reply.code(303).headers(PAGE_HEADERS).header('location', paths.page).send(),
      );
    }

    const post = { ...hidden, bodyLimit: FORM_BODY_LIMIT_BYTES };
    scope.post(REPORT_PAGE_ROUTES.check, post, (request, reply) =>
      runStep(request, reply, checkStep),
    );
    scope.post(REPORT_PAGE_ROUTES.file, post, (request, reply) =>
      runStep(request, reply, fileStep),
    );
  });

  async function runStep(
    request: FastifyRequest,
    reply: FastifyReply,
    step: (deps: ReportPageDeps, input: StepInput) => Promise<StepResult>,
  ): Promise<FastifyReply> {
    const form = readForm(request);
    if (form === null) {
      return sendPage(reply, 400, renderReportErrorPage(paths, 'The form could not be read.'));
    }
    const csrfOk = csrfTokenMatches(form.csrf_token, request.cookies[REPORT_CSRF_COOKIE]);
    const result = await step(deps, { paths, form: form.fields, csrfOk, ip: request.ip });
    // Ids and kinds only, as `POST /v1/reports` logs: the URL, comment and contact stay out.
    if (result.filed !== undefined) request.log.info({ report: result.filed }, 'report filed');
    if (result.limit !== null) setRateLimitHeaders(reply, result.limit);
    if (result.status === 429 && result.limit !== null) {
      void reply.header('retry-after', String(result.limit.resetSeconds));
    }
    return sendPage(reply, result.status, result.html(csrfFor(request, reply)));
  }

  /** The token for the next form; the cookie is (re)set so it lasts while the user works. */
  function csrfFor(request: FastifyRequest, reply: FastifyReply): string {
    const { token } = csrfTokenFor(request.cookies[REPORT_CSRF_COOKIE]);
    void reply.setCookie(REPORT_CSRF_COOKIE, token, {
      path: paths.page,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookie,
      maxAge: REPORT_CSRF_MAX_AGE_SECONDS,
    });
    return token;
  }
}

/**
 * `?url=` of `GET /report`, put in the field (not looked up: a look-up is a POST with the CSRF
 * token), so an operator's warning page or an agent can link to the form for a given URL. The
 * request log keeps the path only, so the URL is not logged.
 */
function prefilledUrl(query: unknown): string {
  const url = (query as Record<string, unknown> | null)?.url;
  return typeof url === 'string' && url.length <= MAX_PREFILL_LENGTH ? url : '';
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .header('content-security-policy', CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * The fields of a urlencoded form: each at most once (a repeated field makes the form
 * unreadable), absent ones as ''. Null for another content type or a malformed body.
 */
function readForm(
  request: FastifyRequest,
): { fields: ReportForm; csrf_token: string | undefined } | null {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const body = request.body;
  if (type !== FORM || typeof body !== 'object' || body === null) return null;
  const values = body as Record<string, unknown>;
  const field = (name: string): string | null => {
    const value = values[name];
    if (value === undefined) return '';
    return typeof value === 'string' ? value : null;
  };
  const url = field('url');
  const kind = field('kind');
  const comment = field('comment');
  const contact = field('contact');
  const token = field('csrf_token');
  if (url === null || kind === null || comment === null || contact === null || token === null) {
    return null;
  }
  return {
    fields: { url, kind, comment, contact },
    csrf_token: token === '' ? undefined : token,
  };
}
