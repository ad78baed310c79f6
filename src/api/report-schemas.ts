/**
 * @module api/report-schemas
 * Body and answer of `POST /v1/reports` and the arguments and result of the connector's
 * `report_url` tool (README, "Reporting a wrong verdict"): a URL whose verdict the reporter
 * disputes, the kind of dispute, and optionally a comment and a contact address. Unknown fields
 * are refused. {@link reportBodyError} explains a body the schema refuses in the error codes and
 * messages `ReportService` uses for the same mistakes, so both doors answer alike.
 */
import Type, { type Static } from 'typebox';

import { codePointLength } from '../corrections/code-points.js';
import { MAX_URL_LENGTH } from '../engine/url/normalize-url.js';
import { AppError } from '../errors.js';
import { MAX_REPORT_COMMENT, MAX_REPORT_CONTACT } from '../service/report-service.js';
import { REPORT_KINDS } from '../store/ports/correction-store.js';
import { VerdictValueSchema } from './verdict-schema.js';

/** The fields a report takes, in the order messages list them. */
const REPORT_FIELDS = ['url', 'kind', 'comment', 'contact'] as const;

/** `reason` of a 400 whose `kind` is absent or not one of {@link REPORT_KINDS}. */
export const UNKNOWN_KIND_REASON = 'unknown_kind';

const KIND_DESCRIPTION =
  '`false_positive`: the verdict warns about a URL that is harmless (for example your own ' +
  'site); `false_negative`: the verdict missed a threat.';

/** A report's fields (the body of `POST /v1/reports`, the arguments of `report_url`). */
export const ReportRequestSchema = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_URL_LENGTH,
      description:
        'The URL whose verdict you dispute, as for POST /v1/detect: an http(s) URL or a bare ' +
        `host, at most ${String(MAX_URL_LENGTH)} characters, public hosts only. It is stored ` +
        '(normalized) with the report.',
      examples: ['https://shop.example.com/checkout'],
    }),
    kind: Type.Enum(REPORT_KINDS, { description: KIND_DESCRIPTION }),
    comment: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_REPORT_COMMENT }), Type.Null()], {
        description:
          `Why the verdict is wrong, at most ${String(MAX_REPORT_COMMENT)} characters ` +
          '(no control characters other than tabs and line breaks). Stored with the report; ' +
          'absent, null or blank: none.',
      }),
    ),
    contact: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_REPORT_CONTACT }), Type.Null()], {
        description:
          `An email address (at most ${String(MAX_REPORT_CONTACT)} characters) where the ` +
          'operator may reach you about this report. Stored with the report; absent, null or ' +
          'blank: none.',
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: 'ReportRequest',
    examples: [
      {
        url: 'https://shop.example.com/checkout',
        kind: 'false_positive',
        comment: 'This is our own shop; the checkout page is flagged since yesterday.',
        contact: 'webmaster@example.com',
      },
    ],
  },
);
export type ReportRequest = Static<typeof ReportRequestSchema>;

/** What a filed report is answered with (202 of `POST /v1/reports`, `report_url`'s result). */
export const ReportReceiptSchema = Type.Object(
  {
    id: Type.String({
      pattern: '^rpt_[0-9A-Za-z]{16}$',
      description: "The report's id; the operator reviews it as `linkguard reports show <id>`.",
    }),
    status: Type.Literal('open', {
      description: 'Always `open`: the operator has not reviewed it yet.',
    }),
    url: Type.String({ description: 'The URL as stored: normalized like a verdict’s URL.' }),
    kind: Type.Enum(REPORT_KINDS, { description: KIND_DESCRIPTION }),
    verdict: Type.Union(VerdictValueSchema.anyOf, {
      description:
        'The verdict the service gave the URL when the report was filed (stored whole with the ' +
        'report, with the engine and data versions that produced it).',
    }),
    created_at: Type.String({ format: 'date-time', description: 'When it was filed (UTC).' }),
  },
  { additionalProperties: false, $id: 'ReportReceipt' },
);
export type ReportReceipt = Static<typeof ReportReceiptSchema>;

/**
 * The 400 for a report whose fields break {@link ReportRequestSchema}, found by checking the
 * fields in a fixed order (so the HTTP route and the connector name the same mistake whatever
 * their validators report first): a body that is not an object and unknown fields are
 * `invalid_request`; no `url` (absent or null) is `missing_url`; a `url` that is not a string or
 * is too long is `invalid_url` (reason `malformed` / `too_long`, as on `/v1/detect`); a bad
 * `kind`, `comment` or `contact` is `invalid_request` with the reason and message
 * `ReportService` gives the same mistake (`unknown_kind`, `comment_too_long` or
 * `invalid_comment`, `invalid_contact`).
 *
 * @param body the parsed JSON body (or tool arguments), any value.
 * @returns the error to answer; one saying only that the body does not match the schema when
 *   no rule above applies.
 */
export function reportBodyError(body: unknown): AppError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return new AppError('invalid_request', 'The body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const known: readonly string[] = REPORT_FIELDS;
  const extra = Object.keys(fields).find((name) => !known.includes(name));
  if (extra !== undefined) {
    return new AppError(
      'invalid_request',
      `Unknown field "${extra.slice(0, 40)}"; the body takes only ${REPORT_FIELDS.join(', ')}`,
    );
  }
  const { url, kind, comment, contact } = fields;
  if (url === undefined || url === null) {
    return new AppError('missing_url', 'The body has no url field');
  }
  if (typeof url !== 'string') {
    return new AppError('invalid_url', 'url must be a string', { reason: 'malformed' });
  }
  if (url.length > MAX_URL_LENGTH) {
    return new AppError('invalid_url', `URL is longer than ${String(MAX_URL_LENGTH)} characters`, {
      reason: 'too_long',
    });
  }
  if (typeof kind !== 'string' || !(REPORT_KINDS as readonly string[]).includes(kind)) {
    return new AppError('invalid_request', `kind must be one of ${REPORT_KINDS.join(', ')}`, {
      reason: UNKNOWN_KIND_REASON,
    });
  }
  if (comment !== undefined && comment !== null) {
    if (typeof comment !== 'string') {
      return new AppError('invalid_request', 'comment must be a string', {
        reason: 'invalid_comment',
      });
    }
    if (codePointLength(comment) > MAX_REPORT_COMMENT) {
      return new AppError(
        'invalid_request',
        `comment is longer than ${String(MAX_REPORT_COMMENT)} characters`,
        { reason: 'comment_too_long' },
      );
    }
  }
  if (
    contact !== undefined &&
    contact !== null &&
    (typeof contact !== 'string' || codePointLength(contact) > MAX_REPORT_CONTACT)
  ) {
    return new AppError('invalid_request', 'contact must be an email address', {
      reason: 'invalid_contact',
    });
  }
  return new AppError('invalid_request', 'The request body does not match the schema');
}

/** A stored report as its receipt. */
export function reportReceipt(report: {
  id: string;
  url: string;
  kind: ReportReceipt['kind'];
  verdict: { verdict: ReportReceipt['verdict'] };
  createdAt: number;
}): ReportReceipt {
  return {
    id: report.id,
    status: 'open',
    url: report.url,
    kind: report.kind,
    verdict: report.verdict.verdict,
    created_at: new Date(report.createdAt).toISOString(),
  };
}
