/**
 * @module engine/rules/analyze-url
 * Layer 1 of the engine: everything the URL itself says, without any I/O. It decides whose site
 * the URL is (a brand's own domain, a popular site, a tenant of a hosting platform, or an unknown
 * domain), reads every host label, the userinfo and the path for brand tokens and lure words, and
 * collects the lexical features. The result is evidence, not a verdict: scoring decides.
 */
import { getDomain } from 'tldts';

import type { Brand } from '../brand/brand-index.js';
import type { WordGroup } from '../engine-data.js';
import { modelSite } from '../model/model-site.js';
import type { UrlModel, UrlModelScore } from '../model/url-model.js';
import type { ParsedUrl } from '../url/normalize-url.js';
import type { WordGroups } from '../words/word-index.js';
import {
  type BrandFinding,
  byStrength,
  findingKindOf,
  type FindingPlace,
} from './brand-finding.js';
import { disguisedLureWords, type DisguisedWord } from './disguised-words.js';
import type { HostingIndex, HostingTenant } from './hosting-index.js';
import { type LexicalFeature, lexicalFeatures } from './lexical-features.js';
import { type LabelReaderContext, readLabel } from './read-label.js';

/** Abused-TLD tier (detection.md §1.8): A strong, B moderate, C weak prior. */
export type TldTier = 'a' | 'b' | 'c';

/** Indexes layer 1 needs, built once by `createEngine()`. */
export interface UrlRulesContext extends LabelReaderContext {
  hosting: HostingIndex;
  /** Host → kind of redirector: URL shorteners and link-in-bio hubs. */
  redirectors: ReadonlyMap<string, 'shortener' | 'link_in_bio'>;
  tldTiers: ReadonlyMap<string, TldTier>;
  /** Popular registrable domains (hosting platforms and redirectors excluded). */
  popular: ReadonlySet<string>;
  /** CDN/DNS edge suffixes (`edgekey.net`): their names embed customer domains by design. */
  cdnEdgeSuffixes: ReadonlySet<string>;
  /** Machine-named cloud endpoint suffixes (`elb.amazonaws.com`): the model does not read them. */
  cloudEndpointSuffixes: ReadonlySet<string>;
  /** The learned lexical URL model, or null when the engine runs without it. */
  urlModel: UrlModel | null;
}

/** Unicode findings over all labels of the host. */
export interface IdnSummary {
  /** Some label mixes Latin, Cyrillic or Greek. */
  mixedScript: boolean;
  /** Some label is a whole-script confusable (all-Cyrillic `аррӏе` under `.com`). */
  wholeScriptConfusable: boolean;
  /** Some label contains an invisible (default-ignorable) character. */
  invisible: boolean;
}

/** Everything layer 1 found in one URL. */
export interface UrlAnalysis {
  url: ParsedUrl;
  /** The brand owning the registrable domain (even when the URL is a tenant on it). */
  owner: Brand | null;
  /** The hosting tenant, when the URL is user content on a shared platform. */
  hosting: HostingTenant | null;
  /** The registrable domain is a popular site and the URL is not a hosting tenant. */
  popular: boolean;
  /** The host is a CDN/DNS edge name (`www.example.com.edgekey.net`). */
  cdnEdge: boolean;
  /** The host is a URL shortener or link hub and the link has a path: the destination is hidden. */
  redirector: 'shortener' | 'link_in_bio' | null;
  /** The label that names the site (registrable label or hosting tenant), null for IP hosts. */
  siteLabel: string | null;
  /** Last label of the host (`top`), null for IP hosts. */
  tld: string | null;
  tldTier: TldTier | null;
  /** Impersonation evidence, strongest first; empty on a brand's own domain. */
  findings: BrandFinding[];
  /** Lure words in the host labels (site and subdomains), by group. */
  hostWords: WordGroups;
  /** Lure words in the path, by group. */
  pathWords: WordGroups;
  /** Lure words of the host spelled with digits for letters (`ver1fication`). */
  disguisedWords: DisguisedWord[];
  lexical: LexicalFeature[];
  idn: IdnSummary;
  /** A URL carried in a redirect parameter (`?url=https://…`) to another site, if any. */
  redirectTarget: string | null;
  /**
   * The learned URL model's reading of the site, or null when it did not score: no model loaded,
   * an allowlisted site, a CDN edge name, an IP host or a path tenant (see `modelSite`).
   */
  model: UrlModelReading | null;
}

/** What the URL model said about the site. */
export interface UrlModelReading {
  /** The name it read (`modelSite`). */
  site: string;
  logit: number;
  level: UrlModelScore['level'];
  /** Enough to back weak evidence (a brand lookalike, a brand next to ordinary words). */
  supports: boolean;
  /** The n-grams that raised the score most, only when `level` is not `none`. */
  ngrams: readonly string[];
}

/**
 * Query parameters that commonly carry a redirect destination (detection.md §1.5, the UCI
 * *Redirect* feature).
 */
const REDIRECT_PARAMS: ReadonlySet<string> = new Set([
  'url',
  'u',
  'q',
  'redirect',
  'redirect_uri',
  'redirect_url',
  'redirecturl',
  'return',
  'returnurl',
  'return_url',
  'next',
  'continue',
  'dest',
  'destination',
  'goto',
  'target',
  'r',
  'link',
  'to',
  'out',
]);
const URL_LIKE = /^(https?:)?\/\/|^www\./i;
const EMPTY_WORDS: WordGroups = new Map();
const MAX_PATH_TOKENS = 24;

/**
 * Whose site a URL is: the part of {@link UrlAnalysis} that layer 2 also needs (which feed
 * entries may apply, whether domain age applies, the history key). A `UrlAnalysis` is one, so
 * the detection service hands its analysis on instead of having it derived again.
 */
export type SiteReading = Pick<UrlAnalysis, 'url' | 'owner' | 'hosting' | 'popular'>;

/**
 * Read whose site a URL is (cheap: a few map look-ups). {@link analyzeUrl} starts with it; callers
 * that hold only a URL and need no more (the feed index over its entries, `linkguard history`)
 * call it directly.
 *
 * @param ctx the brand catalog, hosting index and popular domains.
 * @param url a URL accepted by `normalizeUrl()`.
 */
export function readSite(
  ctx: Pick<UrlRulesContext, 'brands' | 'hosting' | 'popular'>,
  url: ParsedUrl,
): SiteReading {
  const registrable = url.registrableDomain;
  const owner = registrable === null ? null : (ctx.brands.officialBrand(registrable) ?? null);
  const hosting = ctx.hosting.tenantOf(url.hostname, url.pathname);
  const popular = registrable !== null && hosting === null && ctx.popular.has(registrable);
  return { url, owner, hosting, popular };
}

/**
 * Analyse a parsed URL.
 *
 * @param ctx layer-1 indexes.
 * @param url a URL accepted by `normalizeUrl()`.
 */
export function analyzeUrl(ctx: UrlRulesContext, url: ParsedUrl): UrlAnalysis {
  const { owner, hosting, popular } = readSite(ctx, url);
  const labels = url.hostname.split('.');
  const tld = url.ipVersion === null ? (labels[labels.length - 1] ?? null) : null;
  const findings: BrandFinding[] = [];
  const hostWords: string[] = [];
  const idn: IdnSummary = { mixedScript: false, wholeScriptConfusable: false, invisible: false };

  const { siteLabel, subdomainLabels } = whoseSite(url, hosting);
  const unicodeLabels = url.hostnameUnicode.split('.');
  const unicodeOf = (label: string): string => {
    const index = labels.indexOf(label);
    return index >= 0 && unicodeLabels.length === labels.length
      ? (unicodeLabels[index] ?? label)
      : label;
  };

  const readInto = (label: string, place: FindingPlace, lookalikes: boolean): void => {
    const reading = readLabel(ctx, label, unicodeOf(label), tld ?? '', lookalikes);
    hostWords.push(...reading.words);
    if (reading.idn !== null) {
      idn.mixedScript ||= reading.idn.mixedScript;
      idn.wholeScriptConfusable ||= reading.idn.wholeScriptConfusable;
      idn.invisible ||= reading.idn.invisible;
    }
    for (const match of reading.matches) {
      findings.push({
        kind: findingKindOf(match.how, place, hosting !== null),
        place,
        brand: match.entry.brand,
        token: match.entry.token,
        matched: match.matched,
        distance: match.distance,
        context: reading.context,
      });
    }
  };

  // On a brand's own domain or a popular site (not a hosting tenant) only the userinfo can still
  // deceive; reading labels and path there would find nothing scoring may use, so skip it.
  // A host that is itself a public suffix and no tenant (`gov.uk`, `githubusercontent.com`) is a
  // registry's or platform operator's own name: nothing in it was chosen to deceive.
  const platformName = url.hostIsSuffix && hosting === null;
  const allowlisted = hosting === null && (owner !== null || popular || platformName);
  const cdnEdge = hosting === null && isCdnEdge(ctx, url.hostname);
  const model = modelReads(ctx, url, hosting, allowlisted || cdnEdge)
    ? readModel(ctx.urlModel, url, hosting, ctx.hosting.platformOf(url.hostname) !== undefined)
    : null;
  const tldTier = tld === null ? null : (ctx.tldTiers.get(tld) ?? null);
  let pathWords: WordGroups = EMPTY_WORDS;
  let disguisedWords: DisguisedWord[] = [];
  if (!allowlisted) {
    for (const label of subdomainLabels) readInto(label, 'subdomain', false);
    const labelsLeftOfSuffix =
      siteLabel === null ? subdomainLabels : [...subdomainLabels, siteLabel];
    findings.push(...embeddedDomains(ctx, labelsLeftOfSuffix));
    disguisedWords = disguisedLureWords(labelsLeftOfSuffix, ctx.words);
    pathWords = readPath(ctx, url, findings);
    if (siteLabel !== null) {
      // A lookalike alone counts only with the model's support or corroboration (scoring), and
      // the edit-distance search is the costliest step of reading a label: skip it when neither
      // can be there. Without a model every lookalike is searched, as the rules alone need.
      const lureNearby =
        hostWords.some((word) => ctx.words.isLure(word)) ||
        [...pathWords.keys()].some(isLureGroup) ||
        readLabel(ctx, siteLabel, unicodeOf(siteLabel), tld ?? '', false).words.some((word) =>
          ctx.words.isLure(word),
        );
      const lookalikes =
        ctx.urlModel === null ||
        model?.supports === true ||
        lureNearby ||
        tldTier === 'a' ||
        tldTier === 'b' ||
        (hosting !== null && !isStorageRoot(url, hosting));
      readInto(siteLabel, 'site', lookalikes);
    }
  }
  findings.push(...userinfoFindings(ctx, url));

  // A brand's own domain cannot impersonate the brand; user content on it can. CDN edge names
  // spell out their customers' hosts by design, so only the userinfo and the path count there.
  const ownSite = owner !== null && hosting === null;
  const kept = ownSite
    ? []
    : dedupe(
        findings.filter(
          (f) =>
            (f.brand !== owner || hosting !== null) &&
            (!cdnEdge || f.place === 'userinfo' || f.place === 'path'),
        ),
      );

  const redirector = redirectorOf(ctx, url);
  return {
    url,
    owner,
    hosting,
    popular,
    cdnEdge,
    siteLabel,
    redirector,
    tld,
    tldTier,
    findings: kept,
    hostWords: ctx.words.groupWords(hostWords),
    pathWords,
    disguisedWords,
    lexical: lexicalFeatures(url, siteLabel),
    idn,
    redirectTarget: redirectTargetOf(url),
    model,
  };
}

/**
 * Whether the learned model reads this URL: not on allowlisted sites or CDN edges, not on
 * machine-named cloud endpoints (unless the URL is a hosting tenant there, like an S3 bucket), and
 * not on the bare root of an object-storage tenant, which serves an API listing, not a page.
 */
export function modelReads(
  ctx: Pick<UrlRulesContext, 'cloudEndpointSuffixes'>,
  url: ParsedUrl,
  hosting: HostingTenant | null,
  skip: boolean,
): boolean {
  if (skip) return false;
  if (hosting === null) return !isUnderSuffix(url.hostname, ctx.cloudEndpointSuffixes);
  return !isStorageRoot(url, hosting);
}

/** An object-storage tenant's root (`x.blob.core.windows.net/`): an API endpoint, not a page. */
export function isStorageRoot(url: ParsedUrl, hosting: HostingTenant | null): boolean {
  return (
    hosting?.kind === 'storage' &&
    hosting.tenancy === 'subdomain' &&
    (url.pathname === '/' || url.pathname === '')
  );
}

/** True for a CDN/DNS edge name (`www.example.com.edgekey.net`), which embeds its customer's host. */
export function isCdnEdge(
  ctx: Pick<UrlRulesContext, 'cdnEdgeSuffixes'>,
  hostname: string,
): boolean {
  return isUnderSuffix(hostname, ctx.cdnEdgeSuffixes);
}

function readModel(
  model: UrlModel | null,
  url: ParsedUrl,
  hosting: HostingTenant | null,
  platformHost: boolean,
): UrlModelReading | null {
  const site = model === null ? null : modelSite(url, hosting, platformHost);
  if (model === null || site === null) return null;
  return { site: site.site, ...model.read(site.site, site.suffix) };
}

function isUnderSuffix(hostname: string, suffixes: ReadonlySet<string>): boolean {
  for (let i = hostname.indexOf('.'); i >= 0; i = hostname.indexOf('.', i + 1)) {
    if (suffixes.has(hostname.slice(i + 1))) return true;
  }
  return false;
}

/** The label that names the site and the subdomain labels around it. */
function whoseSite(
  url: ParsedUrl,
  hosting: HostingTenant | null,
): { siteLabel: string | null; subdomainLabels: string[] } {
  if (url.ipVersion !== null) return { siteLabel: null, subdomainLabels: [] };
  if (hosting !== null) {
    const slug = hosting.tenancy === 'subdomain' ? hosting.tenant : pathSlug(hosting.tenant);
    return { siteLabel: slug, subdomainLabels: hosting.innerLabels };
  }
  // With a private PSL suffix not in our hosting list, tldts still gives the tenant as the label.
  return {
    siteLabel: url.domainLabel,
    subdomainLabels: url.subdomainLabels.filter((label) => label !== 'www'),
  };
}

/** `view/metamask-login` → `metamask-login`; ids and CIDs (no letters-and-hyphens slug) → null. */
function pathSlug(tenant: string): string | null {
  const last = tenant.split('/').pop() ?? '';
  const slug = last.toLowerCase();
  return /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(slug) && slug.length <= 40 ? slug : null;
}

/**
 * Official brand domains spelled out across labels left of the site's suffix:
 * `paypal.com.account-check.example.top`, and `paypal.com-verify.top` where the domain ends at the
 * first hyphen of the next label.
 */
function embeddedDomains(ctx: UrlRulesContext, labels: readonly string[]): BrandFinding[] {
  const out: BrandFinding[] = [];
  for (let start = 0; start < labels.length - 1; start++) {
    for (let end = start + 2; end <= Math.min(labels.length, start + 4); end++) {
      const sequence = labels.slice(start, end);
      const last = sequence[sequence.length - 1] ?? '';
      const candidates = [sequence.join('.')];
      if (last.includes('-')) {
        candidates.push([...sequence.slice(0, -1), last.split('-')[0] ?? ''].join('.'));
      }
      for (const candidate of candidates) {
        const brand = ctx.brands.officialBrand(candidate);
        if (brand === undefined) continue;
        out.push({
          kind: 'embedded_domain',
          place: 'subdomain',
          brand,
          token: candidate,
          matched: candidate,
          distance: 0,
          context: 'odd',
        });
      }
    }
  }
  return out;
}

/** `https://paypal.com@evil.top/` or `https://paypal-login@evil.top/`. */
function userinfoFindings(ctx: UrlRulesContext, url: ParsedUrl): BrandFinding[] {
  if (!url.hasUserinfo) return [];
  const user = url.username.toLowerCase();
  const domain = user.includes('.') ? getDomain(user, { allowPrivateDomains: true }) : null;
  const official = domain === null ? undefined : ctx.brands.officialBrand(domain);
  if (official !== undefined) {
    return [
      {
        kind: 'userinfo',
        place: 'userinfo',
        brand: official,
        token: domain ?? user,
        matched: user,
        distance: 0,
        context: 'odd',
      },
    ];
  }
  const out: BrandFinding[] = [];
  for (const part of user.split(/[^a-z0-9-]+/)) {
    if (part === '') continue;
    for (const match of readLabel(ctx, part, part, '', false).matches) {
      out.push({
        kind: 'userinfo',
        place: 'userinfo',
        brand: match.entry.brand,
        token: match.entry.token,
        matched: user,
        distance: 0,
        context: 'odd',
      });
    }
  }
  return out;
}

/** Brand tokens and lure words in the path (brand findings are appended to `findings`). */
function readPath(ctx: UrlRulesContext, url: ParsedUrl, findings: BrandFinding[]): WordGroups {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).toLowerCase();
  } catch {
    path = url.pathname.toLowerCase();
  }
  const tokens = path
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 3)
    .slice(0, MAX_PATH_TOKENS);
  const words: string[] = [];
  for (const text of tokens) {
    const entry = ctx.brands.token(text);
    const hits = entry === undefined ? ctx.brands.findDistinctive(text) : [{ entry, index: 0 }];
    for (const hit of hits) {
      findings.push({
        kind: 'path',
        place: 'path',
        brand: hit.entry.brand,
        token: hit.entry.token,
        matched: text,
        distance: 0,
        context: 'odd',
      });
    }
    if (ctx.words.groups(text).length > 0) words.push(text);
  }
  return ctx.words.groupWords(words);
}

/** One finding per brand and place, the strongest; all findings strongest first. */
function dedupe(findings: BrandFinding[]): BrandFinding[] {
  const seen = new Set<string>();
  return [...findings].sort(byStrength).filter((finding) => {
    const key = `${finding.brand.id}|${finding.place}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function redirectorOf(ctx: UrlRulesContext, url: ParsedUrl): 'shortener' | 'link_in_bio' | null {
  if (url.pathname === '/' || url.pathname === '') return null;
  return (
    ctx.redirectors.get(url.hostname) ??
    (url.registrableDomain === null ? undefined : ctx.redirectors.get(url.registrableDomain)) ??
    null
  );
}

/** A URL to another site in a redirect parameter, e.g. `google.com/url?q=https://evil.top/`. */
function redirectTargetOf(url: ParsedUrl): string | null {
  if (url.search === '') return null;
  const params = new URLSearchParams(url.search);
  for (const [name, value] of params) {
    if (!REDIRECT_PARAMS.has(name.toLowerCase()) || !URL_LIKE.test(value)) continue;
    const target = value.startsWith('//') ? `https:${value}` : value;
    const host = /^(?:https?:\/\/)?([^/?#:@]+)/i.exec(target)?.[1]?.toLowerCase() ?? '';
    const domain = getDomain(host, { allowPrivateDomains: true });
    if (domain !== null && domain !== url.registrableDomain) return target;
  }
  return null;
}

/** Word groups that are context, not lures: ordinary web tokens and web3 vocabulary. */
export const CONTEXT_GROUPS: readonly WordGroup[] = ['generic', 'web3'];

/** True for a lure group (every group but the context groups). */
export function isLureGroup(group: WordGroup): boolean {
  return !CONTEXT_GROUPS.includes(group);
}

/** Lure groups that make a brand lookalike dangerous on their own (DESIGN §5). */
export const HIGH_RISK_GROUPS: readonly WordGroup[] = [
  'credential',
  'account',
  'crypto',
  'seed',
  'airdrop',
  'giveaway',
];

/** Lure groups that describe a scam theme but need corroboration. */
export const THEME_GROUPS: readonly WordGroup[] = [
  'support',
  'delivery',
  'payment',
  'government',
  'invoice',
];
