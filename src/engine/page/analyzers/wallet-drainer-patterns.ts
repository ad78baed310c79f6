/**
 * @module engine/page/analyzers/wallet-drainer-patterns
 * Data for the wallet-drainer analyzer (`wallet-drainer.ts`): the code tokens of detection.md §2.1
 * and §6.1 and the kit fingerprints they combine into, plus the lure wording of §2.1 "Lure text"
 * (SeedBuster `fake_airdrop`) in the languages drainer fronts use.
 *
 * Token sources: drainer kit fingerprints from phish-report IOK indicators (Monkey, Hardteam,
 * "Rusc", Finesse, settings.js family, trkrsrvrdb, crew3, toastr/bootcs, SMU, Asli pre-sale);
 * selectors are the standard Keccak-256 function selectors (checked in
 * `test/page/wallet-drainer.test.ts`); the Permit2 and Seaport addresses are the canonical
 * deployments; asset-enumeration endpoints per ScamSniffer's captures (Moralis, Ankr, Alchemy,
 * OpenSea, Covalent, DeBank); Solana instruction builders per the dev.to "Anatomy of a Solana wallet
 * drainer" and GoPlus write-ups.
 */

/**
 * A code token: an id and a case-sensitive pattern (no capture groups, linear). Case-sensitive
 * because a case-insensitive alternation scans large bundles several times slower; identifiers are
 * matched as written and hex constants through {@link anyCase}.
 */
interface DrainerToken {
  id: string;
  source: string;
}

/** A literal whose letters match in either case (`0xA22cb465` and `0xa22CB465`). */
function anyCase(literal: string): string {
  return literal.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/** Tokens looked for in script URLs, code and decoded strings, in one combined pass. */
export const DRAINER_TOKENS = [
  // Kit fingerprints (IOK).
  { id: 'chain-common.js', source: String.raw`chain-common\.js` },
  { id: 'chain-bundle.js', source: String.raw`chain-bundle\.js` },
  { id: 'drainer_v4.js', source: String.raw`drainer_v4\.js` },
  { id: 'connectAndDrain', source: String.raw`\bconnectAndDrain\b` },
  { id: 'metamask_spammer', source: String.raw`\bmetamask_spammer\b` },
  { id: 'hardteam.site', source: String.raw`hardteam\.site` },
  { id: 'import_main.js', source: String.raw`\bimport_main\.js` },
  { id: 'sendEth', source: String.raw`\bsendEth\b` },
  { id: 'sendToken', source: String.raw`\bsendToken\b` },
  { id: 'sendNFT', source: String.raw`\bsendNFT\b` },
  { id: 'scUniqueId', source: String.raw`\bscUniqueId\b` },
  { id: 'tgConfig', source: String.raw`\btgConfig\b` },
  { id: 'finesseReceiveAddress', source: String.raw`\bfinesseReceiveAddress\b|\bminETHFinesse\b` },
  { id: 'trkrsrvrdb.com', source: String.raw`trkrsrvrdb\.com` },
  { id: 'PANEL_URL', source: String.raw`\bPANEL_URL\b` },
  { id: 'getElementById("drain")', source: String.raw`getElementById\(\s*["']drain["']\s*\)` },
  { id: 'main.69e3e80e.js', source: String.raw`\bmain\.69e3e80e\.js` },
  { id: 'shakeima', source: String.raw`\bshakeima\b` },
  { id: 'Iil1ililIl1iIl1ill1Ilii', source: String.raw`\bIil1ililIl1iIl1ill1Ilii\b` },
  { id: 'toastr.js', source: String.raw`\btoastr(?:\.min)?\.js` },
  { id: 'bootcs.com/fav.ico', source: String.raw`bootcs\.com\/fav\.ico` },
  { id: 'showMess.js', source: String.raw`\bshowMess\.js` },
  { id: 'showSuccess', source: String.raw`\bshow(?:Success|Error|Info)\s*\(` },
  // Wallet requests (§2.1 "Request shapes", §6.1).
  { id: 'setApprovalForAll', source: String.raw`\bsetApprovalForAll\b|` + anyCase('0xa22cb465') },
  { id: 'increaseAllowance', source: String.raw`\bincreaseAllowance\b|0x39509351` },
  { id: 'approve', source: anyCase('0x095ea7b3') + String.raw`|\bapprove\s*\(` },
  {
    id: 'max amount',
    source: String.raw`\bMaxUint256\b|\bMAX_UINT(?:256)?\b|\bmaxUint256\b|[fF]{64}|115792089237316195423570985008687907853269984665640564039457584007913129639935|1461501637330902918203684832716283019655932542975`,
  },
  {
    id: 'Permit typed data',
    source:
      String.raw`\bPermit(?:Single|Batch|TransferFrom|BatchTransferFrom|WitnessTransferFrom)\b|primaryType["']?\s*:\s*["']Permit["']|` +
      anyCase('0xd505accf'),
  },
  { id: 'Permit2', source: anyCase('0x000000000022d473030f116ddee9f6b43ac78ba3') },
  {
    id: 'Seaport order',
    source: [
      String.raw`\bOrderComponents\b`,
      anyCase('0x00000000000000adc04c56bf30ac9d3c0aaf14dc'),
      anyCase('0x0000000000000068f116a894984e2db1123eb395'),
    ].join('|'),
  },
  {
    id: 'eth_signTypedData',
    source: String.raw`\beth_signTypedData(?:_v[34])?\b|\b_?signTypedData\s*\(`,
  },
  { id: 'eth_sign', source: String.raw`["']eth_sign["']` },
  { id: 'signAllTransactions', source: String.raw`\bsignAllTransactions\b` },
  {
    id: 'Solana transfer',
    source: String.raw`SystemProgram\.transfer\b|\bcreate(?:Transfer|TransferChecked)Instruction\b|\bnonceAdvance\b`,
  },
  {
    id: 'Solana owner change',
    source: String.raw`SystemProgram\.assign\b|\bcreate(?:SetAuthority|Approve)Instruction\b`,
  },
  { id: 'tronWeb', source: String.raw`\btronWeb\b` },
  { id: 'increaseApproval', source: String.raw`\bincreaseApproval\b` },
  // Corroboration: what drainers do around the request.
  {
    id: 'asset enumeration',
    source: String.raw`deep-index\.moralis\.io|\bankr_getAccountBalance\b|\balchemy_getTokenBalances\b|\bgetTokenBalances\b|\bgetNFTs(?:ForOwner)?\b|api\.opensea\.io\/|covalenthq\.com|api\.debank\.com`,
  },
  {
    id: 'receiver address',
    source: String.raw`\b(?:[rR]eceiver|RECEIVER|[rR]ecipient|RECIPIENT|[rR]eceive_?[aA]ddress|RECEIVE_?ADDRESS|[dD]rain[A-Za-z_]{0,12}|DRAIN_[A-Z_]{1,12}|initiator)["']?\s*[:=]\s*["'](?:0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})["']`,
  },
  {
    id: 'drain naming',
    source: String.raw`\b[dD]rain(?:NFTs?|Tokens?|Wallet|Address|Eth|Native|All|er)\b|\bDRAIN_[A-Z]+\b`,
  },
  { id: 'debugger trap', source: String.raw`\(\s*["']debugger["']\s*\)|\bdebugger\s*;` },
  { id: 'CryptoJS AES config', source: String.raw`U2FsdGVkX1|CryptoJS\.AES\.decrypt` },
  { id: 'connect wallet', source: String.raw`\beth_requestAccounts\b|\bethereum\.enable\s*\(` },
  {
    id: 'Solana wallet',
    source: String.raw`\bphantom\.solana\b|\bsolana\.connect\s*\(|\bsolflare\b|\bbackpack\b`,
  },
] as const satisfies readonly DrainerToken[];

/** Ids of {@link DRAINER_TOKENS}, for the fingerprint and rule tables below. */
export type DrainerTokenId = (typeof DRAINER_TOKENS)[number]['id'];

/**
 * Drainer kit fingerprints (IOK): the kit name and alternatives, each a set of tokens that must all
 * be present. Kits churn; these are the documented examples, meant to be refreshed from IOK.
 */
export const KIT_FINGERPRINTS: readonly { kit: string; anyOf: readonly DrainerTokenId[][] }[] = [
  { kit: 'Monkey Drainer', anyOf: [['chain-common.js', 'chain-bundle.js']] },
  {
    kit: 'Hardteam drainer',
    anyOf: [['drainer_v4.js'], ['connectAndDrain'], ['metamask_spammer'], ['hardteam.site']],
  },
  {
    kit: 'Rusc drainer',
    anyOf: [
      ['scUniqueId'],
      ['sendEth', 'sendToken', 'sendNFT', 'tgConfig'],
      ['sendEth', 'sendToken', 'sendNFT', 'import_main.js'],
    ],
  },
  { kit: 'Finesse drainer', anyOf: [['finesseReceiveAddress']] },
  {
    kit: 'trkrsrvrdb drainer',
    anyOf: [['trkrsrvrdb.com'], ['PANEL_URL', 'getElementById("drain")']],
  },
  { kit: 'crew3 drainer', anyOf: [['main.69e3e80e.js', 'shakeima']] },
  { kit: 'obfuscated drainer config', anyOf: [['Iil1ililIl1iIl1ill1Ilii']] },
  { kit: 'toastr/bootcs drainer', anyOf: [['toastr.js', 'bootcs.com/fav.ico']] },
  { kit: 'SMU drainer', anyOf: [['showMess.js', 'showSuccess']] },
];

/**
 * The settings.js kit family (IOK): `collectionInfo` next to copy imitating a Sign-In with Ethereum
 * message. Matched within one small script (see the analyzer): NFT marketplaces show the same
 * sign-in sentence in their own, large bundles.
 */
export const SETTINGS_COLLECTION = /\bcollectionInfo\b/;
export const SIWE_COPY = /will not trigger a blockchain transaction or cost any gas fees/i;

/** Asli pre-sale pages (IOK): both sentences in the page text (lower-cased). */
export const PRESALE_LIVE = /pre-?sale is live/;
export const OTHER_LINKS_FAKE = /all other links are fake/;

/**
 * A claim lure, broad (§2.1 "Lure text", §6.1): corroborates a wallet request on an unknown site.
 * Lower-cased text.
 */
export const CLAIM_LURE = new RegExp(
  [
    String.raw`airdrop`,
    String.raw`claim\s*(?:now|airdrop|rewards?|tokens?|your|\$)`,
    String.raw`unclaimed`,
    String.raw`check\s*(?:your\s*)?eligibility`,
    String.raw`you\s*are\s*eligible|eligible\s*(?:wallets?|address(?:es)?|users?)`,
    String.raw`allocation`,
    String.raw`free\s*mint|mint\s*now|whitelist`,
    String.raw`pre-?sale`,
    String.raw`(?:rectify|sync|validate|migrate|fix|verify)\s*(?:your\s*)?(?:wallet|assets)`,
    String.raw`revoke\s*(?:approvals?|allowances?)`,
    String.raw`collab\.?land`,
    // Spanish, Portuguese, French, German, Italian, Turkish, Russian.
    String.raw`reclam[ae]r?\s*(?:(?:tu|su|seu|sua)\s*)?(?:airdrop|tokens?|recompensas?)`,
    String.raw`resgat(?:ar|e)\s*(?:(?:seu|sua)\s*)?(?:airdrop|tokens?|recompensas?)`,
    String.raw`r[ée]clamez|r[ée]clamer\s*(?:vos\s*)?(?:tokens?|jetons|r[ée]compenses)`,
    String.raw`jetzt\s*(?:beanspruchen|abholen)|berechtigung\s*pr[üu]fen`,
    String.raw`riscatta|rivendica`,
    String.raw`talep\s*et|uygunluk`,
    String.raw`аирдроп|получить\s*токены`,
  ].join('|'),
);

/**
 * An airdrop lure, narrow: the page promises free tokens to eligible wallets. Gives the
 * `crypto_airdrop_scam` type. Lower-cased text.
 */
export const AIRDROP_LURE =
  /airdrop|check\s*(?:your\s*)?eligibility|you\s*are\s*eligible|eligible\s*(?:wallets?|address(?:es)?)|claim\s*(?:your\s*)?(?:airdrop|tokens?|allocation|\$[a-z]{2,6})|free\s*mint|аирдроп/;

/** A wallet-connect call to action in visible wording (buttons, headings, text). */
export const CONNECT_WALLET_TEXT =
  /connect\s*(?:your\s*)?wallet|conectar\s*(?:(?:su|tu|sua)\s*)?(?:billetera|cartera|carteira|wallet)|connecte[rz]\s*(?:votre\s*)?(?:portefeuille|wallet)|wallet\s*verbinden|connetti\s*(?:il\s*tuo\s*)?(?:portafoglio|wallet)|c[üu]zdan[ıi]\s*ba[gğ]la|подключить\s*кошел[её]к/;
