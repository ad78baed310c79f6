/**
 * @module engine/page/analyzers/social-patterns
 * Social-engineering patterns (detection.md §2.8, §2.7 `no_contact_info`, §2.0 cloaking, §6.6
 * obfuscation and visitor checks). Text patterns are lower-case and case-sensitive: they run on
 * the NFKC lower-cased page text (`textLower`), and V8 runs a long alternation about twenty times
 * slower with Unicode case folding. Patterns on original-case text or code say so. Every open span
 * is bounded (`[^.!?\n]{0,40}`) so each pattern is one linear pass.
 */

/**
 * Urgency phrases (§2.8 list and its multilingual equivalents: "dentro de 24 horas", "dans les 24
 * heures", "innerhalb von 24 Stunden", "entro 24 ore", "binnen 24 uur", "w ciągu 24 godzin",
 * "24時間以内"), plus account-closure threats, final notices, stock and time limits.
 */
export const URGENCY = new RegExp(
  [
    // EN
    String.raw`within (?:the next )?\d{1,2} ?(?:hours?|hrs?|minutes?|mins?|days?)\b`,
    String.raw`within <?\d{1,2}:\d{2}`,
    String.raw`\bexpires? (?:in|today|soon|within)\b`,
    String.raw`\b(?:account|access|card|service|page|subscription|profile|mailbox|wallet)[^.!?\n]{0,40}\b(?:will|may) be (?:permanently )?(?:suspended|closed|locked|disabled|deleted|terminated|blocked|restricted|deactivated|cancell?ed)`,
    String.raw`\bfinal (?:notice|warning|reminder)\b`,
    String.raw`\blast (?:chance|warning|notice|reminder)\b`,
    String.raw`\b(?:call|contact|pay|verify|update|act)(?:\s+[\p{L}-]+){0,3}\s+(?:immediately|right away)\b`,
    String.raw`\bonly \d{1,3} (?:left|remaining|items? left|units? left)\b`,
    String.raw`\blimited[- ]time (?:offer|only)\b`,
    String.raw`\b(?:offer|sale|deal) ends (?:today|tonight|soon|in)\b`,
    String.raw`\btoday only\b`,
    String.raw`\b(?:due date:? today|due today)\b`,
    String.raw`\bwill be returned to (?:the )?sender\b`,
    // ES
    String.raw`dentro de (?:las )?(?:próximas )?\d{1,2} horas`,
    String.raw`en las próximas \d{1,2} horas`,
    String.raw`\b(?:cuenta|acceso|servicio)[^.!?\n]{0,30}\b(?:será|sera|se) (?:suspendid[ao]|cerrará|cerrada|bloquead[ao]|cancelad[ao]|eliminad[ao])`,
    String.raw`último aviso`,
    String.raw`\bs[oó]lo quedan \d+`,
    String.raw`oferta por tiempo limitado`,
    String.raw`\b(?:vence|vencimiento es) hoy\b`,
    String.raw`será devuelto al remitente`,
    // PT
    String.raw`\b(?:em|dentro de|nas próximas) (?:até )?\d{1,2} horas`,
    String.raw`\b(?:conta|acesso)[^.!?\n]{0,30}\bser[aá] (?:bloquead|suspens|encerrad|cancelad)`,
    String.raw`bloqueio da sua conta`,
    String.raw`\b(?:apenas|somente|só) (?:restam )?\d{1,3} (?:unidades|itens|restantes)`,
    String.raw`restam apenas \d+`,
    String.raw`\b(?:somente|só|apenas) hoje\b`,
    String.raw`\bem até \d{1,2}:\d{2}`,
    // FR
    String.raw`dans les \d{1,2} ?(?:heures|h)\b`,
    String.raw`\bsous \d{1,2} ?(?:heures|h)\b`,
    String.raw`\b(?:compte|accès|dossier)[^.!?\n]{0,30}\b(?:sera|va être) (?:suspendu|bloqué|fermé|désactivé|supprimé|clôturé)`,
    String.raw`dernier (?:avis|rappel|avertissement)`,
    String.raw`\bplus que \d+ (?:exemplaires?|articles?|pièces?)`,
    String.raw`\b(?:appelez|payez|contactez|vérifiez)(?:\s+[\p{L}'-]+){0,2}\s+immédiatement`,
    String.raw`offre (?:limitée|expire)`,
    // DE
    String.raw`innerhalb (?:von |der nächsten )?\d{1,2} (?:stunden|tagen|minuten)`,
    String.raw`\b(?:konto|zugang|anschluss|karte)[^.!?\n]{0,60}(?:gesperrt|sperrung|deaktiviert|gelöscht)`,
    String.raw`letzte mahnung`,
    String.raw`\bnur noch \d+`,
    String.raw`\bnur (?:noch )?heute\b`,
    String.raw`angebot endet`,
    String.raw`\b(?:rufen sie|kontaktieren sie|zahlen sie|bezahlen sie)\s+(?:sofort|umgehend|unverzüglich)`,
    // IT
    String.raw`\bentro \d{1,2} ore\b`,
    String.raw`\b(?:account|conto)[^.!?\n]{0,30}\b(?:sarà|verrà) (?:sospeso|bloccato|chiuso|disattivato)`,
    String.raw`ultimo avviso`,
    String.raw`\bsolo \d+ rimast`,
    String.raw`\b(?:chiama|paga|contatta)(?:\s+[\p{L}'-]+){0,2}\s+immediatamente`,
    // NL
    String.raw`binnen \d{1,2} uur`,
    String.raw`laatste (?:herinnering|aanmaning)`,
    String.raw`\b(?:account|rekening)[^.!?\n]{0,30}\bwordt (?:geblokkeerd|opgeschort|gesloten)`,
    String.raw`\bnog maar \d+`,
    // PL
    String.raw`w ciągu \d{1,2} godzin`,
    String.raw`ostatnie (?:wezwanie|ostrzeżenie)`,
    String.raw`konto zostanie zablokowane`,
    // TR
    String.raw`\d{1,2} saat içinde`,
    // JA
    String.raw`\d{1,2}時間以内`,
    String.raw`本日中`,
    String.raw`永久に停止`,
    // ZH
    String.raw`\d{1,2}小时内`,
    String.raw`账户将被冻结`,
  ].join('|'),
  'u',
);

/**
 * Countdown timers in code (§2.8, SeedBuster: a timer updated every second, variables such as
 * `countdown`, `timer`, `updateCountdown`). Code patterns, applied to `PageView.code`.
 */
export const TIMER_CALL = /\bset(?:Interval|Timeout)\s*\(/;
export const COUNTDOWN_NAME =
  /\b(?:count_?down|update_?count_?down|timer|time_?left|remaining_?time|deadline)\b|getElementById\(\s*["'](?:cd|countdown|timer|clock|t)["']\)/i;
/** Seconds split into minutes and hours: `s % 60` together with `/ 60` or `/ 3600`. */
export const SECONDS_MODULO = /%\s*60\b/;
export const SECONDS_DIVIDE = /\/\s*(?:60|3600)\b/;

/**
 * Displayed discounts: `-90%`, `90% off`, `90% Rabatt`, `85% de desconto`, `-25 %`. The
 * percentage is the first or second group.
 */
export const DISCOUNT =
  /(?:[-−–]\s?(\d{1,2})\s?%|(\d{1,2})\s?%\s?(?:off|rabatt|reduziert|de desconto|desconto|de descuento|descuento|dto|de réduction|de remise|sconto|di sconto|korting|zniżki|rabatu|indirim))/gu;

/** Returns too good to be true: doublers and guaranteed profits (§2.8, §2.9 doubler). */
export const TOO_GOOD_RETURNS = new RegExp(
  [
    String.raw`\b(?:send|sending|deposit|transfer)\b[^.!?\n]{0,160}\b(?:double|twice|2x|x2)\b`,
    String.raw`\b(?:double|2x|x2) (?:the amount|your (?:btc|eth|crypto|bitcoin|money|deposit|investment))`,
    String.raw`\b(?:receive|get) (?:back )?(?:double|2x|twice)\b`,
    String.raw`\bguaranteed (?:daily )?(?:returns?|profits?)\b`,
    String.raw`\b\d{1,2}(?:[.,]\d+)? ?% (?:daily|per day|a day|ao dia|por día|par jour|pro tag)\b`,
  ].join('|'),
  'u',
);

/** Up to `n` characters within one sentence; a dot between digits (`0.1 BTC`) does not end it. */
const SPAN = (n: number): string => String.raw`(?:[^.!?\n]|\.(?=\d)){0,${n}}`;
const CRYPTO = String.raw`(?:crypto|cripto|krypto|bitcoin|btc|usdt|tether|ethereum|eth|monero|xmr|litecoin|ltc)`;
const ONLY = String.raw`(?:only|exclusively|solely|somente|apenas|exclusivamente|únicamente|solamente|solo|uniquement|seulement|nur|ausschließlich|esclusivamente|alleen)`;
/** Payment accepted only in cryptocurrency (§2.8 brief: "payment only in crypto"). */
export const CRYPTO_ONLY = new RegExp(
  [
    String.raw`\b(?:pay|payment|pagamento|pago|paiement|zahlung|bezahlung|pagar|payer|zahlen)\b[^.!?\n]{0,40}\b${ONLY}\b[^.!?\n]{0,30}\b${CRYPTO}`,
    String.raw`\b${ONLY}\s+(?:accept\w*|aceit\w*|acept\w*|akzeptier\w*|accett\w*)\b[^.!?\n]{0,30}\b${CRYPTO}`,
  ].join('|'),
  'u',
);
/** Refusing cards and bank payment ("não aceitamos cartão, boleto ou PIX"). */
export const REFUSES_CARDS =
  /\b(?:we (?:do not|don't) accept|não aceitamos|no aceptamos|nous n'acceptons pas|wir akzeptieren keine|non accettiamo)\b[^.!?\n]{0,60}(?:card|cart[aã]o|tarjeta|carte|karte|carta|paypal|boleto|pix|bank|transfer)/u;
export const CRYPTO_WORD = new RegExp(String.raw`\b${CRYPTO}\b`, 'u');
/** A demand to send cryptocurrency to an address shown on the page. */
export const CRYPTO_DEMAND = new RegExp(
  String.raw`\b(?:send|sending|transfer|deposit|pay|envie|envíe|envoyez|senden|überweisen|invia)\b${SPAN(60)}\b${CRYPTO}\b${SPAN(80)}\b(?:address|endereço|dirección|adresse|indirizzo|wallet|carteira)\b`,
  'u',
);
/** Bitcoin, EVM and Tron address shapes (§6.4), in the original-case text. */
export const CRYPTO_ADDRESS =
  /\b(?:bc1[a-z0-9]{25,60}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|0x[a-fA-F0-9]{40}|T[A-HJ-NP-Za-km-z1-9]{33})\b/;

const GIFT = String.raw`(?:paysafecard|paysafe card|neosurf|google play(?: gift)? cards?|itunes(?: gift)? cards?|apple gift cards?|steam (?:gift |wallet )?cards?|amazon gift cards?|cartes? cadeaux?|tarjetas? regalo|carte regalo|cartões? presente|geschenkkarten?|transcash|cashlib|pcs mastercard|moneypak|vouchers?)`;
/** Paying (not buying: stores sell gift cards; a scam demands payment in them). */
const PAY_VERB = String.raw`(?:pay\w*|pag\w*|paie\w*|zahl\w*|bezahl\w*|betaal\w*)`;
/** Payment demanded in gift cards or prepaid vouchers (police lockers, support scams). */
export const GIFT_CARD_PAYMENT = new RegExp(
  String.raw`\b${PAY_VERB}\b[^.!?\n]{0,80}\b${GIFT}\b|\b${GIFT}\b[^.!?\n]{0,60}\b${PAY_VERB}\b`,
  'u',
);
/** "Our bank details have changed" (invoice fraud, §2.6). */
export const CHANGED_BANK_DETAILS = new RegExp(
  [
    String.raw`\b(?:bank details|banking details|bank account|bankverbindung|kontoverbindung|datos bancarios|cuenta bancaria|coordonnées bancaires|dati bancari|dados bancários|bankgegevens|rekeningnummer)\b[^.!?\n]{0,30}\b(?:have changed|has changed|changed|hat sich geändert|geändert|ha cambiado|han cambiado|ont changé|a changé|sono cambiati|foram alterados|is gewijzigd|zijn gewijzigd)`,
    String.raw`\b(?:new|nueva|nuevos|neue|nouvelles?|nuove|novos?|nieuwe) (?:bank details|bankverbindung|datos bancarios|coordonnées bancaires|dati bancari|dados bancários|bankgegevens|iban)\b`,
  ].join('|'),
  'u',
);
/** An IBAN as printed (original-case text). */
export const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/;

/** Link texts or targets of imprint, contact, privacy, terms and about pages, per language. */
export const CONTACT_LINK =
  /contact|kontakt|contato|contatti|impressum|imprint|legal|mentions|privacy|privacidad|privacidade|datenschutz|confidentialit|terms|conditions|agb|cgv|cgu|condiciones|termos|about|über uns|propos|sobre|chi siamo|over ons|help|hilfe|aide|ayuda|ajuda|support|faq|kundenservice|service|お問い合わせ|会社概要|利用規約|プライバシー|联系|隐私/i;
/** An e-mail address in lower-cased text (one character before `@` is enough to find one). */
export const EMAIL = /[a-z0-9._%+-]@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,12}\b/;
/** A phone number: an international or trunk prefix and at least 8 digits in groups. */
export const PHONE =
  /(?:\+\d{1,3}|\b0\d{1,4}|\(\d{2,4}\))[\s./-]?\d{2,4}[\s./-]?\d{2,4}(?:[\s./-]?\d{2,4})?\b/;

/** Visitor checks before the payload (§2.0, §6.6; IOK `ipapi-co`, `testcookie-nginx-module`). */
export const VISITOR_CHECKS: readonly { name: string; pattern: RegExp }[] = [
  {
    name: 'IP geolocation lookup',
    pattern:
      /ipapi\.co|ipinfo\.io|ip-api\.com|ipwho\.is|ipgeolocation\.io|geolocation-db\.com|freegeoip/i,
  },
  { name: 'datacenter/VPN check', pattern: /\bis_(?:datacenter|vpn|tor|proxy|hosting)\b/ },
  { name: 'testcookie AES challenge', pattern: /slowAES\.decrypt/ },
  {
    name: 'crawler user-agent check',
    pattern:
      /(?:googlebot|bingbot|headless|phantomjs|lighthouse|urlscan)[^\n]{0,300}?useragent|useragent[^\n]{0,300}?(?:googlebot|bingbot|headlesschrome|phantomjs|lighthouse|urlscan)|navigator\.webdriver/i,
  },
  {
    name: 'mobile-only cloaking',
    pattern:
      /!\s*\/[^/\n]{0,80}(?:android|iphone|mobile)[^/\n]{0,80}\/[a-z]{0,3}\.test\(\s*navigator\.userAgent\s*\)[^\n]{0,200}?(?:location|innerhtml|document\.write)/i,
  },
];

/** Obfuscated loaders (§6.6): written-out decoded HTML, obfuscator.io names, debugger traps. */
export const OBFUSCATION: readonly { name: string; pattern: RegExp }[] = [
  {
    name: 'document.write of decoded HTML',
    pattern:
      /document\.write\s*\(\s*(?:unescape|atob|decodeURIComponent\s*\(\s*(?:escape\s*\(\s*)?atob)\s*\(/i,
  },
  { name: 'obfuscator.io names', pattern: /\b_0x[0-9a-f]{4,6}\b/ },
  {
    name: 'debugger trap',
    pattern:
      /\bset(?:Interval|Timeout)\s*\([^;]{0,120}?\bdebugger\b|\bwhile\s*\(\s*(?:true|1|!0)\s*\)\s*\{?\s*debugger\b/,
  },
];
