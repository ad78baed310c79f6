/**
 * @module engine/page/analyzers/tech-support-patterns
 * Text and behaviour of tech-support scams and browser lockers (detection.md §2.5, §6.5; IOK
 * `microsoft-tech-support-0589be7`; the open-source scareware detectors that record
 * fullscreenRequested, keyboardLockRequested, pointerLockRequested and workerBomb). English phrases
 * are §6.5's; the de, fr, es, pt, it, nl and ja forms are the same alerts as scam kits localise
 * them (general knowledge, as detection.md §2.6 does for its keyword seeds). Text patterns are
 * matched against lower-cased NFKC text; code patterns against the page's code and decoded strings.
 */

/** One kind of alert wording; `tech` kinds are specific to tech-support scams. */
export interface AlertKind {
  id: string;
  tech: boolean;
  pattern: RegExp;
}

const alt = (parts: readonly string[]): RegExp => new RegExp(parts.join('|'));

/** The kinds of alert wording; a scam page shows several. */
export const ALERT_KINDS: readonly AlertKind[] = [
  {
    id: 'infected',
    tech: true,
    pattern: alt([
      String.raw`(?:computer|pc|device|system|mac|iphone|windows)\s+(?:is|has\s+been|was|may\s+be)\s+(?:severely\s+)?(?:infected|compromised)`,
      String.raw`infected\s+with\s+(?:\d+\s+)?(?:virus|viruses|malware|spyware|trojan|adware)`,
      String.raw`(?:virus|viruses|malware|spyware|trojan|adware|ransomware|keylogger)\s+(?:detected|found|alert|infection)`,
      String.raw`pornographic\s+spyware|trojan[\s-]+spyware|(?:trojan|spyware):win32`,
      String.raw`(?:mac|ordinateur|pc|appareil|système|iphone)\s+(?:est|a\s+été)\s+(?:gravement\s+)?infecté|virus\s+détectés?|logiciel\s+espion`,
      String.raw`(?:computer|pc|gerät|system|mac)\s+(?:ist|wurde)\s+(?:mit\s+\S+\s+)?infiziert|mit\s+viren\s+infiziert|viren?\s+(?:gefunden|entdeckt|erkannt)|trojaner`,
      String.raw`(?:computadora|ordenador|equipo|computador|pc|dispositivo|sistema)\s+(?:está|foi|ha\s+sido)\s+infectad[oa]|v[ií]rus\s+detectados?`,
      String.raw`(?:computer|pc|dispositivo)\s+(?:è|e)\s+(?:stato\s+)?infett[oa]|virus\s+rilevat[oi]`,
      String.raw`(?:computer|pc|apparaat)\s+is\s+geïnfecteerd`,
      String.raw`ウイルスに感染|ウイルスが検出|ウイルスを検出|トロイの木馬|スパイウェア`,
    ]),
  },
  {
    id: 'security_alert',
    tech: true,
    pattern: alt([
      String.raw`windows\s+defender`,
      String.raw`(?:microsoft|windows|apple|macos|mac)\s+(?:security\s+)?(?:alert|warning|helpline)`,
      String.raw`(?:microsoft|windows|apple)\s+security\s+(?:center|centre)`,
      String.raw`windows[\s-]*sicherheits(?:warnung|center)|sicherheitswarnung`,
      String.raw`alerte\s+de\s+sécurité|avertissement\s+de\s+sécurité`,
      String.raw`alerta\s+de\s+seguran[çc]a|alerta\s+de\s+seguridad|avviso\s+di\s+sicurezza|beveiligingswaarschuwing`,
      String.raw`セキュリティ\s*(?:警告|センター|アラート)`,
    ]),
  },
  {
    id: 'do_not_close',
    tech: false,
    pattern: alt([
      String.raw`do\s+not\s+(?:restart|shut\s*down|turn\s+off|close\s+this)|don[’']?t\s+(?:restart|shut\s*down|turn\s+off|close\s+this)`,
      String.raw`ne\s+(?:redémarrez|fermez|éteignez)\s+pas`,
      String.raw`(?:schalten|starten)\s+sie[^.!\n]{0,60}?nicht\s+(?:aus|neu)|nicht\s+(?:neu\s+starten|ausschalten)`,
      String.raw`no\s+(?:reinicie|apague|cierre)\s|não\s+(?:reinicie|desligue|feche)\s|non\s+(?:riavviare|spegnere|chiudere)\s`,
      String.raw`niet\s+(?:opnieuw\s+opstarten|uitschakelen|afsluiten)`,
      String.raw`再起動(?:したり)?しないで|電源を切(?:らない|ったり)`,
    ]),
  },
  {
    id: 'call_support',
    tech: true,
    pattern: alt([
      String.raw`call\s+(?:microsoft|apple|windows)\s+(?:support|technicians?|helpline)`,
      String.raw`call\s+(?:now|immediately|toll[\s-]?free|(?:the\s+)?(?:support|help\s*desk|helpline))`,
      String.raw`contact\s+(?:microsoft|apple|windows)\s+support\s+(?:immediately|now|at)`,
      String.raw`appelez\s+(?:immédiatement|le\s+support|l[’']assistance|le\s+service|le\s+\d)`,
      String.raw`rufen\s+sie[^.!\n]{0,40}?(?:support|hotline|kundendienst)[^.!\n]{0,30}?\ban\b`,
      String.raw`(?:llame|llamar)\s+(?:ahora|inmediatamente|al\s+soporte|al\s+\d)|ligue\s+(?:agora|imediatamente|para\s+o\s+suporte)`,
      String.raw`chiama(?:te)?\s+(?:subito|ora|immediatamente|il\s+supporto|l[’']assistenza)`,
      String.raw`(?:サポート|サポートセンター|窓口)に(?:お)?電話|今すぐ[^。\n]{0,30}電話`,
    ]),
  },
  {
    id: 'error_code',
    tech: true,
    pattern: alt([
      String.raw`(?:error|erreur|fehler|errore|código|エラー)[^\n0-9]{0,16}?0x[0-9a-z]{3,10}\b`,
      // The fake licence / error code of a widespread kit (§2.5 "DW6VB36").
      String.raw`\bdw6vb36\b`,
    ]),
  },
  {
    id: 'blocked',
    tech: false,
    pattern: alt([
      String.raw`(?:computer|pc|device|browser|mac|system|windows)\s+(?:has\s+been|is|was|will\s+be)\s+(?:blocked|locked|disabled|suspended)`,
      String.raw`access\s+to\s+this\s+(?:pc|computer|device)\s+has\s+been\s+blocked`,
      String.raw`(?:mac|ordinateur|pc|navigateur)\s+(?:est|sera|a\s+été)\s+(?:bloqué|verrouillé)`,
      String.raw`(?:computer|pc|browser)\s+wurde[^.!\n]{0,60}?gesperrt|(?:computer|pc)\s+ist\s+gesperrt`,
      String.raw`(?:computadora|ordenador|equipo|computador|navegador)\s+(?:ha\s+sido|foi|está)\s+bloquead[oa]`,
      String.raw`(?:computer|browser)\s+(?:è|e)\s+stato\s+bloccat[oa]`,
      String.raw`(?:ロック|ブロック)されました`,
    ]),
  },
];

/** Remote-access tools the "technician" asks the victim to install (§2.5, §6.5). */
export const REMOTE_TOOL =
  /\b(?:anydesk|teamviewer|ultraviewer|logmein|screenconnect|supremo|rustdesk|splashtop|quick\s*assist)\b/;

/**
 * Phone shapes (§2.5, §6.5): NANP toll-free and +1 numbers, UK 0800/0808, French 10-digit and
 * 08xx numbers, German 0800, Japanese 050 / 0120 / 0800, and any +CC international number.
 */
export const PHONE = new RegExp(
  String.raw`(?<![\d+])(?:` +
    [
      String.raw`(?:\+?1[\s.-]{0,2})?\(?8(?:00|33|44|55|66|77|88)\)?[\s.-]{0,2}\d{3}[\s.-]{0,2}\d{4}`,
      String.raw`\+1[\s.-]{0,2}\(?[2-9]\d{2}\)?[\s.-]{0,2}\d{3}[\s.-]{0,2}\d{4}`,
      String.raw`0(?:800|808)[\s-]?\d{3}[\s-]?\d{3,4}`,
      String.raw`\+(?:44|49)[\s-]?\(?0?\)?[\s-]?(?:800|808)[\s-]?\d{3}[\s-]?\d{3,4}`,
      String.raw`0[1-9](?:[\s.-]?\d{2}){4}`,
      String.raw`0[89]\d{2}[\s.]?\d{3}[\s.]?\d{3}`,
      String.raw`0(?:50|120|800)[\s-]?\d{2,4}[\s-]?\d{3,4}`,
      String.raw`\+\d{2,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}`,
    ].join('|') +
    String.raw`)(?!\d)`,
  'g',
);

/** Words that make a number a number to call (§2.5 "near call / support / helpline"). */
export const CALL_WORD =
  /call|phone|helpline|hotline|toll[\s-]?free|support|technician|appel|téléphone|assistance|rufen|anruf|gebührenfrei|llame|llamada|teléfono|ligue|telefone|chiama|telefono|numero\s+verde|電話|通話|サポート|フリーダイヤル/;

/**
 * Pages that warn about these scams (vendor support and advice pages, security blogs) use words a
 * scam page never does about itself.
 */
export const ADVISORY =
  /\bscam(?:s|mers?)?\b|escroquer|arnaque|\bbetrug|betrüger|\bestafas?\b|\bgolpes?\b|\btruff[ae]\b|詐欺|\bfake\s+(?:pop-?ups?|warnings?|alerts?|error\s+messages?)/;

/** One locker behaviour: `strong` ones are rare outside lockers, `weak` ones need company. */
export interface LockerBehaviour {
  id: string;
  strong: boolean;
  pattern: RegExp;
}

/**
 * Locker behaviour in code (§2.5 "behaviour (JS)", §6.5). Alarm audio (`<audio autoplay loop>`,
 * `new Audio(…).play()`) is read from the document by the analyzer.
 */
export const LOCKER_BEHAVIOURS: readonly LockerBehaviour[] = [
  { id: 'fullscreen', strong: false, pattern: /requestfullscreen/i },
  { id: 'keyboard_lock', strong: true, pattern: /\bkeyboard\s*\.\s*lock\s*\(/ },
  { id: 'pointer_lock', strong: true, pattern: /\brequestPointerLock\b/ },
  {
    id: 'dialog_loop',
    strong: true,
    pattern:
      /\b(?:setInterval\s*\(|while\s*\(|for\s*\()[\s\S]{0,300}?\b(?:alert|confirm|prompt)\s*\(|\b(?:alert|confirm|prompt)\s*\([\s\S]{0,300}?\bsetTimeout\s*\(\s*[\w$]+\s*,/,
  },
  { id: 'beforeunload', strong: false, pattern: /onbeforeunload|["'`]beforeunload["'`]/ },
  {
    id: 'history_flood',
    strong: true,
    pattern:
      /\b(?:for|while)\s*\([^)]{0,80}\)\s*\{?[^{}]{0,80}?history\s*\.\s*pushState|popstate[\s\S]{0,200}?history\s*\.\s*pushState/,
  },
  {
    id: 'window_open_loop',
    strong: true,
    pattern: /\b(?:setInterval\s*\(|while\s*\(|for\s*\()[\s\S]{0,200}?\bwindow\s*\.\s*open\s*\(/,
  },
  {
    id: 'worker_bomb',
    strong: true,
    pattern: /for\s*\(\s*;\s*;\s*\)\s*\{\s*\}|while\s*\(\s*(?:true|1|!0)\s*\)\s*\{\s*\}/,
  },
  {
    id: 'speech',
    strong: false,
    pattern: /\bspeechSynthesis\s*\.\s*speak\b|SpeechSynthesisUtterance/,
  },
  { id: 'hidden_cursor', strong: false, pattern: /cursor\s*[:=]\s*["']?none/ },
];
