/**
 * @module engine/page/analyzers/crypto-scam-patterns
 * Data for the crypto-scam analyzer (`crypto-scams.ts`): the giveaway / doubler wording and the
 * fake mining and investment platform wording of detection.md §2.8, in the languages these pages
 * are written in. Sources: IOK `fake-crypto-giveaway-cbn4xt8m` ("send X get 2X back",
 * `MULTIPLIER = 2`, `GIVEAWAY_AMOUNT`), IOK `ark-investment-crypto` (celebrity imagery, hidden
 * `address_eth` / `address_btc`), SeedBuster `crypto_doubler` ("waiting confirmation", "generated
 * address"), the IOK fake-crypto-mining and fake-crypto-trading kit file lists (`ReceiveVoucher`,
 * `MiningPool`, `DeFi_Mining`, `yuebaoIndex`, `warmReminder`, `inviteRequired`).
 *
 * Text patterns run on lower-cased text (NFKC) and use only literals and bounded classes.
 */

/**
 * The doubling promise: "send BTC and get 2× back", "we send double the amount back", "send 1 BTC,
 * receive 2 BTC" (groups 1 and 2 hold the two amounts; the analyzer checks the second is about
 * twice the first).
 */
export const DOUBLER_PROMISE = new RegExp(
  [
    String.raw`\bsend\b[^.!?\n]{0,80}?\b(?:get|receive)\s*(?:back\s*)?(?:the\s*)?(?:2\s*[x×]|[x×]\s*2\b|double\b|twice\b)`,
    String.raw`\bsend\s*(?:from\s*)?(\d{1,6}(?:[.,]\d{1,8})?)\s*(?:btc|eth|usdt|sol|xrp|bnb|doge|ada|trx)\b[^.!?\n]{0,40}?\b(?:get|receive)\s*(\d{1,6}(?:[.,]\d{1,8})?)\s*(?:btc|eth|usdt|sol|xrp|bnb|doge|ada|trx)\b`,
    String.raw`(?:\b2\s*[x×]|\bdouble\b|\btwice\b)\s*(?:the\s*)?(?:amount\s*)?(?:you\s*sent\s*)?back\b`,
    String.raw`\bdouble\s*(?:your|the)\s*(?:btc|eth|bitcoin|ethereum|crypto|coins?|usdt|sol|xrp|amount|deposit)`,
    // Spanish, Portuguese, French, German, Italian, Russian, Turkish.
    String.raw`recib[ae]s?\s*(?:el\s*)?doble|(?:te\s*)?devolvemos\s*el\s*doble`,
    String.raw`receb[ae]r?\s*(?:o\s*)?dobro|devolvemos\s*o\s*dobro`,
    String.raw`rece(?:vez|voir)\s*(?:le\s*)?double|doublez\s*vos`,
    String.raw`doppelten?\s*(?:betrag\s*|menge\s*)?zur[üu]ck`,
    String.raw`ricev(?:i|ere)\s*(?:il\s*)?doppio`,
    String.raw`вдвое\s*больше|в\s*2\s*раза\s*больше|удвои[мт]`,
    String.raw`iki\s*kat[ıi]n[ıi]`,
  ].join('|'),
  'g',
);

/** A giveaway announcement. */
export const GIVEAWAY =
  /\bgive\s*away\b|\bgiveaway\b|\bgiving\s*away\b|\bsorteo\b|\bdistribution\s*gratuite\b|\bverlosung\b|\bраздач/;

/** Names these pages borrow (IOK `ark-investment-crypto`, SeedBuster `crypto_doubler`). */
export const CELEBRITY =
  /elon\s*musk|\bmusk\b|vitalik|buterin|saylor|cathie\s*wood|ark\s*invest|changpeng|\btesla\b|\bspacex\b|garlinghouse|mrbeast|jack\s*dorsey/;

/** The doubler's processing copy (SeedBuster `crypto_doubler`). */
export const DOUBLER_COPY =
  /waiting\s*(?:for\s*)?(?:your\s*)?(?:transaction\s*)?confirmation|generated\s*address|address\s*(?:was\s*)?generated|one\s*participation\s*per|only\s*one\s*participation/;

/** Kit constants and element names in code or fields (IOK, case-sensitive as written). */
export const DOUBLER_CODE =
  /\bMULTIPLIER\s*=\s*2\b|\bGIVEAWAY_AMOUNT\b|\baddress_(?:btc|eth|usdt|sol|trx|bnb)\b/;

/** Words near a quoted lure that show the page is warning about it (security blogs, news). */
export const SCAM_TALK =
  /\bscam|\bfraud|\bbetrug|\bestafa|\barnaque|\bgolpe|\btruffa|\boplichting|мошенни|dolandırıcı/;

/**
 * Guaranteed or per-day returns (§2.8 "guaranteed daily returns", "APY 1%/day"). The rate, when
 * there is one, is the first number captured by group 1 or 2.
 */
export const HIGH_YIELD = new RegExp(
  [
    String.raw`guaranteed\s*(?:daily\s*|weekly\s*|monthly\s*)?(?:returns?|profits?|income|earnings|roi|payouts?)`,
    String.raw`(?:daily|per\s*day)\s*(?:profit|return|income|roi|earning|yield)s?\s*(?:of\s*)?(?:up\s*to\s*)?(\d{1,3}(?:[.,]\d{1,2})?)\s*%`,
    String.raw`(\d{1,3}(?:[.,]\d{1,2})?)\s*%\s*(?:daily|per\s*day|a\s*day|every\s*day|\/\s*day|per\s*24\s*h|every\s*24\s*hours|al\s*d[íi]a|por\s*d[íi]a|ao\s*dia|par\s*jour|pro\s*tag|am\s*tag|al\s*giorno|в\s*день|günlük)`,
    String.raw`ganancias?\s*garantizadas?|rentabilidad\s*diaria|rendimiento\s*diario`,
    String.raw`lucros?\s*garantidos?|(?:lucro|rendimento)\s*di[áa]rio`,
    String.raw`profits?\s*garantis|rendement\s*quotidien`,
    String.raw`garantierte\s*(?:rendite|gewinne?)|t[äa]gliche\s*rendite`,
    String.raw`profitti\s*garantiti|rendimento\s*giornaliero`,
    String.raw`гарантированн[а-я]{0,4}\s*доход`,
    String.raw`garantili\s*kazan[çc]`,
  ].join('|'),
  'g',
);

/** Crypto words that make a yield promise a crypto-investment promise. */
export const CRYPTO_WORDS =
  /\b(?:btc|bitcoin|eth|ethereum|usdt|usdc|trx|tron|bnb|crypto|cripto|krypto|mining|staking|defi|blockchain|tokens?|coins?)\b|криптовалют|майнинг|minería|mineração/;

/** IOK fake mining / trading kit file and function names. */
export const INVESTMENT_KIT =
  /(?:yuebaoIndex|MiningPool|DeFi_Mining|ReceiveVoucher|warmReminder|inviteRequired)\b/g;
