/**
 * @module mcp/mcp-schemas
 * Input and output schemas of the connector's tools (README, "MCP connector"), as
 * TypeBox schemas: JSON Schema for `tools/list` and the argument check of `tools/call`. The
 * check_url result extends the detection result of `POST /v1/detect` (one schema source,
 * api/verdict-schema.ts) with `agent_action` and the `domain_age` label. Every output schema
 * also admits the {@link ToolErrorSchema} of an `isError` result, since MCP clients (the SDK's
 * among them) check `structuredContent` against the output schema whether or not it is an error.
 */
import Type, { type Static, type TSchema } from 'typebox';

import { ReportReceiptSchema } from '../api/report-schemas.js';
import {
  DetailsSchema,
  SignalsSchema,
  ThreatTypeSchema,
  VerdictValueSchema,
} from '../api/verdict-schema.js';
import { MAX_URL_LENGTH } from '../engine/url/normalize-url.js';
import { MAX_REPORT_COMMENT, MAX_REPORT_CONTACT } from '../service/report-service.js';
import { REPORT_KINDS } from '../store/ports/correction-store.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** Longest accepted input string (the URL parser refuses longer URLs itself). */
const MAX_INPUT = 4096;
/** Up to 10 URLs per batch (README, "MCP connector"). */
export const MAX_BATCH_URLS = 10;

export const AgentActionSchema = Type.Union(
  [Type.Literal('proceed'), Type.Literal('ask_human'), Type.Literal('block')],
  { description: 'What an agent must do: safe → proceed, caution → ask_human, danger → block.' },
);

export const CheckUrlInputSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_INPUT,
      description: 'The URL or bare domain to check, e.g. https://example.com/login or example.com',
    }),
  },
  { additionalProperties: false },
);

export const CheckUrlsBatchInputSchema = Type.Object(
  {
    urls: Type.Array(Type.String({ minLength: 1, maxLength: MAX_INPUT }), {
      minItems: 1,
      maxItems: MAX_BATCH_URLS,
      description: `1–${String(MAX_BATCH_URLS)} URLs or bare domains; each counts as one check.`,
    }),
  },
  { additionalProperties: false },
);

export const OfficialDomainInputSchema = Type.Object(
  {
    brand: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A brand name, e.g. "PayPal", "MetaMask", "Deutsche Post".',
    }),
  },
  { additionalProperties: false },
);

export const DomainHistoryInputSchema = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: 253,
      description: 'A domain or URL; its registrable domain (or hosting tenant) is looked up.',
    }),
  },
  { additionalProperties: false },
);

const McpDetailsSchema = Type.Object(
  {
    ...DetailsSchema.properties,
    domain_age: Type.String({
      description: '"<n> days", "fresh (<n> days)" under 30 days, or "unknown".',
    }),
  },
  { additionalProperties: false },
);

const CheckFields = {
  url: Type.String({ description: 'The normalized URL that was checked.' }),
  verdict: VerdictValueSchema,
  agent_action: AgentActionSchema,
  trust_score: Type.Integer({ minimum: 0, maximum: 100 }),
  brand: Nullable(Type.String()),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  reason: Type.String(),
  threat_types: Type.Array(ThreatTypeSchema),
  signals: SignalsSchema,
  details: McpDetailsSchema,
};

export const CheckUrlResultSchema = Type.Object(CheckFields, { additionalProperties: false });
export type CheckUrlResult = Static<typeof CheckUrlResultSchema>;

/**
 * The `structuredContent` of every `isError` tool result: the error in the shape of the API's
 * (README error table: `code`, and `reason` / `retry_after` where they apply) and the
 * `agent_action` an agent must follow, always `ask_human`.
 */
export const ToolErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Error code of the README error table.' }),
        message: Type.String(),
        reason: Type.Optional(Type.String({ description: 'Finer cause, where one exists.' })),
        retry_after: Type.Optional(
          Type.Integer({ minimum: 0, description: 'Seconds until a retry can succeed.' }),
        ),
      },
      { additionalProperties: false },
    ),
    agent_action: Type.Literal('ask_human'),
  },
  { additionalProperties: false },
);
export type ToolError = Static<typeof ToolErrorSchema>;

/**
 * A tool's output schema: its success shape or {@link ToolErrorSchema}. MCP requires an object
 * schema at the root (`type: "object"`), so the union carries it there too.
 */
export function orToolError<T extends TSchema>(success: T) {
  return Type.Union([success, ToolErrorSchema], { type: 'object' });
}

const BatchErrorSchema = Type.Object(
  {
    url: Type.String({ description: 'The input as given.' }),
    error: ToolErrorSchema.properties.error,
    agent_action: Type.Literal('ask_human'),
  },
  { additionalProperties: false },
);

export const CheckUrlsBatchResultSchema = Type.Object(
  {
    results: Type.Array(Type.Union([CheckUrlResultSchema, BatchErrorSchema]), {
      description: 'One entry per input URL, in input order.',
    }),
  },
  { additionalProperties: false },
);
export type CheckUrlsBatchResult = Static<typeof CheckUrlsBatchResultSchema>;

export const OfficialDomainResultSchema = Type.Object(
  {
    query: Type.String(),
    found: Type.Boolean(),
    brand: Nullable(Type.String()),
    official_domains: Type.Array(Type.String(), {
      description: 'Registrable domains the brand operates; the first is the primary one.',
    }),
    category: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 home country.' })),
    close_matches: Type.Array(
      Type.Object(
        { brand: Type.String(), official_domain: Type.String() },
        { additionalProperties: false },
      ),
      { description: 'When not found: catalog brands whose names are close to the query.' },
    ),
  },
  { additionalProperties: false },
);
export type OfficialDomainResult = Static<typeof OfficialDomainResultSchema>;

export const DomainHistoryResultSchema = Type.Object(
  {
    domain: Type.String({ description: 'The registrable domain (or hosting tenant) looked up.' }),
    records: Type.Integer({ minimum: 0, description: 'Non-safe verdicts recorded.' }),
    first_seen: Nullable(Type.String({ description: 'ISO 8601' })),
    last_seen: Nullable(Type.String({ description: 'ISO 8601' })),
    worst_verdict: Nullable(Type.Union([Type.Literal('caution'), Type.Literal('danger')])),
    threat_types: Type.Array(Type.String()),
    sources: Type.Array(Type.String({ description: 'Threat feeds that listed it.' })),
    note: Type.String(),
  },
  { additionalProperties: false },
);
export type DomainHistoryResult = Static<typeof DomainHistoryResultSchema>;

/**
 * `report_url`'s arguments: the fields of `POST /v1/reports` (api/report-schemas.ts), with the
 * same limits, described for an agent.
 */
export const ReportUrlInputSchema = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_URL_LENGTH,
      description: 'The URL or bare domain whose verdict your human disputes, as you checked it.',
    }),
    kind: Type.Enum(REPORT_KINDS, {
      description:
        'false_positive: the verdict warned (caution/danger) but the site is legitimate; ' +
        'false_negative: the verdict said safe (or too little) but the site is a threat.',
    }),
    comment: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_REPORT_COMMENT }), Type.Null()], {
        description:
          `Why your human thinks the verdict is wrong, in their words; at most ${String(MAX_REPORT_COMMENT)} ` +
          'characters. Stored with the report for the operator.',
      }),
    ),
    contact: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_REPORT_CONTACT }), Type.Null()], {
        description:
          "Your human's email address, only if they asked to be contacted about this report. " +
          'Stored with the report.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReportUrlResultSchema = Type.Object(
  {
    ...ReportReceiptSchema.properties,
    note: Type.String({ description: 'What happens next, for your human.' }),
  },
  { additionalProperties: false },
);
export type ReportUrlResult = Static<typeof ReportUrlResultSchema>;
