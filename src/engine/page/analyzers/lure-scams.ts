/**
 * @module engine/page/analyzers/lure-scams
 * Delivery, toll/government and invoice lures (detection.md §2.6, mapping §2.9).
 *
 * A lure is text, in any of the languages of §2.6, that asks the visitor to pay or identify
 * themselves to settle something:
 * - **delivery** (`delivery_scam`): ≥ 2 delivery terms and a payment or fee term (§2.6 rule),
 *   one of them a delivery *problem* (failed attempt, incomplete address, customs fee,
 *   redelivery) or a carrier brand named by the page; shops and real tracking pages name
 *   deliveries too, but do not hold a parcel for a fee. Smishing Triad's Lighthouse and Darcula
 *   kits (Unit 42, Silent Push reports cited in §2.6) are the model: a $1.99–3.50 fee and a card
 *   form;
 * - **government** (`government_impersonation`): a tax refund, unpaid toll or fine/penalty, with a
 *   government brand of the catalog named, or an authority named in text (police, ministry, tax
 *   office: agencies the catalog lacks, such as a police-ransomware "Polizia di Stato" lock) and a
 *   payment demand. Lures on a government domain (`.gov`, `.gouv.fr`, `.gob.es` …: §2.6 "a
 *   government brand on a non-government domain is the key mismatch") are the agency's own;
 * - **invoice** (`invoice_scam`): ≥ 2 invoice terms (invoice, overdue, reminder, changed bank
 *   details; Rechnung/Mahnung, factura, facture, fattura …) with a payment demand, or an invoice
 *   term with a document-behind-login lure (DocuSign and file-share envelopes).
 *
 * Levels follow §4.2: a lure plus a card, voucher-code, password or one-time-code form plus a
 * brand mismatch or risky infrastructure is **danger** (the hard rule "a password or card form
 * plus a confirmed brand mismatch plus fresh/free-hosting/tier-A TLD", with the lure standing in
 * for intent), and so is a lure with any data form in a brand's name on a site the brand does not
 * own; a harvesting form on an unknown site, a lure in a brand's name without a form, or a data
 * form on risky infrastructure is **caution**; lure text alone on risky infrastructure is soft
 * (security blogs quote lures, FAQ pages with contact forms explain failed deliveries). On a
 * brand's own or popular site without a mismatch nothing is reported: real carriers, agencies and
 * billers show the same words. `suspicious_payment` follows §2.9: a card form demanding a small
 * fee (`[$€£]\s?[0-4][.,]\d{2}` of §2.6, widened to under 10 units and to R$, ¥/円) for a carrier
 * or agency.
 */
import type { BrandCategory } from '../../engine-data.js';
import { bodyBrands, identityBrands } from '../page-brands.js';
import type { PageContext, PageView } from '../page-context.js';
import type { PageDocument, PageField } from '../page-document.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import { type BrandClaim, brandClaims, describeClaim } from './brand-claims.js';
import { pageDocuments } from './decoded-documents.js';
import {
  AUTHORITY_TERMS,
  DELIVERY_PROBLEMS,
  DELIVERY_TERMS,
  DOCUMENT_LURE_TERMS,
  GOVERNMENT_TERMS,
  INVOICE_TERMS,
  PAYMENT_TERMS,
} from './lure-patterns.js';
import { MONEY, parseAmount } from './money.js';
import { sensitiveFields } from './sensitive-fields.js';
import { distinctTerms, firstHit, type TermHit } from './term-pattern.js';

/** The kinds of payment lure. */
type LureKind = 'delivery' | 'government' | 'invoice';

/** A lure found in a page's text. */
interface PaymentLure {
  kind: LureKind;
  /** The terms that made it, first the most specific. */
  terms: TermHit[];
  /** The smallest amount the page asks for, as written, if it is a small fee. */
  smallFee: string | null;
}

/** Text scanned for lures (characters): lures sit at the top of a page. */
const LURE_SCAN_CHARS = 64 * 1024;
/** Amounts looked at per page. */
const MAX_AMOUNTS = 40;
/** Fee ceilings per currency, in its units: the redelivery/customs/toll fees of §2.6. */
const SMALL_FEE: Readonly<Record<string, number>> = {
  $: 10,
  us$: 10,
  usd: 10,
  '€': 10,
  eur: 10,
  '£': 10,
  chf: 10,
  r$: 50,
  '¥': 2000,
  円: 2000,
  元: 50,
  zł: 40,
  '₹': 500,
};
/** Prepaid-voucher code inputs (Paysafecard PINs of police lockers, gift-card codes). */
const VOUCHER_FIELD =
  /(?:^|[^a-z])(?:psc|paysafe|neosurf|voucher|gift.?card|gutschein|cupom|buono|pin\b)/i;
/** Suffixes of government registries (PSL labels) and government domains outside them. */
const GOVERNMENT_LABELS = new Set(['gov', 'gouv', 'gob', 'gv', 'govt', 'go', 'gc', 'gub', 'mil']);
const GOVERNMENT_DOMAINS = new Set(['bund.de', 'admin.ch', 'europa.eu', 'service-public.fr']);

const THREAT: Readonly<
  Record<LureKind, 'delivery_scam' | 'government_impersonation' | 'invoice_scam'>
> = { delivery: 'delivery_scam', government: 'government_impersonation', invoice: 'invoice_scam' };
const BRAND_CATEGORY: Readonly<Record<LureKind, BrandCategory | null>> = {
  delivery: 'delivery',
  government: 'government',
  invoice: null,
};
const TEXT: Readonly<Record<LureKind, string>> = {
  delivery: 'the page says a parcel is held until a fee is paid or an address is confirmed',
  government: 'the page demands a fine or toll, or offers a tax refund, in an authority’s name',
  invoice: 'the page presses for payment of an invoice or a changed bank account',
};

const lureCache = new WeakMap<PageView, PaymentLure | null>();

/**
 * The payment lure of a page, if any (remembered per page: the credential analyzer asks too).
 *
 * @param page the page view; its lower-cased text and the text of decoded HTML are read.
 * @param context for the brand catalog (carrier and agency names strengthen a lure).
 */
export function paymentLure(page: PageView, context: PageContext): PaymentLure | null {
  if (lureCache.has(page)) return lureCache.get(page) ?? null;
  const lure = findLure(page, context);
  lureCache.set(page, lure);
  return lure;
}

/** Delivery, government and invoice lures → findings (see the module docstring for levels). */
export function analyzeLureScams(page: PageView, context: PageContext): PageFinding[] {
  const lure = paymentLure(page, context);
  if (lure === null) return [];
  if (lure.kind === 'government' && onGovernmentDomain(context)) return [];

  const docs = pageDocuments(page);
  const fields = sensitiveFields(page, docs);
  const card = fields.card.length > 0;
  const voucher = docs.some((doc) => doc.fields.some((f) => VOUCHER_FIELD.test(fieldText(f))));
  // Card, voucher, password or one-time-code fields harvest; other inputs (an address form, a
  // contact form) only count with a brand mismatch or risky infrastructure.
  const harvest = card || voucher || fields.password.length > 0 || fields.otp.length > 0;
  const form = harvest || fields.dataInputs >= 3;
  const claim = pickClaim(brandClaims(docs, context), lure.kind);
  // A brand only in the body text or loaded assets may be the shop's carrier: caution at most.
  const named = claim !== undefined && claim.strength !== 'weak';
  const risky = context.riskyInfrastructure;

  let level: PageFinding['level'];
  let confidence: number;
  let weight = 0;
  if ((harvest && (named || risky)) || (form && named)) {
    [level, confidence] = ['danger', 0.9];
  } else if (!context.reputable && (harvest || claim !== undefined || (form && risky))) {
    [level, confidence] = ['caution', 0.7];
  } else if (risky) [level, confidence, weight] = ['soft', 0.5, 1.0];
  else return [];

  const threat = THREAT[lure.kind];
  const suspiciousPayment = card && lure.smallFee !== null && lure.kind !== 'invoice';
  const formText = card
    ? 'card form'
    : voucher
      ? 'voucher code form'
      : fields.password.length > 0
        ? 'password form'
        : 'data form';
  const evidence = [
    lure.terms
      .slice(0, 2)
      .map((t) => t.term)
      .join(', '),
    lure.smallFee,
    form ? formText : null,
    claim === undefined ? null : describeClaim(claim),
  ]
    .filter((part) => part !== null && part !== '')
    .join(' · ');
  return [
    {
      id: `${lure.kind}_lure`,
      level,
      threatTypes: claim === undefined ? [threat] : [threat, 'brand_impersonation'],
      signals: [
        threat,
        ...(claim === undefined ? [] : (['brand_impersonation', 'domain_mismatch'] as const)),
        ...(suspiciousPayment ? (['suspicious_payment'] as const) : []),
      ],
      confidence,
      weight,
      group: 'social',
      evidence: excerpt(evidence),
      text:
        claim === undefined
          ? TEXT[lure.kind]
          : `${TEXT[lure.kind]}, as ${claim.brand.name} on a site ${claim.brand.name} does not own`,
      ...(claim === undefined ? {} : { brand: claim.brand }),
    },
  ];
}

function findLure(page: PageView, context: PageContext): PaymentLure | null {
  const docs = pageDocuments(page);
  const text = [
    page.textLower.slice(0, LURE_SCAN_CHARS),
    ...docs.slice(1).map((d) => d.text.slice(0, LURE_SCAN_CHARS).normalize('NFKC').toLowerCase()),
  ].join('\n');
  // Cheap keyword passes first; brand look-ups and amounts only for pages that have lure words.
  const government = distinctTerms(GOVERNMENT_TERMS, text, 4);
  const problems = distinctTerms(DELIVERY_PROBLEMS, text, 4);
  const delivery = distinctTerms(DELIVERY_TERMS, text, 6);
  const invoice = distinctTerms(INVOICE_TERMS, text, 4);
  if (
    government.length === 0 &&
    problems.length === 0 &&
    delivery.length < 2 &&
    invoice.length === 0
  ) {
    return null;
  }
  const money = amounts(text);
  const demand = money.length > 0 || firstHit([PAYMENT_TERMS], text) !== null;
  const categories = namedCategories(docs, context);

  const candidates: { kind: LureKind; terms: TermHit[] }[] = [];
  if (government.length > 0 && demand) {
    const agency = categories.any.has('government');
    const authority = agency ? [] : distinctTerms(AUTHORITY_TERMS, text, 2);
    if (agency || authority.length > 0) {
      candidates.push({ kind: 'government', terms: [...government, ...authority] });
    }
  }
  // A carrier named in the body is a shop's shipping note; in the title or logo it is the lure's.
  // A carrier in the title asking a small fee for a delivery problem needs no second term (a
  // one-line "ZAHLUNG DER PAKETGEBÜHREN 2,99 €" step of a Deutsche Post kit).
  if ((problems.length > 0 || categories.identity.has('delivery')) && demand) {
    const distinct = new Set([...problems, ...delivery].map((t) => t.term));
    const feeStep =
      categories.identity.has('delivery') && problems.length > 0 && money.some((m) => m.small);
    if (distinct.size >= 2 || feeStep) {
      candidates.push({ kind: 'delivery', terms: [...problems, ...delivery] });
    }
  }
  if (invoice.length > 0) {
    const document = distinctTerms(DOCUMENT_LURE_TERMS, text, 2);
    if ((invoice.length >= 2 && demand) || document.length > 0) {
      candidates.push({ kind: 'invoice', terms: [...invoice, ...document] });
    }
  }
  // The named brand's category decides between kinds (a toll operator's "invoice" is a toll).
  const chosen =
    candidates.find((c) => {
      const category = BRAND_CATEGORY[c.kind];
      return category !== null && categories.any.has(category);
    }) ?? candidates[0];
  if (chosen === undefined) return null;
  return { ...chosen, smallFee: money.find((m) => m.small)?.raw ?? null };
}

/** Categories of the catalog brands a page names: in identity places, and anywhere near the top. */
function namedCategories(
  docs: readonly PageDocument[],
  context: PageContext,
): { identity: Set<BrandCategory>; any: Set<BrandCategory> } {
  const identity = new Set<BrandCategory>();
  const any = new Set<BrandCategory>();
  for (const doc of docs) {
    for (const named of identityBrands(doc, context.brands)) {
      identity.add(named.brand.category);
      any.add(named.brand.category);
    }
    for (const brand of bodyBrands(doc, context.brands)) any.add(brand.category);
  }
  return { identity, any };
}

/** The claim to report: a brand of the lure's own category first (a carrier for a parcel). */
function pickClaim(claims: readonly BrandClaim[], kind: LureKind): BrandClaim | undefined {
  const category = BRAND_CATEGORY[kind];
  return claims.find((c) => c.brand.category === category) ?? claims[0];
}

const fieldText = (f: PageField): string => `${f.name} ${f.id} ${f.placeholder} ${f.ariaLabel}`;

function onGovernmentDomain(context: PageContext): boolean {
  const url = context.analysis.url;
  if (url.registrableDomain !== null && GOVERNMENT_DOMAINS.has(url.registrableDomain)) return true;
  return (url.icannSuffix ?? '').split('.').some((label) => GOVERNMENT_LABELS.has(label));
}

interface Amount {
  raw: string;
  small: boolean;
}

/** Money amounts in the text, each marked small when under its currency's fee ceiling. */
function amounts(text: string): Amount[] {
  const out: Amount[] = [];
  for (const match of text.matchAll(MONEY)) {
    const currency = (match[1] ?? match[4] ?? '').trim();
    const value = parseAmount(match[2] ?? match[3] ?? '');
    const ceiling = SMALL_FEE[currency];
    if (value !== null) {
      out.push({
        raw: match[0].trim(),
        small: ceiling !== undefined && value > 0 && value < ceiling,
      });
    }
    if (out.length >= MAX_AMOUNTS) break;
  }
  return out;
}
