/**
 * @module engine/page/analyzers/credential
 * Credential and account phishing (detection.md §2.7, patterns §6.6, levels §4.2–4.4).
 *
 * The core is the PhishIntention rule (§3.2): **credential intention** (a password, one-time-code
 * or payment-card field, also in HTML a kit writes with `document.write(atob(…))` and password
 * inputs built by script) **and brand intention** (the page presents itself as a catalog brand,
 * see `brand-claims.ts`) on a domain that brand does not own. Then:
 * - `credential_brand_mismatch` / `card_brand_mismatch`: **danger** with corroboration, per the
 *   §4.2 hard rule "a password or card form plus a confirmed brand mismatch plus (fresh or
 *   free-hosting or tier A TLD)", widened to the exfiltration evidence of §2.7 (form posting to
 *   another site, a form backend, a Telegram/Discord/EmailJS/Apps Script endpoint); **caution**
 *   without it (Chrome's lower-confidence tier, §4.1). On a brand's own or a popular site a
 *   mismatch counts only with a chat-bot or form-backend endpoint (a compromised site; §4.4 keeps
 *   legitimate partners' pages quiet). `account_phishing` is added when the brand is an online
 *   account provider (categories tech, email, social, streaming, retail, gaming, telecom) or the
 *   page tells of a suspended or locked account; a card form under a delivery, toll or invoice
 *   lure is left to `lure-scams.ts` (§2.9 maps it to those threat types, not to credential
 *   phishing);
 * - `credential_exfiltration`: the same fields sent to a chat bot, a form backend or `mailto:`
 *   (**caution** on any site: no real login posts a password to Telegram or Formspree; a drop
 *   named in code counts when the fields are sent by script), or posted to another registrable
 *   domain that no catalog brand owns (**soft**, content +2.0: see `OFF_SITE_WEIGHT`; a
 *   password form doing so from a hosting tenant, abused TLD or fresh domain is **caution**);
 * - `credential_first_step`, `credential_lure`, `credential_lure_first_step`,
 *   `account_lure_brand_mismatch`,
 *   `identity_document_upload`, `identity_data_brand_mismatch`: the steps around the password —
 *   an identifier-only first step, a brand-less webmail/document/account lure (with a password,
 *   or with an identifier on a throwaway site), a locked-account
 *   notice without a form, identity documents and secrets — each as a brand (see each function);
 * - `brand_claim`: the brand a page presents itself as, weight 0, so that a verdict raised by
 *   other evidence names it;
 * - `clone_artifact`: the marks of a page saver (`saved from url=` naming another site,
 *   SingleFile, HTTrack, save-page-we), **soft** content +1.5 (§4.3), on any page.
 */
import type { Brand } from '../../brand/brand-index.js';
import { resolveReference } from '../../url/resolve-reference.js';
import type { ThreatType } from '../../verdict.js';
import type { PageContext, PageView } from '../page-context.js';
import type { PageDocument } from '../page-document.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import { type BrandClaim, brandClaims, describeClaim } from './brand-claims.js';
import {
  ACCOUNT_LURE,
  CLONE_COMMENTS,
  CLONE_META,
  DOCUMENT_LURE,
  IDENTITY_DOCUMENT,
  WEBMAIL_LURE,
} from './credential-patterns.js';
import { pageDocuments } from './decoded-documents.js';
import { exfiltrationChannels, type ExfiltrationKind } from './exfiltration-channels.js';
import { paymentLure } from './lure-scams.js';
import { type SensitiveFields, sensitiveFields } from './sensitive-fields.js';
import { firstHit } from './term-pattern.js';

/** Brand categories whose accounts are the prize (§2.9 "+account_phishing if social or e-mail"). */
const ACCOUNT_CATEGORIES = new Set([
  'tech',
  'email',
  'social',
  'streaming',
  'retail',
  'gaming',
  'telecom',
]);
/**
 * Log-odds of a sign-in or card form posting to another site. §4.3 gives +3.0 to "posting off-site
 * or to form-backend/Telegram"; the backend and chat-bot half is a caution rule here, and a bare
 * cross-site post is what single sign-on does too, so it gets the brand-mismatch row's +2.0.
 */
const OFF_SITE_WEIGHT = 2.0;
/** Code searched for exfiltration endpoints (characters). */
const MAX_CODE_SCAN = 1024 * 1024;
/** Identity-secret inputs that make a full verification set (three security answers). */
const FULL_IDENTITY_SET = 3;
/** Text searched for account lures (characters). */
const ACCOUNT_SCAN_CHARS = 32 * 1024;

type PageSignal = PageFinding['signals'][number];

/** Where a page sends what it harvests. */
interface Exfiltration {
  /** Chat bot, form backend or `mailto:`: never a real login's destination. */
  strong: boolean;
  evidence: string;
}

/** Credential harvesting findings for one page (see the module docstring). */
export function analyzeCredentials(page: PageView, context: PageContext): PageFinding[] {
  const docs = pageDocuments(page);
  const findings: PageFinding[] = [];
  const clone = cloneArtifact(docs, context);
  const fields = sensitiveFields(page, docs);
  const card = fields.card.length > 0;
  // A code next to card fields confirms a payment (3-D Secure), not a sign-in.
  const login =
    fields.password.length > 0 ||
    fields.scriptPassword !== null ||
    (fields.otp.length > 0 && !card);
  const claims = brandClaims(docs, context);
  const lure = credentialLure(page, docs);
  if (login || card) {
    const exfiltration = findExfiltration(page, fields, context);
    const mismatch = brandMismatch(page, context, docs, fields, login, exfiltration, claims, lure);
    if (mismatch !== null) findings.push(mismatch);
    else if (login && lure !== null && !context.reputable) {
      findings.push(lureFinding(context, fields, lure, exfiltration));
    }
    if (exfiltration.length > 0) {
      findings.push(exfiltrationFinding(page, context, fields, login, exfiltration));
    }
  } else {
    const first =
      firstStep(page, context, docs, fields, claims, lure) ??
      lurePage(context, fields, claims, lure) ??
      lureFirstStep(context, fields, lure);
    if (first !== null) findings.push(first);
  }
  const upload = identityUpload(page, context, fields, claims);
  if (upload !== null) findings.push(upload);
  if (!login && !card) {
    const identity = identityHarvest(context, fields, claims, lure);
    if (identity !== null) findings.push(identity);
  }
  if (clone !== null) findings.push(clone);
  const named = namedClaim(context, claims, findings);
  if (named !== null) findings.push(named);
  return findings;
}

/**
 * The brand a page firmly presents itself as, when no other finding names one: a **soft**
 * finding of weight 0 that changes no score but lets a verdict that is not safe for other
 * reasons (the URL, a lure, the model) say which brand the page impersonates. Firmly: a strong
 * claim, or a medium one from two places (a favicon and a heading), on a site that is not
 * reputable.
 */
function namedClaim(
  context: PageContext,
  claims: readonly BrandClaim[],
  findings: readonly PageFinding[],
): PageFinding | null {
  const claim = claims[0];
  if (claim === undefined || context.reputable || findings.some((f) => f.brand !== undefined)) {
    return null;
  }
  // A brand named twice at the top of the body, and no other brand claimed, is the page's
  // subject too: enough to name, never to raise.
  const onlyNamedInText = claim.places.includes('text') && claims.length === 1;
  if (
    (claim.strength === 'weak' && !onlyNamedInText) ||
    (claim.strength === 'medium' && claim.places.length < 2 && !onlyNamedInText)
  ) {
    return null;
  }
  return {
    id: 'brand_claim',
    level: 'soft',
    threatTypes: [],
    signals: [],
    confidence: 0.5,
    weight: 0,
    group: 'brand',
    evidence: excerpt(describeClaim(claim)),
    text: `the page presents itself as ${claim.brand.name} on a site ${claim.brand.name} does not own`,
    brand: claim.brand,
  };
}

/** A lure that makes a sign-in form a phishing form without a brand: what kind, and the words. */
interface CredentialLure {
  kind: 'account' | 'webmail' | 'document';
  evidence: string;
}

/** Account, webmail or shared-document lure in the page's text or identity. */
function credentialLure(page: PageView, docs: readonly PageDocument[]): CredentialLure | null {
  const texts = [
    page.identityLower,
    page.textLower.slice(0, ACCOUNT_SCAN_CHARS),
    ...docs.slice(1).map((d) => d.text.slice(0, ACCOUNT_SCAN_CHARS).toLowerCase()),
  ];
  for (const [kind, pattern] of [
    ['webmail', WEBMAIL_LURE],
    ['document', DOCUMENT_LURE],
    ['account', ACCOUNT_LURE],
  ] as const) {
    for (const text of texts) {
      const hit = firstHit([pattern], text);
      if (hit !== null) return { kind, evidence: hit.term };
    }
  }
  return null;
}

/**
 * A sign-in form without a brand under a webmail, shared-document or account lure ("Upgrade my
 * Email Quota", "You've received a link to a file that requires a password"): **caution**, and
 * **danger** on risky infrastructure or with a collector. Real mail providers and file shares
 * name themselves; these kits deliberately do not.
 */
function lureFinding(
  context: PageContext,
  fields: SensitiveFields,
  lure: CredentialLure,
  exfiltration: readonly Exfiltration[],
): PageFinding {
  const danger = context.riskyInfrastructure || exfiltration.some((e) => e.strong);
  const what = { account: 'an account', webmail: 'a mailbox', document: 'a shared document' }[
    lure.kind
  ];
  return {
    id: 'credential_lure',
    level: danger ? 'danger' : 'caution',
    threatTypes: ['credential_phishing', 'account_phishing'],
    signals: ['credential_phishing', 'account_phishing'],
    confidence: danger ? 0.9 : 0.72,
    weight: 0,
    group: 'content',
    evidence: excerpt(`${fieldSummary(fields, true)} under "${lure.evidence}"`),
    text: `the page asks for a password to unlock ${what} ("${lure.evidence}")`,
  };
}

/**
 * The first step of a sign-in: only an e-mail, phone or user-name field (the password comes on the
 * next page) on a page that presents itself as a brand it does not belong to. **caution**;
 * **danger** on risky infrastructure or under an account lure.
 */
function firstStep(
  page: PageView,
  context: PageContext,
  docs: readonly PageDocument[],
  fields: SensitiveFields,
  claims: readonly BrandClaim[],
  lure: CredentialLure | null,
): PageFinding | null {
  if (context.reputable || fields.identifier.length === 0 || fields.identifier.length > 2) {
    return null;
  }
  // A contact or sign-up form asks for more: name, message, address.
  if (fields.dataInputs > fields.identifier.length + 1) return null;
  const claim = claims.find((c) => c.strength === 'strong');
  if (claim === undefined) return null;
  const level = context.riskyInfrastructure || lure !== null ? 'danger' : 'caution';
  const threatTypes: ThreatType[] = ['brand_impersonation', 'credential_phishing'];
  const signals: PageSignal[] = ['brand_impersonation', 'domain_mismatch', 'credential_phishing'];
  if (isAccountPhishing(page, docs, claim.brand)) {
    threatTypes.push('account_phishing');
    signals.push('account_phishing');
  }
  return {
    id: 'credential_first_step',
    level,
    threatTypes,
    signals,
    confidence: level === 'danger' ? 0.9 : 0.72,
    weight: 0,
    group: 'content',
    evidence: excerpt(`account identifier field as ${describeClaim(claim)}`),
    text: `the page starts a sign-in as ${claim.brand.name} on a site ${claim.brand.name} does not own`,
    brand: claim.brand,
  };
}

/**
 * The first step of a sign-in (an e-mail, phone or user-name field) under an account lure
 * ("your account violates our rules, verify your account") on a throwaway site, with no brand
 * named: the copyright-appeal and verification kits that leave the brand to the victim's
 * expectation. **caution**. A real service names itself and does not live on a hosting tenant
 * or an abused TLD.
 */
function lureFirstStep(
  context: PageContext,
  fields: SensitiveFields,
  lure: CredentialLure | null,
): PageFinding | null {
  if (lure?.kind !== 'account' || context.reputable || !throwawaySite(context)) return null;
  if (fields.identifier.length === 0 || fields.identifier.length > 2) return null;
  if (fields.dataInputs > fields.identifier.length + 1) return null;
  return {
    id: 'credential_lure_first_step',
    level: 'caution',
    threatTypes: ['credential_phishing', 'account_phishing'],
    signals: ['credential_phishing', 'account_phishing'],
    confidence: 0.72,
    weight: 0,
    group: 'content',
    evidence: excerpt(`account identifier field under "${lure.evidence}"`),
    text: `the page starts a sign-in under an account warning ("${lure.evidence}") on a hosting tenant or throwaway domain`,
  };
}

/**
 * A page that presents itself as a brand it does not belong to and tells the visitor their
 * account is locked, limited or must be verified, without a form: the interstitial that sends
 * the victim on to the harvesting step ("We've noticed unusual activity on your account …
 * PROCEED TO VERIFICATION"). The real brand says that on its own site. **caution**; **danger**
 * on risky infrastructure. Only the account lure counts: webmail and shared-document phrases
 * ("view document") are common on ordinary pages without a form.
 */
function lurePage(
  context: PageContext,
  fields: SensitiveFields,
  claims: readonly BrandClaim[],
  lure: CredentialLure | null,
): PageFinding | null {
  if (context.reputable || lure?.kind !== 'account' || fields.dataInputs > 0) return null;
  // Without a form to weigh, a page that also names itself is read as writing about the brand.
  const claim = claims.find((c) => c.strength === 'strong' && !c.selfNamed);
  if (claim === undefined) return null;
  const level = context.riskyInfrastructure ? 'danger' : 'caution';
  const threatTypes: ThreatType[] = ['brand_impersonation', 'account_phishing'];
  const signals: PageSignal[] = ['brand_impersonation', 'domain_mismatch', 'account_phishing'];
  return {
    id: 'account_lure_brand_mismatch',
    level,
    threatTypes,
    signals,
    confidence: level === 'danger' ? 0.88 : 0.7,
    weight: 0,
    group: 'content',
    evidence: excerpt(`"${lure.evidence}" as ${describeClaim(claim)}`),
    text: `the page tells a ${claim.brand.name} customer their account needs attention, on a site ${claim.brand.name} does not own`,
    brand: claim.brand,
  };
}

/**
 * An upload of identity documents (passport, ID card, selfie) on a page presenting itself as a
 * brand it does not belong to: identity theft behind an "account verification". **caution**;
 * **danger** on risky infrastructure.
 */
function identityUpload(
  page: PageView,
  context: PageContext,
  fields: SensitiveFields,
  claims: readonly BrandClaim[],
): PageFinding | null {
  if (context.reputable || fields.files.length === 0) return null;
  const claim = claims.find((c) => c.strength !== 'weak');
  if (claim === undefined) return null;
  const hit = firstHit([IDENTITY_DOCUMENT], page.textLower.slice(0, ACCOUNT_SCAN_CHARS));
  if (hit === null) return null;
  const level = context.riskyInfrastructure ? 'danger' : 'caution';
  return {
    id: 'identity_document_upload',
    level,
    threatTypes: ['brand_impersonation', 'account_phishing'],
    signals: ['brand_impersonation', 'domain_mismatch', 'account_phishing'],
    confidence: level === 'danger' ? 0.9 : 0.75,
    weight: 0,
    group: 'content',
    evidence: excerpt(`file upload for "${hit.term}" as ${describeClaim(claim)}`),
    text: `the page asks for identity documents as ${claim.brand.name} on a site ${claim.brand.name} does not own`,
    brand: claim.brand,
  };
}

/**
 * Identity secrets (social security number, birth date, licence number, card PIN, maiden name)
 * asked for as a brand on a site the brand does not own: the "verify your identity" step of bank
 * kits. **caution**; **danger** on risky infrastructure or under an account lure.
 */
function identityHarvest(
  context: PageContext,
  fields: SensitiveFields,
  claims: readonly BrandClaim[],
  lure: CredentialLure | null,
): PageFinding | null {
  if (context.reputable || fields.identityData.length < 2) return null;
  // A heading or copyright line names a brand as often as it claims it; a whole set of identity
  // secrets (security answers, PIN and birth date) is what only the impersonator asks for.
  const claim = claims.find(
    (c) =>
      c.strength === 'strong' ||
      (c.strength === 'medium' && fields.identityData.length >= FULL_IDENTITY_SET),
  );
  if (claim === undefined) return null;
  const level = context.riskyInfrastructure || lure !== null ? 'danger' : 'caution';
  const names = fields.identityData
    .slice(0, 3)
    .map((f) => f.name || f.id)
    .join(', ');
  return {
    id: 'identity_data_brand_mismatch',
    level,
    threatTypes: ['brand_impersonation', 'account_phishing'],
    signals: ['brand_impersonation', 'domain_mismatch', 'account_phishing'],
    confidence: level === 'danger' ? 0.9 : 0.74,
    weight: 0,
    group: 'content',
    evidence: excerpt(`identity fields (${names}) as ${describeClaim(claim)}`),
    text: `the page asks for identity secrets as ${claim.brand.name} on a site ${claim.brand.name} does not own`,
    brand: claim.brand,
  };
}

function brandMismatch(
  page: PageView,
  context: PageContext,
  docs: readonly PageDocument[],
  fields: SensitiveFields,
  login: boolean,
  exfiltration: readonly Exfiltration[],
  claims: readonly BrandClaim[],
  lure: CredentialLure | null,
): PageFinding | null {
  const claim = claims[0];
  if (claim === undefined) return null;
  const strongExfiltration = exfiltration.some((e) => e.strong);
  const risky = context.riskyInfrastructure;
  let level: 'danger' | 'caution';
  if (context.reputable) {
    if (!strongExfiltration) return null;
    level = 'danger';
  } else if (claim.strength === 'strong') {
    level = risky || exfiltration.length > 0 ? 'danger' : 'caution';
  } else if (claim.strength === 'medium') {
    // A heading, the copyright line or a hotlinked badge: a mention as often as a claim, so it
    // needs a collector or a lure; risky infrastructure then makes it danger.
    if (exfiltration.length === 0 && lure === null) return null;
    level = risky || strongExfiltration ? 'danger' : 'caution';
  } else {
    // The brand only in the body text or assets: needs the infrastructure and a harvest signal.
    if (!(risky && (exfiltration.length > 0 || lure !== null))) return null;
    level = 'caution';
  }
  const brand = claim.brand;
  const account = login && isAccountPhishing(page, docs, brand);
  // A card form under a parcel, toll or invoice lure is that lure's (§2.9), not credential theft.
  const credential = login || paymentLure(page, context) === null;
  const threatTypes: ThreatType[] = ['brand_impersonation'];
  const signals: PageSignal[] = ['brand_impersonation', 'domain_mismatch'];
  if (credential) {
    threatTypes.push('credential_phishing');
    signals.push('credential_phishing');
  }
  if (account) {
    threatTypes.push('account_phishing');
    signals.push('account_phishing');
  }
  const what = fieldSummary(fields, login);
  const where = exfiltration[0] === undefined ? '' : ` → ${exfiltration[0].evidence}`;
  return {
    id: login ? 'credential_brand_mismatch' : 'card_brand_mismatch',
    level,
    threatTypes,
    signals,
    confidence: level === 'danger' ? 0.93 : 0.75,
    weight: 0,
    group: 'content',
    evidence: excerpt(`${what} as ${describeClaim(claim)}${where}`),
    text: `the page asks for ${login ? 'a password' : 'payment card details'} as ${brand.name} on a site ${brand.name} does not own`,
    brand,
  };
}

/**
 * Where the sign-in or payment fields go. A chat bot, form backend or `mailto:` is a collector:
 * **caution**. Another site is soft evidence on an ordinary site (a login posting to the
 * company's identity provider), but **caution** for a password form on a hosting tenant, an
 * abused TLD or a fresh domain: a static page there has no back end of its own, and a kit on
 * it posts to its collector elsewhere.
 */
function exfiltrationFinding(
  page: PageView,
  context: PageContext,
  fields: SensitiveFields,
  login: boolean,
  exfiltration: readonly Exfiltration[],
): PageFinding {
  const strong = exfiltration.find((e) => e.strong);
  const lead = strong ?? exfiltration[0];
  const credential = login || paymentLure(page, context) === null;
  const signals: PageSignal[] = credential ? ['credential_phishing'] : [];
  const offSiteTenant = fields.password.length > 0 && !context.reputable && throwawaySite(context);
  const alarm = strong !== undefined || offSiteTenant;
  return {
    id: 'credential_exfiltration',
    level: alarm ? 'caution' : 'soft',
    threatTypes: credential ? ['credential_phishing'] : [],
    signals,
    confidence: alarm ? 0.8 : 0.6,
    weight: alarm ? 0 : OFF_SITE_WEIGHT,
    group: 'content',
    evidence: excerpt(`${fieldSummary(fields, login)} → ${lead?.evidence ?? ''}`),
    text:
      strong !== undefined
        ? 'the page sends what is typed into its sign-in or payment form to a third-party collector'
        : offSiteTenant
          ? 'the page’s sign-in form, on a hosting tenant or throwaway domain, posts to another site'
          : 'the page’s sign-in or payment form posts to another site',
  };
}

/**
 * A site anyone can get in a minute: a hosting or tunnel tenant, a tier A/B abused TLD, a
 * domain registered under 30 days. Narrower than `riskyInfrastructure`, which also counts what
 * the URL rules and the model read in the name.
 */
function throwawaySite(context: PageContext): boolean {
  const { analysis } = context;
  return (
    context.fresh === true ||
    analysis.hosting !== null ||
    analysis.tldTier === 'a' ||
    analysis.tldTier === 'b'
  );
}

/** `password field`, `card fields (in decoded script HTML)`. */
function fieldSummary(fields: SensitiveFields, login: boolean): string {
  const parts: string[] = [];
  if (fields.password.length > 0) parts.push('password field');
  else if (fields.scriptPassword !== null) parts.push(`script-built password input`);
  else if (login) parts.push('one-time-code field');
  if (fields.card.length > 0) parts.push('card fields');
  return `${parts.join(' + ')}${fields.fromDecoded ? ' (in decoded script HTML)' : ''}`;
}

function isAccountPhishing(page: PageView, docs: readonly PageDocument[], brand: Brand): boolean {
  if (ACCOUNT_CATEGORIES.has(brand.category)) return true;
  const texts = [
    page.textLower.slice(0, ACCOUNT_SCAN_CHARS),
    page.identityLower,
    ...docs.slice(1).map((d) => d.text.slice(0, ACCOUNT_SCAN_CHARS).toLowerCase()),
  ];
  return texts.some((text) => firstHit([ACCOUNT_LURE], text) !== null);
}

/** Named drops of `exfiltration-channels.ts` that no real sign-in or checkout uses. */
const DROP_NAMES: Readonly<Partial<Record<ExfiltrationKind, string>>> = {
  telegram: 'Telegram bot',
  discord: 'Discord webhook',
  emailjs: 'EmailJS',
  form_backend: 'form backend',
};

/** Endpoints the harvested fields go to: form actions, then code and decoded strings. */
function findExfiltration(
  page: PageView,
  fields: SensitiveFields,
  context: PageContext,
): Exfiltration[] {
  const out: Exfiltration[] = [];
  const base = context.analysis.url.href;
  const site = context.analysis.url.registrableDomain;
  const drops = (sources: readonly string[]): Exfiltration[] =>
    exfiltrationChannels(sources).flatMap(({ kind, evidence }) => {
      const name = DROP_NAMES[kind];
      return name === undefined ? [] : [{ strong: true, evidence: `${name} ${evidence}` }];
    });
  for (const { form } of fields.forms) {
    const action = form.action;
    if (action === '' || action.startsWith('#')) continue;
    if (/^\s*mailto:/i.test(action)) {
      out.push({ strong: true, evidence: excerpt(action, 60) });
      continue;
    }
    const named = drops([action]);
    if (named.length > 0) {
      out.push(...named);
      continue;
    }
    const target = resolveReference(action, base);
    const domain = target?.registrableDomain ?? null;
    // Posting to a catalog brand's own domain is single sign-on, not a collector.
    if (target !== null && domain !== null && domain !== site) {
      if (context.brands.officialBrand(domain) === undefined) {
        out.push({ strong: false, evidence: `form posts to ${target.hostname}` });
      }
    }
  }
  // A drop named in code counts when the fields are sent by script (no form, an empty action or a
  // script-built input); a form with a real action goes there, whatever else the code posts.
  const scripted =
    fields.scriptPassword !== null ||
    [...fields.password, ...fields.card, ...fields.otp].some((f) => f.form < 0) ||
    fields.forms.some(({ form }) => /^\s*(?:#|javascript:|$)/i.test(form.action));
  if (!scripted) return out;
  for (const drop of drops([page.code.slice(0, MAX_CODE_SCAN), ...page.decoded])) {
    if (!out.some((e) => e.evidence.split(' ')[0] === drop.evidence.split(' ')[0])) out.push(drop);
  }
  return out;
}

/** Marks of a page saver, unless the saved page is this site's own. */
function cloneArtifact(docs: readonly PageDocument[], context: PageContext): PageFinding | null {
  const doc = docs[0];
  if (doc === undefined) return null;
  const site = context.analysis.url.registrableDomain;
  let evidence: string | null = null;
  for (const comment of doc.comments.slice(0, 20)) {
    const marker = CLONE_COMMENTS.find((c) => c.pattern.test(comment));
    if (marker === undefined) continue;
    const source = /url=\(\d+\)\s*(\S+)/i.exec(comment)?.[1];
    if (source !== undefined) {
      const domain = resolveReference(source, context.analysis.url.href)?.registrableDomain;
      if (domain !== undefined && domain !== null && domain === site) continue;
    }
    evidence = excerpt(comment, 100);
    break;
  }
  if (evidence === null) {
    for (const [name, value] of doc.meta) {
      if (CLONE_META.test(name)) {
        evidence = excerpt(`<meta name="${name}" content="${value}">`, 100);
        break;
      }
    }
  }
  if (evidence === null) return null;
  return {
    id: 'clone_artifact',
    level: 'soft',
    threatTypes: [],
    signals: [],
    confidence: 0.5,
    weight: 1.5,
    group: 'content',
    evidence,
    text: 'the page is a saved copy of another site (page-saver marks)',
  };
}
