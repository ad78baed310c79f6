/**
 * @module api/verdict-schema
 * The detection result (README, "API") as a TypeBox schema: the single source
 * for response serialization, the OpenAPI document and (later) MCP tool output schemas. A
 * compile-time check below keeps it identical to the engine's `Verdict` type.
 */
import Type, { type Static, type TBoolean, type TNull, type TUnion } from 'typebox';

import { SIGNAL_NAMES, type SignalName, THREAT_TYPES, type Verdict } from '../engine/verdict.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const VerdictValueSchema = Type.Union(
  [Type.Literal('safe'), Type.Literal('caution'), Type.Literal('danger')],
  { description: 'safe: proceed; caution: ask a human; danger: block.' },
);

export const ThreatTypeSchema = Type.Enum(THREAT_TYPES, { description: 'threat category' });

export const SignalsSchema = Type.Object(
  Object.fromEntries(
    SIGNAL_NAMES.map((name) => [
      name,
      name === 'fresh_domain'
        ? Nullable(Type.Boolean({ description: 'null when the domain age is unknown' }))
        : Type.Boolean(),
    ]),
  ) as Record<Exclude<SignalName, 'fresh_domain'>, TBoolean> & {
    fresh_domain: TUnion<[TBoolean, TNull]>;
  },
  {
    additionalProperties: false,
    description: 'All 23 signals, always present. Booleans except fresh_domain (null = unknown).',
  },
);

export const DetailsSchema = Type.Object(
  {
    matched_brand: Nullable(Type.String()),
    official_domain: Nullable(Type.String()),
    domain_matches_brand: Type.Boolean(),
    target_country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
    page_language: Nullable(Type.String()),
    tld: Nullable(Type.String()),
    domain_age_days: Nullable(Type.Integer({ minimum: 0 })),
    matched_patterns: Type.Array(Type.String(), {
      description: 'Evidence codes of the rules that fired.',
    }),
  },
  {
    additionalProperties: false,
    description: 'Every field always present; unknown strings are null.',
  },
);

export const VerdictSchema = Type.Object(
  {
    verdict: VerdictValueSchema,
    trust_score: Type.Integer({ minimum: 0, maximum: 100, description: '100 = safe, 0 = scam' }),
    brand: Nullable(Type.String({ description: 'Impersonated brand, if detected' })),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Certainty of the verdict itself',
    }),
    reason: Type.String(),
    threat_types: Type.Array(ThreatTypeSchema),
    signals: SignalsSchema,
    details: DetailsSchema,
  },
  { additionalProperties: false, $id: 'DetectionResult' },
);

// Compile-time guard: the schema and the engine type must describe the same object.
type SchemaVerdict = Static<typeof VerdictSchema>;
export const verdictMatchesSchema = (v: Verdict): SchemaVerdict => v;
