/**
 * @module engine/page/analyzers/social
 * Social engineering around the lure (detection.md §2.8, §2.7 `no_contact_info`, §2.0 cloaking,
 * §6.6 obfuscation and visitor checks). Most findings are **soft** with the starting weights of
 * §4.3, in the groups of §4.2 so correlated ones are not double-counted:
 * - `fake_urgency` (social +0.7): countdown code (a timer updated every second with `countdown` /
 *   `timer` names or seconds split by `% 60`, SeedBuster) or urgency phrases in the languages of
 *   §2.8 ("within 24 hours", "innerhalb von 24 Stunden", "24時間以内", "account will be
 *   suspended", "letzte Mahnung", "only 3 left");
 * - `too_good_prices` (social +1.0): most displayed discounts at ≥ 70 % or struck/current price
 *   pairs at ≥ 3× (§2.8). "Most" (≥ 75 % of the discounts seen, at least two) separates a fake
 *   shop, where everything is −90 %, from a real sale that mixes −30 % and −90 %; also doubler and
 *   guaranteed-return promises (§2.9 maps a doubler to `too_good_prices`);
 * - `crypto_only_payment` / `gift_card_payment` / `crypto_address_payment` /
 *   `changed_bank_details` (content +1.5 / +1.5 / +1.0 / +1.0, `suspicious_payment`; crypto-only
 *   payment also `crypto_scam`): payment only in cryptocurrency, in gift cards or vouchers
 *   (Paysafecard, Neosurf), to a crypto address shown on the page, or to "our new bank details";
 * - `no_contact_info` (social +0.3): no working imprint, contact, privacy, terms or about link
 *   (dead `#` links do not count), no e-mail address and no phone number (§2.7: weak, only with
 *   other evidence);
 * - `visitor_checks` (cloak +1.0): IP geolocation, datacenter/VPN, crawler user-agent and
 *   mobile-only checks, the testcookie AES challenge (§2.0, IOK);
 * - `security_gate` (cloak +1.0): "verify you are human" text on a page that loads no CAPTCHA
 *   service (a fake check in front of a kit's sign-in step);
 * - `noscript_bounce` (cloak +1.5): a `<noscript>` refresh sending visitors without JavaScript —
 *   scanners — to another site; the fetcher does not follow it and reads the page as served;
 * - `obfuscated_loader` (cloak +0.8): `document.write(atob(…))`, obfuscator.io `_0x` names,
 *   debugger traps (§6.6).
 *
 * `fake_shop` combines them (the fake-shop detectors of §2.8 judge shops on many weak features
 * together): on a site that is neither a brand's own nor popular, too-good prices with two more
 * of urgency, missing contact data, crypto/gift-card payment and a retail or tech brand the site
 * does not own are **caution**; with three more, one of them the brand or crypto-only payment,
 * **danger** (a counterfeit or prepaid-crypto shop: four independent red flags at once).
 */
import { resolveReference } from '../../url/resolve-reference.js';
import type { PageContext, PageView } from '../page-context.js';
import { around, excerpt, type PageFinding } from '../page-finding.js';
import { type BrandClaim, brandClaims, describeClaim } from './brand-claims.js';
import { FAKE_VERIFICATION } from './clickfix-patterns.js';
import { pageDocuments } from './decoded-documents.js';
import { MONEY, parseAmount } from './money.js';
import {
  CHANGED_BANK_DETAILS,
  CONTACT_LINK,
  COUNTDOWN_NAME,
  CRYPTO_ADDRESS,
  CRYPTO_DEMAND,
  CRYPTO_ONLY,
  CRYPTO_WORD,
  DISCOUNT,
  EMAIL,
  GIFT_CARD_PAYMENT,
  IBAN,
  OBFUSCATION,
  PHONE,
  REFUSES_CARDS,
  SECONDS_DIVIDE,
  SECONDS_MODULO,
  TIMER_CALL,
  TOO_GOOD_RETURNS,
  URGENCY,
  VISITOR_CHECKS,
} from './social-patterns.js';

/** Text scanned (characters): offers, timers and payment terms sit near the top. */
const SCAN_CHARS = 64 * 1024;
/** Code scanned (characters). */
const CODE_SCAN_CHARS = 1024 * 1024;
/** Discount figures and prices looked at. */
const MAX_PRICES = 200;
/** Text between a struck and a current price: spaces, a badge (`-90%`), punctuation. */
const PRICE_GAP = /^[\s%\-−–/|:0-9]{0,16}$/u;
/** A price anywhere (a non-global copy: `test` on the global one would keep its position). */
const HAS_MONEY = new RegExp(MONEY.source, 'u');
/** Brand categories whose goods fake shops sell. */
const SHOP_CATEGORIES = new Set(['retail', 'tech', 'gaming']);
/** Pages with less text than this (characters) are too small to judge contact data. */
const MIN_CONTACT_TEXT = 200;

type PageSignal = PageFinding['signals'][number];

/** Social-engineering findings for one page (see the module docstring). */
export function analyzeSocialEngineering(page: PageView, context: PageContext): PageFinding[] {
  const text = page.textLower.slice(0, SCAN_CHARS);
  const original = page.doc.text.slice(0, SCAN_CHARS);
  const code = page.code.slice(0, CODE_SCAN_CHARS);
  const findings: PageFinding[] = [];

  const urgency = fakeUrgency(text, code);
  const prices = tooGoodPrices(text);
  const returns = prices === null ? tooGoodReturns(text) : null;
  const payment = suspiciousPayment(text, original);
  const contact = noContactInfo(page, text);
  for (const finding of [urgency, prices ?? returns, payment, contact]) {
    if (finding !== null) findings.push(finding);
  }
  const check = firstNamed(VISITOR_CHECKS, code);
  if (check !== null) {
    findings.push(
      soft(
        'visitor_checks',
        'cloak',
        1.0,
        [],
        check,
        'the page checks who is visiting before it shows its content',
      ),
    );
  }
  const gate = securityGate(page, context);
  if (gate !== null) {
    findings.push(
      soft(
        'security_gate',
        'cloak',
        1.0,
        [],
        gate,
        'the page shows a human check that no CAPTCHA service serves',
      ),
    );
  }
  const bounce = noscriptBounce(page, context);
  if (bounce !== null) {
    findings.push(
      soft(
        'noscript_bounce',
        'cloak',
        1.5,
        [],
        bounce,
        'the page sends visitors without JavaScript (scanners) to another site',
      ),
    );
  }
  const obfuscation = firstNamed(OBFUSCATION, code);
  if (obfuscation !== null) {
    findings.push(
      soft(
        'obfuscated_loader',
        'cloak',
        0.8,
        [],
        obfuscation,
        'the page hides its content in obfuscated script',
      ),
    );
  }

  if (prices !== null && !context.reputable) {
    const shop = fakeShop(page, context, prices, urgency, contact, payment);
    if (shop !== null) findings.push(shop);
  }
  return findings;
}

/** Longest visible text of a page that is only a human check (characters). */
const GATE_MAX_TEXT = 1500;

/** Hosts of the CAPTCHA services a real human check loads (reCAPTCHA, hCaptcha, Turnstile). */
const CAPTCHA_SERVICE =
  /(?:google\.com\/recaptcha|recaptcha\.net|gstatic\.com\/recaptcha|hcaptcha\.com|challenges\.cloudflare\.com|arkoselabs\.com|funcaptcha\.com)/i;

/**
 * A fake "security check" gate: "verify you are human" or "checking your browser" on a page that
 * loads no CAPTCHA service — kits put one before the sign-in step to keep scanners out. Soft:
 * the text is evidence only next to other signals.
 */
function securityGate(page: PageView, context: PageContext): string | null {
  if (context.reputable) return null;
  // A gate is a short page that is only the check; an article quoting the lure is long.
  if (page.doc.visibleText.length > GATE_MAX_TEXT) return null;
  // The check is what the page is: its title, a heading or a button says it, or a tick box
  // stands next to it — not a sentence of an article quoting the lure.
  const prominent = `${page.identityLower} ${page.doc.buttons.join(' ').toLowerCase()}`;
  const checkbox = page.doc.fields.some((f) => f.type === 'checkbox');
  const match = FAKE_VERIFICATION.exec(
    checkbox ? page.textLower.slice(0, GATE_MAX_TEXT) : prominent,
  );
  if (match === null) return null;
  const doc = page.doc;
  const sources = [
    ...doc.scripts.map((s) => s.src ?? ''),
    ...doc.iframes,
    page.code.slice(0, 65536),
  ];
  if (sources.some((source) => CAPTCHA_SERVICE.test(source))) return null;
  return `"${match[0]}" without a CAPTCHA service`;
}

/**
 * A `<noscript>` refresh to another site: browsers run the page, scanners without JavaScript are
 * sent away (often to a search engine), so the page hides from exactly those who would judge it.
 */
function noscriptBounce(page: PageView, context: PageContext): string | null {
  const content = page.doc.noscriptRefresh;
  if (content === null) return null;
  const target = /url\s*=\s*['"]?([^'"\s]+)/i.exec(content)?.[1];
  if (target === undefined) return null;
  const resolved = resolveReference(target, context.analysis.url.href);
  if (resolved === null || resolved.registrableDomain === context.analysis.url.registrableDomain) {
    return null;
  }
  return `<noscript> refresh to ${resolved.hostname}`;
}

function soft(
  id: string,
  group: PageFinding['group'],
  weight: number,
  signals: PageSignal[],
  evidence: string,
  text: string,
  threatTypes: PageFinding['threatTypes'] = [],
): PageFinding {
  return {
    id,
    level: 'soft',
    threatTypes,
    signals,
    confidence: 0.5,
    weight,
    group,
    evidence: excerpt(evidence),
    text,
  };
}

function fakeUrgency(text: string, code: string): PageFinding | null {
  const phrase = URGENCY.exec(text);
  let evidence: string | null = null;
  if (phrase !== null) evidence = `"${around(text, phrase.index, phrase[0].length, 30)}"`;
  else if (
    TIMER_CALL.test(code) &&
    (COUNTDOWN_NAME.test(code) || (SECONDS_MODULO.test(code) && SECONDS_DIVIDE.test(code)))
  ) {
    evidence = 'countdown timer in script';
  }
  if (evidence === null) return null;
  return soft(
    'fake_urgency',
    'social',
    0.7,
    ['fake_urgency'],
    evidence,
    'the page pressures the visitor with a deadline',
  );
}

function tooGoodPrices(text: string): PageFinding | null {
  // Discounts seen (fractions 0–1): displayed percentages and struck/current price pairs.
  const seen: number[] = [];
  let example = '';
  for (const match of text.matchAll(DISCOUNT)) {
    const percent = Number(match[1] ?? match[2]);
    seen.push(percent / 100);
    if (percent >= 70 && example === '') example = match[0].trim();
    if (seen.length >= MAX_PRICES) break;
  }
  let previous: { end: number; currency: string; value: number; raw: string } | null = null;
  let prices = 0;
  for (const match of text.matchAll(MONEY)) {
    prices += 1;
    if (prices > MAX_PRICES) break;
    const currency = (match[1] ?? match[4] ?? '').trim();
    const value = parseAmount(match[2] ?? match[3] ?? '');
    if (
      previous !== null &&
      value !== null &&
      previous.currency === currency &&
      previous.value > value &&
      value > 0 &&
      PRICE_GAP.test(text.slice(previous.end, match.index))
    ) {
      const ratio = previous.value / value;
      // A 3× struck/current ratio is the §2.8 threshold (a 67 % discount).
      seen.push(ratio >= 3 ? Math.max(0.7, 1 - 1 / ratio) : 1 - 1 / ratio);
      if (ratio >= 3 && example === '') example = `${previous.raw} → ${match[0].trim()}`;
      previous = null;
    } else {
      previous =
        value === null
          ? null
          : { end: match.index + match[0].length, currency, value, raw: match[0].trim() };
    }
  }
  const extreme = seen.filter((d) => d >= 0.7).length;
  if (extreme < 2 || extreme / seen.length < 0.75) return null;
  return soft(
    'too_good_prices',
    'social',
    1.0,
    ['too_good_prices'],
    `${extreme} of ${seen.length} discounts ≥ 70 %, e.g. ${example}`,
    'the page offers prices too good to be true',
  );
}

/** Doublers and guaranteed returns (§2.9: a doubler is `too_good_prices` too). */
function tooGoodReturns(text: string): PageFinding | null {
  const returns = TOO_GOOD_RETURNS.exec(text);
  if (returns === null) return null;
  return soft(
    'too_good_prices',
    'social',
    1.0,
    ['too_good_prices'],
    `"${around(text, returns.index, returns[0].length, 20)}"`,
    'the page promises returns too good to be true',
  );
}

function suspiciousPayment(text: string, original: string): PageFinding | null {
  const only = CRYPTO_ONLY.exec(text) ?? (CRYPTO_WORD.test(text) ? REFUSES_CARDS.exec(text) : null);
  if (only !== null) {
    return soft(
      'crypto_only_payment',
      'content',
      1.5,
      ['suspicious_payment', 'crypto_scam'],
      `"${around(text, only.index, only[0].length, 20)}"`,
      'the page accepts payment only in cryptocurrency',
      ['crypto_scam'],
    );
  }
  const gift = GIFT_CARD_PAYMENT.exec(text);
  if (gift !== null) {
    return soft(
      'gift_card_payment',
      'content',
      1.5,
      ['suspicious_payment'],
      `"${around(text, gift.index, gift[0].length, 20)}"`,
      'the page demands payment in gift cards or prepaid vouchers',
    );
  }
  const demand = CRYPTO_DEMAND.exec(text);
  const address = demand === null ? null : CRYPTO_ADDRESS.exec(original);
  if (demand !== null && address !== null) {
    return soft(
      'crypto_address_payment',
      'content',
      1.0,
      ['suspicious_payment'],
      `"${around(text, demand.index, demand[0].length, 10)}" ${excerpt(address[0], 24)}`,
      'the page asks for cryptocurrency sent to an address it shows',
    );
  }
  const bank = CHANGED_BANK_DETAILS.exec(text);
  if (bank !== null) {
    const iban = IBAN.exec(original)?.[0];
    return soft(
      'changed_bank_details',
      'content',
      1.0,
      ['suspicious_payment'],
      `"${around(text, bank.index, bank[0].length, 20)}"${iban === undefined ? '' : ` ${iban}`}`,
      'the page says the payee’s bank details have changed',
    );
  }
  return null;
}

function noContactInfo(page: PageView, text: string): PageFinding | null {
  const doc = page.doc;
  // Only a page that asks for data or money owes the visitor its operator's identity (§2.7:
  // weak alone); documentation and landing pages without either are left alone.
  const asks =
    doc.fields.some((f) => f.type !== 'hidden' && f.type !== 'search' && f.type !== 'submit') ||
    HAS_MONEY.test(text);
  if (!asks || doc.text.length < MIN_CONTACT_TEXT) return null;
  let dead = 0;
  for (const link of doc.links) {
    const href = link.href.trim();
    if (/^(?:mailto|tel):/i.test(href)) return null;
    if (href === '' || href.startsWith('#') || /^javascript:/i.test(href)) {
      dead += 1;
      continue;
    }
    if (CONTACT_LINK.test(`${link.text} ${href}`)) return null;
  }
  if (EMAIL.test(text) || PHONE.test(text)) return null;
  const evidence =
    doc.links.length === 0
      ? 'no links, e-mail or phone'
      : `${doc.links.length} links (${dead} dead), no contact, imprint or privacy page`;
  return soft(
    'no_contact_info',
    'social',
    0.3,
    ['no_contact_info'],
    evidence,
    'the page gives no way to contact or identify its operator',
  );
}

function firstNamed(
  list: readonly { name: string; pattern: RegExp }[],
  code: string,
): string | null {
  for (const { name, pattern } of list) {
    const match = pattern.exec(code);
    if (match !== null) return `${name}: ${around(code, match.index, match[0].length, 20)}`;
  }
  return null;
}

function fakeShop(
  page: PageView,
  context: PageContext,
  prices: PageFinding,
  urgency: PageFinding | null,
  contact: PageFinding | null,
  payment: PageFinding | null,
): PageFinding | null {
  const claim: BrandClaim | undefined = brandClaims(pageDocuments(page), context).find((c) =>
    SHOP_CATEGORIES.has(c.brand.category),
  );
  const cryptoOnly = payment?.id === 'crypto_only_payment';
  const flags = [urgency, contact, payment].filter((f) => f !== null);
  const count = flags.length + (claim === undefined ? 0 : 1);
  if (count < 2) return null;
  const danger = count >= 3 && (claim !== undefined || cryptoOnly);
  const signals = new Set<PageSignal>([
    ...prices.signals,
    ...flags.flatMap((f) => f.signals),
    ...(claim === undefined ? [] : (['brand_impersonation', 'domain_mismatch'] as const)),
  ]);
  const threatTypes: PageFinding['threatTypes'] = [
    ...(claim === undefined ? [] : (['brand_impersonation'] as const)),
    ...(cryptoOnly ? (['crypto_scam'] as const) : []),
  ];
  const parts = [
    'too-good prices',
    ...flags.map((f) => f.id.replace(/_/g, ' ')),
    ...(claim === undefined ? [] : [describeClaim(claim)]),
  ];
  return {
    id: 'fake_shop',
    level: danger && threatTypes.length > 0 ? 'danger' : 'caution',
    threatTypes,
    signals: [...signals],
    confidence: danger ? 0.86 : 0.7,
    weight: 0,
    group: 'social',
    evidence: excerpt(parts.join(' + ')),
    text:
      claim === undefined
        ? 'the page has the marks of a fake shop'
        : `the page has the marks of a fake shop selling ${claim.brand.name} goods on a site ${claim.brand.name} does not own`,
    ...(claim === undefined ? {} : { brand: claim.brand }),
  };
}
