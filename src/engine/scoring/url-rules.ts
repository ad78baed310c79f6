/**
 * @module engine/scoring/url-rules
 * Turns layer-1 evidence into rule hits. DESIGN §5: a lookalike name alone is `caution`; `danger`
 * needs strong evidence — here, a brand fake corroborated by lure words, an abused TLD, a hosting
 * platform or the brand's own theme, or a fake that is deceptive by construction (homoglyph IDN,
 * brand domain in the userinfo). Each rule is named, so the reason and `matched_patterns` say
 * exactly why. Weak signals are summed as damped log-odds (detection.md §4.2–4.3) and can only
 * reach `caution`.
 */
import { MIN_DISTINCTIVE_LENGTH } from '../brand/brand-index.js';
import { type BrandCategory, CRYPTO_BRAND_CATEGORIES, type WordGroup } from '../engine-data.js';
import {
  HIGH_RISK_GROUPS,
  isLureGroup,
  isStorageRoot,
  THEME_GROUPS,
  type UrlAnalysis,
} from '../rules/analyze-url.js';
import type { BrandFinding, FindingKind } from '../rules/brand-finding.js';

/** A named rule that fired. */
export interface RuleHit {
  /** `matched_patterns` code, `rule:<id>`. */
  id: string;
  level: 'caution' | 'danger';
  /** Certainty that the URL is malicious when this rule fires alone (danger rules). */
  confidence: number;
  /** Human sentence for the reason. */
  text: string;
}

/** Layer-1 result: credible findings, rule hits and the soft score. */
export interface UrlJudgement {
  findings: BrandFinding[];
  rules: RuleHit[];
  /** Log-odds of maliciousness from weak signals (prior included). */
  logit: number;
  /** Codes of the weak signals that contributed, for `matched_patterns`. */
  softCodes: string[];
}

/** Prior log-odds before evidence: about 5 % (a cautious starting point, detection.md §4.3). */
const PRIOR_LOGIT = -3.0;
/** `caution` from weak signals at p ≥ 0.40 (detection.md §4.2 step 4). */
export const CAUTION_LOGIT = Math.log(0.4 / 0.6);

const HOST_KINDS: ReadonlySet<FindingKind> = new Set([
  'homoglyph',
  'embedded_domain',
  'combosquat',
  'brand_label',
  'tld_swap',
  'lookalike',
  'confusable',
]);
const LOOKALIKE_KINDS: ReadonlySet<FindingKind> = new Set(['lookalike', 'confusable', 'tld_swap']);

/**
 * Scam themes typical of a brand category (detection.md §2.6): a postal brand with `redelivery`,
 * a tax agency with `refund`, a bank or software brand with `helpdesk`. Payment and invoice words
 * are too common in legitimate names (`shopeepay`, `adyenpayments`) to make danger on their own.
 */
const THEME_OF_CATEGORY: Partial<Record<BrandCategory, readonly WordGroup[]>> = {
  delivery: ['delivery'],
  retail: ['delivery'],
  // Agencies' scams ask for a payment as often as they promise a refund (fees, fines, tax due).
  government: ['government', 'payment'],
  bank: ['support'],
  payment: ['support'],
  tech: ['support'],
  email: ['support'],
  telecom: ['support'],
  streaming: ['support'],
  wallet: ['support'],
  exchange: ['support'],
  defi: ['support'],
};

/** Lure groups that make any brand dangerous; crypto lures only matter for crypto brands. */
const UNIVERSAL_LURES: readonly WordGroup[] = ['credential', 'account', 'giveaway'];
const CRYPTO_LURES: readonly WordGroup[] = ['crypto', 'seed', 'airdrop'];

/**
 * Crypto companies (not chains): third parties rarely put their names in a domain, so their name
 * next to web3 words or a number on a foreign domain is a scam site. Chain names (`solana`,
 * `ethereum`) are excluded because countless legitimate projects carry them.
 */
const COMPANY_CRYPTO: ReadonlySet<BrandCategory> = new Set(['wallet', 'exchange', 'defi', 'nft']);

/** Web3 vocabulary or a number next to a crypto brand in the host (`app-dydx`, `4286-coinbase`). */
function web3Context(analysis: UrlAnalysis, finding: BrandFinding): boolean {
  if (finding.place !== 'site' && finding.place !== 'subdomain') return false;
  if (finding.kind !== 'combosquat' && finding.kind !== 'embedded_domain') return false;
  const label = finding.place === 'site' ? (analysis.siteLabel ?? '') : finding.matched;
  return analysis.hostWords.has('web3') || /\d{2,}/.test(label.replace(finding.token, ''));
}

/**
 * Evaluate the layer-1 rules.
 *
 * @param analysis result of `analyzeUrl()`.
 */
export function judgeUrl(analysis: UrlAnalysis): UrlJudgement {
  const findings = credibleFindings(analysis);
  const rules: RuleHit[] = [];
  const host = new Set(analysis.hostWords.keys());
  const path = new Set(analysis.pathWords.keys());
  const lureFor = (groups: ReadonlySet<WordGroup>, finding: BrandFinding | undefined): boolean =>
    UNIVERSAL_LURES.some((g) => groups.has(g)) ||
    ((finding === undefined || CRYPTO_BRAND_CATEGORIES.has(finding.brand.category)) &&
      CRYPTO_LURES.some((g) => groups.has(g)));
  const anyLureHost = [...HIGH_RISK_GROUPS, ...THEME_GROUPS].some((g) => host.has(g));
  const tierA = analysis.tldTier === 'a';
  const tierAB = tierA || analysis.tldTier === 'b';
  // An object-storage root serves no page: a storage tenant's name alone proves nothing.
  const hosted = analysis.hosting !== null && !isStorageRoot(analysis.url, analysis.hosting);
  const danger = (id: string, confidence: number, text: string): void => {
    rules.push({ id: `rule:${id}`, level: 'danger', confidence, text });
  };
  const caution = (id: string, text: string): void => {
    rules.push({ id: `rule:${id}`, level: 'caution', confidence: 0.6, text });
  };

  const hostFindings = findings.filter((f) => HOST_KINDS.has(f.kind));
  const top = hostFindings[0];
  // Crypto lures (`wallet`, `bridge`, `sync`) only weigh next to a crypto brand: `weixinbridge`.
  const highRiskHost = lureFor(host, top);
  const highRiskPath = lureFor(path, top ?? findings[0]);
  if (findings.some((f) => f.kind === 'homoglyph')) {
    danger('homoglyph_brand', 0.95, 'the name is written with look-alike Unicode characters');
  }
  if (findings.some((f) => f.kind === 'userinfo')) {
    danger(
      'userinfo_brand',
      0.92,
      'the brand name sits before an "@", so the browser goes elsewhere',
    );
  }
  if (findings.some((f) => f.kind === 'embedded_domain')) {
    const corroborated =
      anyLureHost ||
      highRiskPath ||
      tierAB ||
      hosted ||
      analysis.lexical.some((l) => l.weight >= 0.6);
    if (corroborated)
      danger(
        'embedded_brand_domain',
        0.9,
        "the brand's real domain is only a prefix of a foreign host",
      );
  }
  if (top !== undefined) {
    const lookalikeOnly = hostFindings.every((f) => LOOKALIKE_KINDS.has(f.kind));
    if (highRiskHost) {
      danger(
        'brand_with_lure_words',
        lookalikeOnly ? 0.86 : 0.9,
        'a brand name is paired with credential or wallet lure words',
      );
    }
    if (tierA || (tierAB && (anyLureHost || highRiskPath))) {
      danger(
        'brand_on_abused_tld',
        0.87,
        `a brand name is used under the heavily abused .${analysis.tld ?? ''} TLD`,
      );
    }
    if (hosted && (anyLureHost || highRiskPath)) {
      danger(
        'brand_on_free_hosting',
        0.88,
        'a brand name is used by a tenant of a free hosting platform, with lure words',
      );
    }
    if (!lookalikeOnly && matchesBrandTheme(top, host)) {
      danger(
        'brand_with_theme_words',
        0.86,
        `the brand is paired with words of a typical ${top.brand.category} scam`,
      );
    }
    if (!lookalikeOnly && COMPANY_CRYPTO.has(top.brand.category) && web3Context(analysis, top)) {
      danger(
        'crypto_brand_with_web3_words',
        0.86,
        `${top.brand.name}'s name is used with web3 words on a domain it does not own; its real apps live on its own domain`,
      );
    }
    if (lookalikeOnly && (hosted || highRiskPath)) {
      danger(
        'lookalike_corroborated',
        0.85,
        'a brand lookalike is corroborated by its hosting or path',
      );
    }
    caution('brand_impersonation', 'the host name uses a brand it does not belong to');
  } else if (findings.some((f) => f.kind === 'path')) {
    // A brand in the path: common on compromised sites and free hosting (detection.md §1.5).
    // On a hosting tenant it is suspicious by itself; with credential or wallet words there it is
    // a kit (`/paypal/webscr/login.php` on a tenant); elsewhere it needs those words.
    const lure = highRiskPath || highRiskHost;
    if (hosted && lure) {
      danger(
        'brand_in_path_on_free_hosting',
        0.85,
        'a free hosting tenant serves a brand-named path with lure words',
      );
    } else if (hosted) {
      caution('brand_in_path_on_free_hosting', 'a free hosting tenant serves a brand-named path');
    } else if (lure) {
      caution('brand_in_path', 'the path names a brand next to credential or wallet words');
    }
  }

  // Without a brand, lure words only count on infrastructure phishers favour (detection.md §1.7,
  // §1.8): a free hosting tenant or a heavily abused TLD. A number-or-random name under a tier-A
  // TLD is the shape of throwaway domains. Each is caution at most: a TLD is a prior, not proof.
  const lureAnywhere = [...host, ...path].some(isLureGroup);
  if (top === undefined && lureAnywhere && hosted) {
    caution('lure_on_free_hosting', 'lure words on a free hosting tenant');
  }
  if (top === undefined && lureAnywhere && tierAB) {
    caution('lure_on_abused_tld', `lure words under the heavily abused .${analysis.tld ?? ''} TLD`);
  }
  if (
    tierA &&
    analysis.lexical.some(
      (l) => l.code === 'lexical:digits_in_name' || l.code === 'lexical:random_name',
    )
  ) {
    caution(
      'throwaway_name',
      `a numbered or random name under the heavily abused .${analysis.tld ?? ''} TLD`,
    );
  }
  // Lure words spelled with digits for letters (`ver1fication`): written to slip past filters.
  const disguised = analysis.disguisedWords[0];
  if (disguised !== undefined) {
    const text = `the host spells "${disguised.read}" with digits for letters ("${disguised.written}")`;
    if (hosted || tierAB || top !== undefined) danger('disguised_lure_word', 0.86, text);
    else caution('disguised_lure_word', text);
  }
  if (analysis.url.hasUserinfo) caution('userinfo', 'the link hides its real host behind an "@"');
  if (analysis.url.ipVersion !== null) caution('ip_host', 'the link points at a bare IP address');
  if (analysis.idn.mixedScript || analysis.idn.wholeScriptConfusable || analysis.idn.invisible) {
    caution('deceptive_unicode', 'the host name mixes scripts or hides invisible characters');
  }
  if (analysis.redirector !== null) {
    caution(
      'hidden_destination',
      `${analysis.redirector === 'shortener' ? 'a URL shortener' : 'a link hub'} hides the destination`,
    );
  }
  if (analysis.hosting?.kind === 'tunnel' || analysis.hosting?.kind === 'ddns') {
    caution(
      'tunnel_or_ddns',
      `the site runs on ${analysis.hosting.kind === 'ddns' ? 'a dynamic-DNS name' : 'a temporary tunnel'}`,
    );
  }

  // Wallet-recovery lures need no brand: `seedphrase-validator`, `rectify-wallet` exist only to
  // collect recovery phrases. A free host or an abused TLD under them makes it a kit.
  if (top === undefined && walletRecoveryLure(analysis)) {
    if (hosted || tierAB) {
      danger(
        'wallet_recovery_lure',
        0.86,
        'the name asks for a wallet recovery phrase or "wallet repair", on throwaway infrastructure',
      );
    } else {
      caution(
        'wallet_recovery_lure',
        'the name asks for a wallet recovery phrase or "wallet repair"',
      );
    }
  }

  const { logit, codes } = softScore(analysis, findings);
  const model = analysis.model;
  if (model !== null && model.level !== 'none') {
    codes.push(
      `url_model:${model.level}`,
      ...model.ngrams.map((text) => `url_model_ngram:${text}`),
    );
    // Other evidence: a rule that fired on its own, or lure words in the host. The model alone
    // stays caution, and it never lowers a verdict.
    const corroborated = rules.length > 0 || anyLureHost;
    if (model.level === 'strong' && corroborated) {
      danger(
        'url_model_corroborated',
        0.86,
        'the name closely resembles known phishing sites, and other evidence agrees',
      );
    } else {
      caution('url_model', 'the name resembles those of known phishing sites (learned URL model)');
    }
  }
  return { findings, rules, logit, softCodes: codes };
}

/** Words that name a wallet's recovery secret outright. */
const RECOVERY_SECRET_WORDS: ReadonlySet<string> = new Set([
  'seedphrase',
  'mnemonic',
  'privatekey',
  'keystore',
  'recoveryphrase',
]);

/** Words that place a `seed` word in a wallet context (`rectify` + `wallet`, `sync` + `dapp`). */
const WALLET_WORDS: ReadonlySet<string> = new Set([
  'wallet',
  'wallets',
  'dapp',
  'dapps',
  'defi',
  'web3',
  'walletconnect',
  'connectwallet',
  'validator',
  'node',
  'nodes',
  'token',
  'tokens',
  'nft',
  'nfts',
  'chain',
]);

/**
 * A host that asks for a recovery phrase: a secret's name (`seedphrase`, `mnemonic`), or a
 * `seed` lure (restore, rectify, sync, validate…) next to wallet vocabulary.
 */
function walletRecoveryLure(analysis: UrlAnalysis): boolean {
  const seed = analysis.hostWords.get('seed') ?? [];
  if (seed.some((word) => RECOVERY_SECRET_WORDS.has(word))) return true;
  if (seed.length === 0) return false;
  for (const words of analysis.hostWords.values()) {
    if (words.some((word) => WALLET_WORDS.has(word) && !seed.includes(word))) return true;
  }
  return false;
}

/**
 * Findings worth reporting.
 * - Popular sites keep only userinfo tricks.
 * - A TLD swap counts only under an abused TLD (tiers A–C): a brand's name under a country or
 *   legacy TLD, or an unlisted gTLD, is usually the brand's own defensive or local registration.
 *   Crypto companies are the exception: they run no country sites beyond their listed domains,
 *   and their exact name under any other TLD is a classic wallet-phishing setup.
 *   Measured on the development benign lists: counting every ccTLD swap as caution flagged 6.6 %
 *   of the bank list (`arabbank.jo`, `bankinter.es`), so it stays off.
 * - Brands named by an ordinary word (`apple`, `chase`) need support from the rest of the host: a
 *   lure word, an abused TLD (also as a TLD swap: `apple.cfd`), a homoglyph; path mentions and
 *   lookalikes of them are dropped.
 * - Self-hosted software names (`roundcube.example.org`) need a lure, an abused TLD or a free host.
 * - A brand with only company words around it (`bankofbaroda-usa`, `githubusercontent`) and a
 *   brand inside a subdomain label of someone else's site (`usdc-pay.absolute.com`) need
 *   corroboration: a lure word in the host (not the path: every sign-in page is `/login`), an
 *   abused TLD, or a hosting platform.
 *   Companies name their own secondary domains and customer subdomains exactly like that. The
 *   brand as a whole label (`paypal.anything.in`) or next to other words in the site's own name
 *   (`paypal-offer.com`) is caution without more.
 */
function credibleFindings(analysis: UrlAnalysis): BrandFinding[] {
  const hostLure = [...analysis.hostWords.keys()].some(isLureGroup);
  const abused = analysis.tldTier === 'a' || analysis.tldTier === 'b';
  const hosted = analysis.hosting !== null && !isStorageRoot(analysis.url, analysis.hosting);
  // A lure word in the path does not corroborate a name: every site's sign-in page is `/login`.
  const corroborated = hostLure || abused || hosted;
  return analysis.findings.filter((finding) => {
    if (analysis.popular && finding.kind !== 'userinfo') return false;
    if (
      finding.kind === 'tld_swap' &&
      analysis.tldTier === null &&
      !COMPANY_CRYPTO.has(finding.brand.category)
    ) {
      return false;
    }
    // Self-hosted software names its installs (`roundcube.example.org`, `cpanel.host.net`,
    // `/owa/`): only a lure, an abused TLD or a free host makes its name suspicious.
    if (
      finding.brand.selfHosted &&
      SELF_HOSTED_INSTALL_KINDS.has(finding.kind) &&
      !hostLure &&
      !abused &&
      analysis.hosting === null
    ) {
      return false;
    }
    if (finding.brand.commonWord) {
      if (finding.kind === 'homoglyph' || finding.kind === 'userinfo') return true;
      if (finding.kind === 'path' || finding.kind === 'lookalike') return false;
      // The ordinary word alone as a site name under an abused TLD (`apple.cfd`) is a TLD swap;
      // anywhere else the host must support it with an abused TLD or a lure word that fits the
      // brand (`paket-status` is a parcel lure, not the Status wallet).
      if (finding.kind === 'tld_swap') return abused;
      if (!abused && !lureFitsBrand(finding, analysis.hostWords)) return false;
    }
    // A brand next to other words in a subdomain of someone's site (`usdc-pay.absolute.com`) is
    // how companies name customer and partner hosts, and a brand next to words companies use for
    // their own domains (`bankofbaroda-usa`, `githubusercontent`) is how they name theirs:
    // corroboration needed. The brand's name as a whole label, or next to other words in the
    // site's own name (`paypal-offer.com`, `coinbase-app.com`), is at least caution.
    const needsCorroboration =
      (finding.place === 'subdomain' &&
        finding.kind !== 'embedded_domain' &&
        finding.kind !== 'homoglyph' &&
        finding.kind !== 'brand_label') ||
      (finding.kind === 'combosquat' && finding.context === 'corporate');
    if (needsCorroboration) return corroborated;
    // Weak evidence on its own — a lookalike, a TLD swap under a mildly abused TLD, a short token
    // as a label, a brand next to ordinary words — counts when the learned model finds the name
    // phishing-like too (its `support` threshold) or the usual corroboration is there. Measured
    // on the development data: alone, these flagged 2.1 % of the bank list and 0.9 % of the
    // long-tail benign sites; with the model's support, 0.04 % each, keeping about two thirds of
    // the phishing sites they caught (docs/eval.md).
    return !isWeak(finding, analysis) || corroborated || analysis.model?.supports === true;
  });
}

/**
 * A lure word in the host that fits the brand: credential and account words fit any brand; theme
 * words (delivery, government, support…) the brands of that theme; crypto lures crypto brands.
 */
function lureFitsBrand(
  finding: BrandFinding,
  host: ReadonlyMap<WordGroup, readonly string[]>,
): boolean {
  const groups = new Set(host.keys());
  if (groups.has('credential') || groups.has('account')) return true;
  if (matchesBrandTheme(finding, groups)) return true;
  return (
    CRYPTO_BRAND_CATEGORIES.has(finding.brand.category) &&
    CRYPTO_LURES.some((group) => groups.has(group))
  );
}

/** A finding that alone is too common among legitimate names to count. */
function isWeak(finding: BrandFinding, analysis: UrlAnalysis): boolean {
  switch (finding.kind) {
    case 'lookalike':
      return true;
    case 'combosquat':
      return finding.context !== 'lure';
    case 'tld_swap':
      return analysis.tldTier === 'c' || analysis.tldTier === null;
    case 'brand_label':
      return finding.token.length < MIN_DISTINCTIVE_LENGTH;
    default:
      return false;
  }
}

/** Finding kinds that are how self-hosted software is installed and linked, not disguises. */
const SELF_HOSTED_INSTALL_KINDS: ReadonlySet<FindingKind> = new Set([
  'brand_label',
  'tld_swap',
  'path',
  'combosquat',
]);

function matchesBrandTheme(finding: BrandFinding, host: ReadonlySet<WordGroup>): boolean {
  const themes = THEME_OF_CATEGORY[finding.brand.category] ?? [];
  return (
    themes.some((group) => host.has(group)) ||
    (CRYPTO_BRAND_CATEGORIES.has(finding.brand.category) && host.has('support'))
  );
}

/**
 * Damped log-odds of the weak signals (detection.md §4.2): within a group the strongest counts
 * fully, the next half, the rest a quarter; groups add up.
 */
function softScore(
  analysis: UrlAnalysis,
  findings: BrandFinding[],
): { logit: number; codes: string[] } {
  const codes: string[] = [];
  const groups: number[][] = [[], [], [], []];
  const [infra = [], lexical = [], lure = [], brand = []] = groups;
  const tierWeight = { a: 1.2, b: 0.6, c: 0.2 } as const;
  if (analysis.tldTier !== null) {
    infra.push(tierWeight[analysis.tldTier]);
    codes.push(`tld:${analysis.tld ?? ''}:tier_${analysis.tldTier}`);
  }
  if (analysis.hosting !== null) {
    const weight =
      analysis.hosting.kind === 'tunnel' || analysis.hosting.kind === 'ddns' ? 1.5 : 0.8;
    infra.push(weight);
    codes.push(`hosting:${analysis.hosting.suffix}`);
  }
  if (analysis.redirector !== null) {
    infra.push(1.5);
    codes.push(`redirector:${analysis.url.hostname}`);
  }
  for (const feature of analysis.lexical) {
    lexical.push(feature.weight);
    codes.push(feature.code);
  }
  for (const [group, words] of analysis.hostWords) {
    if (!isLureGroup(group)) continue;
    const weight = HIGH_RISK_GROUPS.includes(group) ? 1.2 : 0.6;
    for (const word of words) {
      lure.push(weight);
      codes.push(`lure:${group}:${word}`);
    }
  }
  for (const [group, words] of analysis.pathWords) {
    if (!isLureGroup(group)) continue;
    for (const word of words) {
      lure.push(HIGH_RISK_GROUPS.includes(group) ? 0.6 : 0.3);
      codes.push(`lure_path:${group}:${word}`);
    }
  }
  for (const finding of findings) brand.push(finding.kind === 'path' ? 1.0 : 2.0);
  let logit = PRIOR_LOGIT + (analysis.popular ? -3.0 : 0);
  for (const weights of groups) {
    weights.sort((a, b) => b - a);
    weights.forEach((weight, index) => {
      logit += weight * (index === 0 ? 1 : index === 1 ? 0.5 : 0.25);
    });
  }
  return { logit, codes: [...new Set(codes)] };
}
