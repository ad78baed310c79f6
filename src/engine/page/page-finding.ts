/**
 * @module engine/page/page-finding
 * What a layer-3 analyzer reports: a named finding with its evidence, the threat types and
 * signals it stands for, and how strong it is. Scoring (`engine/scoring/page-rules.ts`) turns
 * findings into the verdict: any `danger` finding is a hard rule (DESIGN §5 "page evidence such as
 * a seed-phrase form or a ClickFix clipboard payload"), `caution` findings give at least caution,
 * and `soft` findings add log-odds within their group (detection.md §4.2 step 3, §4.3).
 */
import type { Brand } from '../brand/brand-index.js';
import type { SignalName, ThreatType } from '../verdict.js';

/** Groups of correlated soft evidence: within a group only the strongest counts (§4.2). */
export type SoftGroup = 'content' | 'brand' | 'social' | 'cloak';

/** One finding of one analyzer. */
export interface PageFinding {
  /** snake_case rule id; `matched_patterns` shows `page:<id>` and `page:<id>=<evidence>`. */
  id: string;
  level: 'danger' | 'caution' | 'soft';
  /** Threat types this finding stands for (spec §2.3). */
  threatTypes: readonly ThreatType[];
  /** Boolean signals it sets (spec §2.4); `fresh_domain` and `known_threat` are not page signals. */
  signals: readonly Exclude<SignalName, 'fresh_domain' | 'known_threat'>[];
  /** Precision estimate when the finding decides the verdict alone (0–1); danger ≥ 0.85. */
  confidence: number;
  /** Log-odds added by a `soft` finding (0 for the others), per detection.md §4.3. */
  weight: number;
  group: SoftGroup;
  /**
   * Short evidence from the page, ≤ {@link MAX_EVIDENCE_CHARS} characters: a quote
   * (`"press Win+R, then Ctrl+V"`), a count (`12 inputs named word1…word12`) or a code string
   * (`powershell -w h -nop …`). Shown to the caller; never logged.
   */
  evidence: string;
  /** Sentence fragment for the reason, lower-case start: "the page asks for a recovery phrase". */
  text: string;
  /** The brand the finding is about (impersonated), if any. */
  brand?: Brand;
}

/** Longest evidence string kept in a finding. */
export const MAX_EVIDENCE_CHARS = 120;

/**
 * Shorten page-derived text for evidence: whitespace collapsed, control characters removed,
 * cut at {@link MAX_EVIDENCE_CHARS} with an ellipsis.
 */
export function excerpt(text: string, max = MAX_EVIDENCE_CHARS): string {
  const clean = text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/**
 * The text around a match, for evidence: up to `radius` characters either side of
 * `[index, index + length)`, passed through {@link excerpt}.
 */
export function around(text: string, index: number, length: number, radius = 40): string {
  const start = Math.max(0, index - radius);
  const end = Math.min(text.length, index + length + radius);
  return excerpt(text.slice(start, end));
}
