/**
 * @module engine/page/llm-verdict
 * The answer of the optional LLM judge of layer 3 (detection.md §3.3 "Output"): one TypeBox
 * schema is both the JSON Schema sent as the OpenAI-compatible `response_format` (Structured
 * Outputs, strict mode) and the validator of what comes back, so the wire schema and the check
 * cannot drift apart.
 *
 * Strict-mode constraints the schema keeps (OpenAI "Structured Outputs" guide, supported
 * schemas): every property is listed in `required`, every object has `additionalProperties:
 * false`, a nullable value is a type array (`["string", "null"]`), the root is an object. Only
 * keywords that strict mode accepts are used (`enum`, `minimum`/`maximum` on numbers,
 * `description`); string lengths are not constrained on the wire (unsupported there) and are cut
 * by the consumer instead. A server that ignores the schema is still checked here.
 *
 * A model's answer is a proposal, never a verdict: `llmFindings()` decides what it may add.
 */
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

import { THREAT_TYPES, type ThreatType } from '../verdict.js';

/** What a page may ask the visitor for (detection.md §3.3 `asks_for`). */
const LLM_ASKS = [
  'credentials',
  'seed_phrase',
  'private_key',
  'card',
  'otp',
  'wallet_signature',
  'phone_call',
  'download',
  'command_paste',
] as const;

export type LlmAsk = (typeof LLM_ASKS)[number];

/**
 * Threat types a page's content can show. Domain age, TLD and hosting types come from layers
 * 1–2, never from a model reading the page, so the schema does not offer them.
 */
const INFRASTRUCTURE_TYPES: readonly string[] = [
  'disposable_tld',
  'fresh_domain',
  'free_hosting_subdomain',
];
type ContentThreatType = Exclude<
  ThreatType,
  'disposable_tld' | 'fresh_domain' | 'free_hosting_subdomain'
>;
const CONTENT_THREAT_TYPES = THREAT_TYPES.filter(
  (type): type is ContentThreatType => !INFRASTRUCTURE_TYPES.includes(type),
);

const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const LlmVerdictSchema = Type.Object(
  {
    impersonated_brand: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description:
        'Name of the brand, company or authority the page pretends to be or to act for, ' +
        'or null when it does not pretend to be anyone else.',
    }),
    brand_confidence: Unit('Certainty about impersonated_brand, 0 to 1 (0 when it is null).'),
    page_purpose: Type.String({
      description: 'What the page is for, in at most 15 words.',
    }),
    asks_for: Type.Array(Type.Enum(LLM_ASKS, { type: 'string' }), {
      description: 'What the page asks the visitor to enter, do or send; empty when nothing.',
    }),
    threat_types: Type.Array(Type.Enum(CONTENT_THREAT_TYPES, { type: 'string' }), {
      description: 'Threat types the page shows; empty for a harmless page.',
    }),
    urgency: Type.Boolean({ description: 'The page pressures with deadlines, locks or threats.' }),
    too_good_offer: Type.Boolean({
      description: 'The page promises implausible gains, prizes, refunds or prices.',
    }),
    evidence: Type.Array(Type.String(), {
      description: 'Up to 5 short quotes (under 100 characters each) from the page data.',
    }),
    verdict: Type.Enum(['safe', 'caution', 'danger'], { type: 'string' }),
    confidence: Unit('Certainty about verdict, 0 to 1.'),
  },
  { additionalProperties: false },
);

/**
 * A model's judgement of one page, exactly the detection.md §3.3 output:
 * `{impersonated_brand: string|null, brand_confidence: 0–1, page_purpose, asks_for: LlmAsk[],
 * threat_types: ThreatType[] (content types only), urgency, too_good_offer, evidence: string[],
 * verdict: 'safe'|'caution'|'danger', confidence: 0–1}`. Strings are model output derived from
 * an untrusted page: show them, never log them.
 */
export type LlmVerdict = Static<typeof LlmVerdictSchema>;

/**
 * The `response_format` of an OpenAI-compatible chat-completions request asking for an
 * {@link LlmVerdict} (Structured Outputs: `type: "json_schema"`, `strict: true`).
 */
export const LLM_VERDICT_RESPONSE_FORMAT = Object.freeze({
  type: 'json_schema',
  json_schema: { name: 'linkguard_page_verdict', strict: true, schema: LlmVerdictSchema },
});

const LlmVerdictValidator = Compile(LlmVerdictSchema);

/** The outcome of {@link parseLlmVerdict}. */
export type ParseLlmVerdictResult =
  | { ok: true; verdict: LlmVerdict }
  | {
      ok: false;
      /** `not_json`: the text does not parse; `schema`: it parses but breaks the schema. */
      reason: 'not_json' | 'schema';
      /** Names the failed keyword and path only; never quotes the answer (it may echo the page). */
      message: string;
    };

/**
 * Check a model's answer (the `content` string of the assistant message) against the schema.
 * Total: never throws.
 */
export function parseLlmVerdict(content: string): ParseLlmVerdictResult {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { ok: false, reason: 'not_json', message: 'the answer is not JSON' };
  }
  if (LlmVerdictValidator.Check(value)) return { ok: true, verdict: value };
  const first = [...LlmVerdictValidator.Errors(value)][0];
  // The path is built from the answer's own keys: keep it to the characters of our field names.
  const path = (first?.instancePath ?? '').replace(/[^a-z0-9_/]/g, '?').slice(0, 60);
  return {
    ok: false,
    reason: 'schema',
    message: `the answer breaks the schema (${first?.keyword ?? 'unknown'} at "${path}")`,
  };
}
