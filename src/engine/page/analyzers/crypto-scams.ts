/**
 * @module engine/page/analyzers/crypto-scams
 * Crypto giveaways, doublers and fake investment platforms (detection.md §2.8 "Crypto giveaways and
 * doublers", "Fake crypto mining and investment platforms"; mapping §2.9: a doubler or giveaway is
 * `crypto_giveaway_scam` with the signals `crypto_scam` and `too_good_prices`). Wording and kit
 * names are in `crypto-scam-patterns.ts` (IOK `fake-crypto-giveaway-cbn4xt8m`,
 * `ark-investment-crypto`, the fake-crypto-mining / trading kit file lists; SeedBuster
 * `crypto_doubler`).
 *
 * Rules:
 * - **Doubler** (`crypto_doubler`): the doubling promise ("send X get 2X back") or the kit's code
 *   (`MULTIPLIER = 2`, `GIVEAWAY_AMOUNT`, `address_btc` fields), with corroboration: a deposit
 *   address shown on the page (BTC, ETH or TRON shape), a celebrity giveaway (Elon Musk, Tesla,
 *   Vitalik, Ark Invest…) or the processing copy ("waiting confirmation", "generated address").
 *   Danger with the promise, an address and one more of these (the promise and a place to send
 *   money is the whole scam), or with the kit code, a celebrity giveaway and an address (the
 *   promise may be in an image); caution with the promise and one of them. A promise quoted next
 *   to "scam" / "fraud" (a security blog or a news article) does not count.
 * - **Fake investment platform** (`crypto_investment_scam`): two IOK kit names, or one with a
 *   high-yield promise → danger; a guaranteed or per-day return of at least 0.5 % a day (over 180 %
 *   a year; no real investment pays it) in a crypto context → caution; one kit name alone → soft.
 *   A promise negated or warned about ("no one can offer guaranteed returns", "scammers promise…")
 *   does not count.
 */
import type { Brand } from '../../brand/brand-index.js';
import type { PageContext, PageView } from '../page-context.js';
import { around, excerpt, type PageFinding } from '../page-finding.js';
import { impersonatedCryptoBrand } from './crypto-brand.js';
import {
  CELEBRITY,
  CRYPTO_WORDS,
  DOUBLER_CODE,
  DOUBLER_COPY,
  DOUBLER_PROMISE,
  GIVEAWAY,
  HIGH_YIELD,
  INVESTMENT_KIT,
  SCAM_TALK,
} from './crypto-scam-patterns.js';

/** Deposit address shapes in visible text: BTC bech32 / legacy, ETH, TRON. */
const DEPOSIT_ADDRESS =
  /\b(?:bc1[02-9ac-hj-np-z]{25,60}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})\b/;
/** Characters either side of a promise searched for "scam" words. */
const QUOTE_RADIUS = 200;
/** Words just before a yield promise that deny or warn about it. */
const NEGATION =
  /\b(?:no|not|never|nobody|cannot|can't|don't|beware|avoid|promis(?:e|es|ing)|claim(?:s|ing)?|nadie|nunca|ningu[ée]m|jamais|aucun|niemals|kein)\b/;
const NEGATION_RADIUS = 40;
/** Received / sent ratio that makes two amounts a doubling (1.9: rounding, "send 1, get 1.9+"). */
const MIN_DOUBLING = 1.9;
/** Promise matches tried before giving up (each may be a quote in an article). */
const MAX_PROMISES = 10;
/** Daily rate from which a promised return is impossible (0.5 % a day is over 180 % a year). */
const MIN_DAILY_RATE = 0.5;
/**
 * Characters of the text read for promises, addresses and crypto words: these pages are short and
 * say it at the top; a long page (documentation, a forum) is not scanned to its end.
 */
const SCAN_TEXT_CHARS = 30_000;

/**
 * Crypto giveaway, doubler and investment-scam findings of a page.
 *
 * @returns `crypto_doubler` (danger / caution) and `crypto_investment_scam` (danger / caution /
 *   soft), each at most once.
 */
export function analyzeCryptoScams(page: PageView, context: PageContext): PageFinding[] {
  const findings: PageFinding[] = [];
  let brand: Brand | null | undefined;
  const named = (): Brand | null => (brand ??= impersonatedCryptoBrand(page, context));

  const doubler = doublerEvidence(page);
  if (doubler !== null) {
    const impersonated = named();
    const types = ['crypto_giveaway_scam', 'crypto_scam'] as const;
    findings.push({
      id: 'crypto_doubler',
      level: doubler.danger ? 'danger' : 'caution',
      threatTypes: impersonated ? [...types, 'brand_impersonation'] : types,
      signals: impersonated
        ? [...types, 'too_good_prices', 'brand_impersonation']
        : [...types, 'too_good_prices'],
      confidence: doubler.danger ? 0.93 : 0.7,
      weight: 0,
      group: 'social',
      evidence: excerpt(doubler.parts.join(' + ')),
      text: 'the page promises to send back double the crypto you send',
      ...(impersonated ? { brand: impersonated } : {}),
    });
  }

  const investment = investmentEvidence(page);
  if (investment !== null) {
    const impersonated = investment.level === 'soft' ? null : named();
    findings.push({
      id: 'crypto_investment_scam',
      level: investment.level,
      threatTypes: impersonated ? ['crypto_scam', 'brand_impersonation'] : ['crypto_scam'],
      signals: impersonated ? ['crypto_scam', 'brand_impersonation'] : ['crypto_scam'],
      confidence: investment.level === 'danger' ? 0.88 : investment.level === 'caution' ? 0.7 : 0.4,
      weight: investment.level === 'soft' ? 1 : 0,
      group: 'social',
      evidence: excerpt(investment.parts.join(' + ')),
      text: 'the page promises guaranteed or daily crypto returns',
      ...(impersonated ? { brand: impersonated } : {}),
    });
  }
  return findings;
}

/** Doubler evidence, or null when the page does not promise doubling. */
function doublerEvidence(page: PageView): { danger: boolean; parts: string[] } | null {
  const text = page.textLower.slice(0, SCAN_TEXT_CHARS);
  const promise = unquotedPromise(`${page.identityLower}\n${text}`);
  const code = (DOUBLER_CODE.exec(page.code) ?? fieldCode(page))?.[0] ?? null;
  if (promise === null && code === null) return null;

  const parts: string[] = [];
  if (promise !== null) parts.push(`"${promise}"`);
  if (code !== null) parts.push(code);
  const address = DEPOSIT_ADDRESS.exec(page.doc.text.slice(0, SCAN_TEXT_CHARS));
  if (address !== null) parts.push(`address ${excerpt(address[0], 24)}`);
  const celebrity =
    GIVEAWAY.test(text) || GIVEAWAY.test(page.identityLower)
      ? celebrityIn(page.identityLower, text)
      : null;
  if (celebrity !== null) parts.push(`${celebrity} giveaway`);
  const copy = DOUBLER_COPY.exec(text);
  if (copy !== null) parts.push(`"${copy[0]}"`);

  const support = [code !== null, celebrity !== null, copy !== null].filter(Boolean).length;
  if (promise !== null) {
    if (address !== null && support >= 1) return { danger: true, parts };
    if (address !== null || support >= 1) return { danger: false, parts };
    return null;
  }
  // Kit code without the wording (the promise may be in an image): the kit's constants, a
  // celebrity giveaway and a deposit address are the whole scam.
  if (address !== null && celebrity !== null) return { danger: true, parts };
  return null;
}

/**
 * The first doubling promise not quoted in a warning, as a short quote, or null. "Send 1 BTC,
 * receive 1.05 BTC" (a bonus, not a doubler) does not count: amounts must at least about double.
 */
function unquotedPromise(text: string): string | null {
  let tries = 0;
  for (const match of text.matchAll(DOUBLER_PROMISE)) {
    tries += 1;
    if (tries > MAX_PROMISES) break;
    const [, sent, received] = match;
    if (
      sent !== undefined &&
      received !== undefined &&
      amount(received) < amount(sent) * MIN_DOUBLING
    ) {
      continue;
    }
    const nearby = text.slice(
      Math.max(0, match.index - QUOTE_RADIUS),
      match.index + match[0].length + QUOTE_RADIUS,
    );
    if (!SCAM_TALK.test(nearby)) return excerpt(match[0], 60);
  }
  return null;
}

/** A written amount (`0.5`, `0,5`) as a number. */
function amount(text: string): number {
  return Number(text.replace(',', '.'));
}

/** A doubler kit's field name (`address_btc`) among the page's fields, as evidence. */
function fieldCode(page: PageView): RegExpExecArray | null {
  for (const field of page.doc.fields) {
    const match = DOUBLER_CODE.exec(`${field.name} ${field.id}`);
    if (match !== null) return match;
  }
  return null;
}

/** The celebrity or brand a giveaway borrows, from the page's identity first. */
function celebrityIn(identity: string, text: string): string | null {
  const match = CELEBRITY.exec(identity) ?? CELEBRITY.exec(text);
  return match === null ? null : match[0];
}

/** Fake investment platform evidence and its level, or null. */
function investmentEvidence(
  page: PageView,
): { level: 'danger' | 'caution' | 'soft'; parts: string[] } | null {
  const kit = new Set<string>();
  for (const source of [
    page.doc.scripts.map((script) => script.src ?? '').join('\n'),
    page.doc.links.map((link) => link.href).join('\n'),
    page.code,
  ]) {
    for (const match of source.matchAll(INVESTMENT_KIT)) kit.add(match[0]);
  }
  const text = page.textLower.slice(0, SCAN_TEXT_CHARS);
  const yieldPromise = strongYield(`${page.identityLower}\n${text}`);
  const parts = [...kit];
  if (yieldPromise !== null) parts.push(`"${yieldPromise}"`);

  if (kit.size >= 2 || (kit.size === 1 && yieldPromise !== null)) return { level: 'danger', parts };
  if (yieldPromise !== null && CRYPTO_WORDS.test(text)) return { level: 'caution', parts };
  if (kit.size === 1) return { level: 'soft', parts };
  return null;
}

/**
 * A guaranteed return, or a per-day rate of at least {@link MIN_DAILY_RATE} %, as a quote; not one
 * that is negated just before ("no one can offer…", "beware of…") or quoted next to "scam".
 */
function strongYield(text: string): string | null {
  let tries = 0;
  for (const match of text.matchAll(HIGH_YIELD)) {
    tries += 1;
    if (tries > MAX_PROMISES) break;
    const rate = match[1] ?? match[2];
    if (rate !== undefined && amount(rate) < MIN_DAILY_RATE) continue;
    const before = text.slice(Math.max(0, match.index - NEGATION_RADIUS), match.index);
    const nearby = text.slice(
      Math.max(0, match.index - QUOTE_RADIUS),
      match.index + match[0].length + QUOTE_RADIUS,
    );
    if (NEGATION.test(before) || SCAM_TALK.test(nearby)) continue;
    return around(text, match.index, match[0].length, 0);
  }
  return null;
}
