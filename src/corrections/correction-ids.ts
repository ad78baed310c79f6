/**
 * @module corrections/correction-ids
 * Public identifiers of reports (`rpt_` + 16 base62 characters, ~95 bits: a reporter is told the
 * id, so it must not be guessable from another report's) and overrides (`ovr_` + 12, as key ids).
 */
import { randomBytes } from 'node:crypto';

import { type RandomBytes, randomIdBody } from '../access/api-key.js';

/** Prefix of report ids. */
export const REPORT_ID_PREFIX = 'rpt_';
/** Prefix of override ids. */
export const OVERRIDE_ID_PREFIX = 'ovr_';

const REPORT_ID = /^rpt_[0-9A-Za-z]{16}$/;
const OVERRIDE_ID = /^ovr_[0-9A-Za-z]{12}$/;

/**
 * A new report id: `rpt_` + two 12-character base62 draws cut to 16 characters (each draw is
 * 16 CSPRNG bytes reduced as `randomIdBody()` describes).
 *
 * @param random byte source, `crypto.randomBytes` unless a test passes a fixed one.
 */
export function newReportId(random: RandomBytes = randomBytes): string {
  return REPORT_ID_PREFIX + (randomIdBody(random) + randomIdBody(random)).slice(0, 16);
}

/** A new override id: `ovr_` + 12 base62 characters from 16 CSPRNG bytes. */
export function newOverrideId(random: RandomBytes = randomBytes): string {
  return OVERRIDE_ID_PREFIX + randomIdBody(random);
}

/** True when `text` has the form of a report id (checked before any store look-up). */
export function isReportId(text: string): boolean {
  return REPORT_ID.test(text);
}

/** True when `text` has the form of an override id. */
export function isOverrideId(text: string): boolean {
  return OVERRIDE_ID.test(text);
}
