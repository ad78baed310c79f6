/**
 * @module engine/page/analyzers/wallet-drainer
 * Wallet drainers (detection.md §2.1, §6.1, mapping §2.9): pages whose code asks a connected wallet
 * for approvals or signatures that hand its assets to someone else. Matched statically over the
 * script URLs, all code and the strings decoded from it (`page.decoded`), so a kit that hides its
 * method names in a base64 string array is read like plain code.
 *
 * Rules:
 * - **Kit fingerprint** (phish-report IOK drainer indicators, tables in
 *   `wallet-drainer-patterns.ts`): Monkey `chain-common.js` + `chain-bundle.js`, Hardteam
 *   `drainer_v4.js` / `connectAndDrain` / `metamask_spammer`, "Rusc" `sendEth` + `sendToken` +
 *   `sendNFT` + `tgConfig` / `scUniqueId`, Finesse `finesseReceiveAddress`, the settings.js family
 *   (`collectionInfo` + Sign-In-with-Ethereum-looking copy in one small script), trkrsrvrdb /
 *   `PANEL_URL` + `getElementById("drain")`, crew3, the obfuscated `Iil1ililIl1iIl1ill1Ilii`
 *   config, toastr + bootcs, SMU, and Asli pre-sale pages. Danger anywhere, reputable sites
 *   included (compromised sites host kits; §4.2 step 2).
 * - **Drain request** (§2.1 "Request shapes"): `setApprovalForAll`, an unlimited `approve` /
 *   `increaseAllowance`, EIP-2612 / Permit2 typed data (`PermitSingle`, `PermitBatch`,
 *   `PermitTransferFrom`, `PermitBatchTransferFrom`, the Permit2 address), Seaport
 *   `OrderComponents` / Seaport addresses, blind `eth_sign`, Solana `signAllTransactions` with
 *   transfer / set-authority instructions, TRC-20 approvals through `tronWeb`. Every dApp uses these
 *   (§2.1 FP guard: ethers, web3, wagmi, WalletConnect prove nothing), so on a reputable site (a
 *   brand's own or a popular domain: the dApp allowlist) they are ignored, and elsewhere they are
 *   danger only with one of the §2.1 corroborations: the page impersonates a crypto brand, carries
 *   a claim / airdrop lure (SeedBuster `fake_airdrop` wording), or sits on risky infrastructure
 *   (fresh domain, free hosting, abused TLD, URL-level brand finding). Without those: caution when
 *   drainer plumbing is present (Telegram / Discord / panel reporting, a hard-coded receiver
 *   address, drain-named functions), else soft.
 * - **Airdrop lure without a request** (§2.1: "a wallet-connect plus claim lure … without a
 *   captured request → caution + crypto_airdrop_scam"): a wallet connect (code or wording) and an
 *   airdrop promise, on an unknown site; caution with risky infrastructure or a brand, else soft.
 *
 * Threat types: `wallet_drainer` + `crypto_scam`, plus `crypto_airdrop_scam` when the page promises
 * an airdrop, plus `brand_impersonation` (and `brand`) when it names a crypto brand the site does
 * not own.
 */
import type { Brand } from '../../brand/brand-index.js';
import type { SignalName, ThreatType } from '../../verdict.js';
import type { PageContext, PageView } from '../page-context.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import { impersonatedCryptoBrand } from './crypto-brand.js';
import { exfiltrationChannels, firstGroup } from './exfiltration-channels.js';
import {
  AIRDROP_LURE,
  CLAIM_LURE,
  CONNECT_WALLET_TEXT,
  DRAINER_TOKENS,
  type DrainerTokenId,
  KIT_FINGERPRINTS,
  OTHER_LINKS_FAKE,
  PRESALE_LIVE,
  SETTINGS_COLLECTION,
  SIWE_COPY,
} from './wallet-drainer-patterns.js';

/** All tokens in one alternation, one capture group per token, in table order. */
const TOKEN_SCAN = new RegExp(DRAINER_TOKENS.map((token) => `(${token.source})`).join('|'), 'g');
/** Token matches looked at per page (a huge bundle repeats the same few tokens). */
const MAX_TOKEN_MATCHES = 10_000;

/** `approve` with an unlimited amount: a call, or the selector followed by the amount. */
const UNLIMITED_APPROVE =
  /\bapprove\s*\([^)]{0,200}?(?:MaxUint256|MAX_UINT|0xf{64}|115792089237316195423570985008687907853269984665640564039457584007913129639935)|0x095ea7b3[^;\n]{0,200}?(?:f{64}|MAX_UINT|MaxUint256)/i;

/** javascript-obfuscator identifiers (ClickGrab HEAVY_OBFUSCATION_PATTERNS, §6.6). */
const OBFUSCATOR_NAME = /\b_0x[0-9a-f]{4,6}\b/g;
const MIN_OBFUSCATOR_NAMES = 20;

/** A settings.js-family config is a small file; app bundles are large. */
const MAX_SETTINGS_SCRIPT = 20_000;
/** Text read for lures: the identity and the top of the page, where the call to action is. */
const LURE_TEXT_CHARS = 30_000;

/**
 * Wallet-drainer findings of a page.
 *
 * @returns `drainer_kit` (danger), `drainer_request` (danger, caution or soft) and
 *   `airdrop_claim_lure` (caution or soft, only when there is no kit or request), each at most once.
 */
export function analyzeWalletDrainer(page: PageView, context: PageContext): PageFinding[] {
  const tokens = scanTokens(page);
  const kit = kitFingerprint(page, tokens);
  const requests = drainRequests(page, tokens);
  const connects =
    tokens.has('connect wallet') ||
    tokens.has('Solana wallet') ||
    page.doc.buttons.some((button) => CONNECT_WALLET_TEXT.test(button.toLowerCase()));
  if (kit === null && requests.length === 0 && !connects) return [];

  const lureText = `${page.identityLower}\n${page.textLower.slice(0, LURE_TEXT_CHARS)}`;
  const airdrop = AIRDROP_LURE.exec(lureText);
  let brand: Brand | null | undefined;
  const named = (): Brand | null => (brand ??= impersonatedCryptoBrand(page, context));

  const findings: PageFinding[] = [];
  if (kit !== null) {
    findings.push({
      ...classify(named(), airdrop !== null, true),
      id: 'drainer_kit',
      level: 'danger',
      confidence: 0.97,
      weight: 0,
      evidence: excerpt(kit),
      text: 'the page runs a known wallet-drainer kit',
    });
  }

  if (requests.length > 0 && !context.reputable) {
    const claim = airdrop ?? CLAIM_LURE.exec(lureText);
    const corroborated = named() !== null || claim !== null || context.riskyInfrastructure;
    const plumbing = drainerPlumbing(page, tokens);
    const level = corroborated ? 'danger' : plumbing.strong ? 'caution' : 'soft';
    const lure = claim === null ? '' : `; lure "${excerpt(claim[0], 30)}"`;
    findings.push({
      ...classify(named(), airdrop !== null, true),
      id: 'drainer_request',
      level,
      confidence: level === 'danger' ? 0.9 : level === 'caution' ? 0.65 : 0.4,
      weight: level === 'soft' ? 1.5 : 0,
      evidence: excerpt(
        [requests.join(' + '), plumbing.names.length > 0 ? `with ${plumbing.names.join(', ')}` : '']
          .filter((part) => part !== '')
          .join(' ') + lure,
      ),
      text: 'the page asks the wallet for approvals or signatures that hand over its assets',
    });
  } else if (kit === null && requests.length === 0 && airdrop !== null && !context.reputable) {
    const corroborated = named() !== null || context.riskyInfrastructure;
    findings.push({
      ...classify(named(), true, false),
      id: 'airdrop_claim_lure',
      level: corroborated ? 'caution' : 'soft',
      confidence: corroborated ? 0.7 : 0.4,
      weight: corroborated ? 0 : 1,
      evidence: excerpt(`wallet connect + "${airdrop[0]}"`),
      text: 'the page promises an airdrop to wallets that connect',
    });
  }
  return findings;
}

/**
 * Threat types, signals and brand of a finding: `wallet_drainer` (when code drains) and
 * `crypto_scam`, `crypto_airdrop_scam` with an airdrop lure, `brand_impersonation` with a brand.
 */
function classify(
  brand: Brand | null,
  airdrop: boolean,
  drainer: boolean,
): Pick<PageFinding, 'threatTypes' | 'signals' | 'group' | 'brand'> {
  const types: (ThreatType & Exclude<SignalName, 'fresh_domain' | 'known_threat'>)[] = [];
  if (drainer) types.push('wallet_drainer');
  types.push('crypto_scam');
  if (airdrop) types.push('crypto_airdrop_scam');
  if (brand !== null) types.push('brand_impersonation');
  return { threatTypes: types, signals: types, group: 'content', ...(brand ? { brand } : {}) };
}

/** Tokens present in script URLs, code and decoded strings, with the first matched text. */
function scanTokens(page: PageView): Map<DrainerTokenId, string> {
  const found = new Map<DrainerTokenId, string>();
  const sources = [
    page.doc.scripts.map((script) => script.src ?? '').join('\n'),
    page.code,
    ...page.decoded,
  ];
  let seen = 0;
  for (const source of sources) {
    for (const match of source.matchAll(TOKEN_SCAN)) {
      const token = DRAINER_TOKENS[firstGroup(match) - 1];
      if (token !== undefined && !found.has(token.id)) found.set(token.id, match[0]);
      seen += 1;
      if (seen >= MAX_TOKEN_MATCHES) return found;
    }
  }
  return found;
}

/** The first kit fingerprint the page matches, as evidence (`Monkey Drainer: a + b`), or null. */
function kitFingerprint(
  page: PageView,
  tokens: ReadonlyMap<DrainerTokenId, string>,
): string | null {
  for (const { kit, anyOf } of KIT_FINGERPRINTS) {
    const all = anyOf.find((set) => set.every((id) => tokens.has(id)));
    if (all !== undefined) return `${kit}: ${all.map((id) => tokens.get(id) ?? id).join(' + ')}`;
  }
  for (const script of page.doc.scripts) {
    const small =
      script.code.length <= MAX_SETTINGS_SCRIPT || /settings\.js(?:[?#]|$)/i.test(script.src ?? '');
    if (small && SETTINGS_COLLECTION.test(script.code) && SIWE_COPY.test(script.code)) {
      return 'settings.js kit: collectionInfo + "will not trigger a blockchain transaction"';
    }
  }
  if (page.textLower.includes('other links are fake')) {
    const text = page.textLower;
    if (PRESALE_LIVE.test(text) && OTHER_LINKS_FAKE.test(text)) {
      return 'Asli pre-sale kit: "PRE-SALE IS LIVE" + "All other links are FAKE"';
    }
  }
  return null;
}

/** Requests that can hand a wallet's assets over, by name. */
function drainRequests(page: PageView, tokens: ReadonlyMap<DrainerTokenId, string>): string[] {
  const out: string[] = [];
  if (tokens.has('setApprovalForAll')) out.push('setApprovalForAll');
  if (
    tokens.has('approve') &&
    tokens.has('max amount') &&
    [page.code, ...page.decoded].some((source) => UNLIMITED_APPROVE.test(source))
  ) {
    out.push('unlimited approve');
  }
  if (tokens.has('increaseAllowance')) out.push('increaseAllowance');
  const permit = tokens.get('Permit typed data');
  if (permit !== undefined) out.push(`${excerpt(permit, 30)} signature`);
  else if (tokens.has('Permit2')) out.push('Permit2');
  if (tokens.has('Seaport order')) out.push('Seaport order');
  if (tokens.has('eth_sign')) out.push('eth_sign');
  if (
    tokens.has('signAllTransactions') &&
    (tokens.has('Solana transfer') || tokens.has('Solana owner change'))
  ) {
    out.push(
      `signAllTransactions + ${tokens.get('Solana owner change') ?? tokens.get('Solana transfer') ?? ''}`,
    );
  } else if (tokens.has('Solana owner change')) {
    out.push(tokens.get('Solana owner change') ?? 'Solana owner change');
  }
  if (
    tokens.has('tronWeb') &&
    (tokens.has('increaseApproval') || out.includes('unlimited approve'))
  ) {
    out.push('TRC-20 approval');
  }
  return out;
}

/**
 * What drainers do around the request, by name: report victims, hard-code the receiver, name
 * functions after draining, enumerate assets, hide their config. `strong` when one of the first
 * three is present: a dApp enumerates assets and minifies its code, it does not report connected
 * wallets to a Telegram bot.
 */
function drainerPlumbing(
  page: PageView,
  tokens: ReadonlyMap<DrainerTokenId, string>,
): { names: string[]; strong: boolean } {
  const names: string[] = [];
  for (const channel of exfiltrationChannels([page.code, ...page.decoded])) {
    if (channel.kind === 'telegram') names.push('Telegram reporting');
    else if (channel.kind === 'discord') names.push('Discord webhook');
    else if (channel.kind === 'collector') names.push('panel');
  }
  for (const id of ['receiver address', 'drain naming'] as const) {
    if (tokens.has(id)) names.push(id);
  }
  const strong = names.length > 0;
  if (tokens.has('asset enumeration')) names.push('asset enumeration');
  if (tokens.has('CryptoJS AES config')) names.push('encrypted config');
  if (tokens.has('debugger trap') || obfuscated(page.code)) names.push('obfuscation');
  return { names, strong };
}

/** True when the code has many javascript-obfuscator `_0x…` names. */
function obfuscated(code: string): boolean {
  OBFUSCATOR_NAME.lastIndex = 0;
  for (let count = 0; count < MIN_OBFUSCATOR_NAMES; count += 1) {
    if (OBFUSCATOR_NAME.exec(code) === null) return false;
  }
  return true;
}
