/**
 * @module http/routes/reports-route
 * `POST /v1/reports` (README, "Reporting a wrong verdict"): a user disputes the verdict of a URL.
 * validate → credential (an enterprise key, a connector access token, or none) → report budget →
 * `ReportService.file()` → 202 with the report's id and the verdict it disputes. Reports are free:
 * no payment, no usage row, no monthly allowance. The URL, comment and contact are stored with
 * the report (a deliberate submission) but never logged; no address or header is stored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import { reportBodyError, reportReceipt, ReportRequestSchema } from '../../api/report-schemas.js';
import { reportResponses } from '../../api/response-docs.js';
import type { Clock } from '../../clock.js';
import {
  type RateLimits,
  REPORTS_PER_CREDENTIAL,
  REPORTS_PER_SOURCE,
} from '../../ratelimit/rate-limits.js';
import { reportBudgetRefusal } from '../../ratelimit/report-budget.js';
import type {
  ReportOrigin,
  ReportService,
  ReportSubmission,
} from '../../service/report-service.js';
import type { Store } from '../../store/ports/store.js';
import { type RequestCredential, requestCredential } from '../key-access.js';
import { setRateLimitHeaders } from '../rate-limit-headers.js';
import type { TypedApp } from '../typed-app.js';

interface ReportsDeps {
  store: Store;
  clock: Clock;
  limits: RateLimits;
  reports: ReportService;
  /** `PUBLIC_BASE_URL`: connector access tokens are accepted when issued for its `/mcp`. */
  publicBaseUrl: string;
}

/** Where a report came from, by the credential it was filed with. */
function originOf(credential: RequestCredential | null): ReportOrigin {
  if (credential === null) return { source: 'anonymous', sourceId: null };
  return credential.kind === 'key'
    ? { source: 'key', sourceId: credential.key.id }
    : { source: 'connector', sourceId: credential.subjectId };
}

export function registerReportsRoute(app: TypedApp, deps: ReportsDeps): void {
  app.post(
    '/v1/reports',
    {
      schema: {
        summary: 'Report a wrong verdict',
        description:
          'Dispute the verdict of a URL: `false_positive` when it warns about a harmless URL ' +
          '(for example your own site), `false_negative` when it missed a threat. The report is ' +
          'stored with the verdict the service gives the URL now, its evidence and the engine ' +
          'and data versions, for the operator to review (`linkguard reports list`); an accepted ' +
          'report usually becomes an override that changes the verdict for every caller. Free: ' +
          'no payment and no usage is counted. Send an enterprise key (`Bearer sk_live_…`) or a ' +
          `connector access token (\`Bearer mcp_at_…\`): up to ${String(REPORTS_PER_CREDENTIAL)} ` +
          'reports per hour per key or license; or nothing: up to ' +
          `${String(REPORTS_PER_SOURCE)} reports per hour per source address (shared with the ` +
          '`/report` page). A 202 and a 429 carry the rate-limit header fields of that budget. ' +
          'The URL, comment and contact are stored, since a report is a deliberate submission; ' +
          'no IP address or header is kept.',
        tags: ['reports'],
        body: ReportRequestSchema,
        security: [{ enterpriseKey: [] }, { connectorToken: [] }, {}],
        response: reportResponses(),
      },
      // Body errors are mapped here, in the codes and messages ReportService uses.
      attachValidation: true,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (request.validationError !== undefined) throw reportBodyError(request.body);
      const { body } = request;
      const submission: ReportSubmission = {
        url: body.url,
        kind: body.kind,
        comment: body.comment ?? null,
        contact: body.contact ?? null,
      };
      // Everything the service would refuse is refused before a budget is counted, so a typo
      // does not cost a reporter one of their few reports.
      deps.reports.check(submission);

      const origin = originOf(await requestCredential(deps, request, reply));
      const budget =
        origin.sourceId === null
          ? await deps.limits.consumeReportFromSource(request.ip)
          : await deps.limits.consumeReportFromCredential(origin.sourceId);
      setRateLimitHeaders(reply, budget);
      const refusal = reportBudgetRefusal(budget);
      if (refusal !== null) throw refusal;

      const report = await deps.reports.file(submission, origin);
      // Ids and kinds only: the URL, comment and contact stay out of logs.
      request.log.info(
        { report: { id: report.id, kind: report.kind, source: report.source } },
        'report filed',
      );
      return reply.code(202).send(reportReceipt(report));
    },
  );

  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ status: 405, error: 'method_not_allowed', message: 'Use POST /v1/reports' });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/reports',
    handler: methodNotAllowed,
    schema: { hide: true },
  });
}
