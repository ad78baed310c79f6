/**
 * @module engine/page/analyzers/clickfix-patterns
 * The words of a ClickFix / fake-CAPTCHA lure (detection.md §2.3 "instruction text" and "fake
 * verification text", §6.3; ClickGrab FAKE_CLOUDFLARE_PATTERNS and
 * FAKE_VIDEO_CONFERENCING_PATTERNS; the decoy comment of the SigmaHQ "Suspicious ClickFix/FileFix
 * Execution Pattern" rule). English comes from those sources; the other languages (de, fr, es,
 * pt, it, ja, nl) are the same phrases as kits localise them (general knowledge, as detection.md
 * §2.6 does for its keyword seeds). Matched against lower-cased NFKC text, so no `i` flag is
 * needed for the words themselves.
 */

/** Keys that open a command prompt: Win+R, Win+X, Cmd+Space, the Run dialog, File Explorer. */
export const OPEN_PROMPT = new RegExp(
  [
    String.raw`(?:windows|win|⊞|❖)(?:[\s-]*(?:key|taste|キー|logo))?[\s⊞❖]*\+\s*[rx]\b`,
    String.raw`(?:cmd|command|⌘)[\s⌘]*\+\s*(?:space|espace|leertaste|espacio|espaço|spazio|spatie|スペース)`,
    String.raw`open\s+(?:the\s+)?run\s+(?:dialog|box|window|command)`,
    String.raw`(?:boîte\s+de\s+dialogue|fenêtre)\s+exécuter|ausführen-dialog|dialogfeld\s+ausführen|cuadro\s+de\s+diálogo\s+ejecutar|caixa\s+de\s+diálogo\s+executar|finestra\s+esegui|ファイル名を指定して実行`,
    String.raw`file\s+explorer(?:'s)?\s+address\s+bar|barre\s+d'adresse\s+de\s+l'explorateur|adressleiste\s+des\s+datei-explorers`,
  ].join('|'),
);

/**
 * Fake verification and meeting-error text (§6.3), and the decoy wording kits append to the
 * command ("I am not a robot - reCAPTCHA Verification ID").
 */
export const FAKE_VERIFICATION = new RegExp(
  [
    String.raw`verify\s+(?:that\s+)?you\s+are\s+(?:a\s+)?human`,
    String.raw`checking\s+(?:if\s+you\s+are\s+(?:a\s+)?human|your\s+browser)`,
    String.raw`\bi[’']?\s*a?m\s+not\s+a\s+robot`,
    String.raw`verification\s+id\b|\bray\s+id:?\s*[0-9a-f]{16}\b`,
    String.raw`unusual\s+(?:web\s+)?traffic`,
    String.raw`needs\s+to\s+review\s+the\s+security\s+of\s+your\s+connection`,
    String.raw`can[’']?t\s+join\s+the\s+meeting|no\s+camera\s+found|permission\s+needed`,
    // fr
    String.raw`je\s+ne\s+suis\s+pas\s+un\s+robot|vérifie[zr]?\s+que\s+vous\s+êtes\s+(?:un\s+)?humain|id\s+de\s+vérification`,
    // de
    String.raw`ich\s+bin\s+kein\s+roboter|dass\s+sie\s+ein\s+mensch\s+sind|verifizierungs-?id`,
    // es
    String.raw`no\s+soy\s+un\s+robot|(?:que|si)\s+eres\s+humano|id\s+de\s+verificación`,
    // pt
    String.raw`não\s+sou\s+um\s+robô|você\s+é\s+humano|id\s+de\s+verificação`,
    // it, nl
    String.raw`non\s+sono\s+un\s+robot|sei\s+umano|ik\s+ben\s+geen\s+robot`,
    // ja
    String.raw`ロボットではありません|ロボットではない|人間であることを確認|検証\s*id`,
  ].join('|'),
);

/**
 * The decoy comment appended to a pasted command, as the Sigma rule sees it in RunMRU: a `#`
 * between spaces followed, within the same line, by captcha / robot / human / verification words.
 */
export const DECOY_COMMENT =
  /\s#\s+[^\n#]{0,80}?(?:captcha|robot|human|verif|cloudflare|ray\s*id|ロボット)/i;

/**
 * Identifiers of fake-CAPTCHA kits in page code (§6.3 "known DOM and identifier strings";
 * ClickGrab). Only the distinctive ones: `tempTextArea`, `clickCopy` and `rayID` also name
 * ordinary copy helpers and real challenge pages. Matched case-sensitively as whole words.
 */
export const KIT_IDENTIFIERS = /\b(?:recaptchaPopup|COPYbase64Text)\b/;
