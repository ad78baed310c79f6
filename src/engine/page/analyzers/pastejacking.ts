/**
 * @module engine/page/analyzers/pastejacking
 * Pastejacking (detection.md §2.4, §6.4): the page changes what the visitor copies. The W3C
 * Clipboard Events API lets pages modify copied data (news sites append a "read more" link), so
 * the signal is never the listener itself but that the modification is an executable command the
 * visitor does not see, or a crypto-address swap (W3C clipboard-apis use cases, as §2.4 says).
 *
 * Rules (all danger, pastejacking):
 * - `copy_event_hijack`: a `copy`/`cut` listener (also an `oncopy` attribute, or one whose event
 *   name is hidden in a string table) that calls `preventDefault()` and `clipboardData.setData()`,
 *   on a page whose code or decoded strings carry a command it does not display.
 * - `hidden_code_command`: a code block whose hidden part (display:none, zero size, off-screen,
 *   transparent; see parse-page.ts) holds a command shape or a chained download
 *   (`; curl … | sh`), which a Copy button copying `textContent`, or a plain selection of an
 *   off-screen span, carries along.
 * - `copy_button_swap`: a page that displays code blocks and writes the clipboard from code, with
 *   an obfuscated command (base64, `atob` pieces, escapes) that it does not display: the Copy
 *   button copies something other than what is shown.
 * - `clipboard_clipper` (+ crypto_scam): crypto-address regexes (§6.4: `(bc1|[13])…{25,39}`,
 *   `0x[a-fA-F0-9]{40}`, `T[A-Za-z1-9]{33}`) in code that hooks the clipboard (copy or paste
 *   listener, `oncopy`, `clipboard.readText` polling) and calls `.replace` with a hard-coded
 *   address literal: the clipper swaps the victim's address for the attacker's.
 *
 * FP guards: documentation Copy buttons that copy the displayed command (Homebrew, rustup, pnpm,
 * Docker) have no hidden command; wallets that validate pasted addresses have no hard-coded
 * replacement address.
 */
import type { PageView } from '../page-context.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import { clipboardWrite, commandIn, findCommands } from './clipboard-payload.js';

const COPY_LISTENER =
  /addEventListener\s*\(\s*["'`](?:copy|cut)["'`]|\bon(?:copy|cut)\s*=|\.on\s*\(\s*["'`](?:copy|cut)\b/;
/** `addEventListener(table[0], …)`: the event name comes from a (decoded) string table. */
const COMPUTED_LISTENER = /addEventListener\s*\(\s*[\w$]+\s*\[/;
const PREVENT_DEFAULT = /\bpreventDefault\s*\(/;
const SET_CLIPBOARD_DATA = /\bclipboardData\b[^;\n]{0,40}?\.\s*setData\s*\(/;

/** A download or launcher chained (`;`, `&&`, `|`) after the visible command in a hidden span. */
const CHAINED_COMMAND =
  /[;&|]\s*(?:curl|wget|powershell|pwsh|iwr|irm|iex|mshta|msiexec|certutil|bitsadmin|rundll32|regsvr32|osascript)\b/i;
/** Shortest visible code block that counts as "the page shows code to copy". */
const MIN_CODE_BLOCK = 8;

/** Regex literals for crypto-address shapes (§6.4), as written in page code. */
const ADDRESS_REGEX =
  /0x\[[\w-]{3,12}\]\{40\}|\(\?:?bc1\|\[13\]\)|\(bc1\|\[13\]\)|\bbc1\[[^\]\n]{3,40}\]\{\d{1,2},\d{2,3}\}|\[13\]\[[^\]\n]{6,40}\]\{\d{2},\d{2}\}|\bT\[[^\]\n]{3,20}\]\{33\}/;
/** A hard-coded address literal (ETH, BTC bech32 / legacy, TRON). */
const ADDRESS_LITERAL =
  /["'`](0x[a-fA-F0-9]{40}|bc1[a-z0-9]{20,80}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[A-Za-z1-9]{33})["'`]/;
const REPLACE_CALL = /\.\s*replace(?:All)?\s*\(/;
const CLIPBOARD_HOOK =
  /addEventListener\s*\(\s*["'`](?:copy|cut|paste)["'`]|\bon(?:copy|cut|paste)\s*=|\bclipboard\s*\.\s*(?:readText|writeText|read)\s*\(|\bclipboardData\b/;

/**
 * Report pages that change what the visitor copies (see the module comment for the rules). The
 * rules need no URL context: hiding a command from the reader is suspicious on any site.
 */
export function analyzePastejacking(page: PageView): PageFinding[] {
  const findings: PageFinding[] = [];
  const hiddenCode = hiddenCodeCommand(page);
  if (hiddenCode !== null) findings.push(hiddenCode);
  const hijack = copyEventHijack(page);
  if (hijack !== null) findings.push(hijack);
  else {
    const swap = copyButtonSwap(page);
    if (swap !== null) findings.push(swap);
  }
  const clipper = clipboardClipper(page);
  if (clipper !== null) findings.push(clipper);
  return findings;
}

function pastejacking(id: string, evidence: string, text: string): PageFinding {
  return {
    id,
    level: 'danger',
    threatTypes: ['pastejacking'],
    signals: ['pastejacking'],
    confidence: 0.93,
    weight: 0,
    group: 'content',
    evidence,
    text,
  };
}

function hiddenCodeCommand(page: PageView): PageFinding | null {
  for (const block of page.doc.codeBlocks) {
    // The hidden part rides along with code the reader sees and copies.
    if (block.hidden === '' || block.visible.trim() === '') continue;
    const command = commandIn(block.hidden);
    if (command === null && !CHAINED_COMMAND.test(block.hidden)) continue;
    return pastejacking(
      'hidden_code_command',
      command ?? excerpt(block.hidden),
      'a code block hides a command that is copied along with the code it shows',
    );
  }
  return null;
}

function copyEventHijack(page: PageView): PageFinding | null {
  const { code } = page;
  const listening =
    COPY_LISTENER.test(code) ||
    page.doc.handlers.some((h) => h.event === 'oncopy' || h.event === 'oncut') ||
    (COMPUTED_LISTENER.test(code) &&
      (page.decoded.includes('copy') || page.decoded.includes('cut')));
  if (!listening || !PREVENT_DEFAULT.test(code) || !SET_CLIPBOARD_DATA.test(code)) return null;
  const command = findCommands(page).find((hit) => hit.hidden);
  if (command === undefined) return null;
  return pastejacking(
    'copy_event_hijack',
    command.evidence,
    'a copy handler replaces what the visitor copies with a command the page does not show',
  );
}

function copyButtonSwap(page: PageView): PageFinding | null {
  if (!page.doc.codeBlocks.some((b) => b.visible.length >= MIN_CODE_BLOCK)) return null;
  if (clipboardWrite(page) === null) return null;
  const command = findCommands(page).find((hit) => hit.hidden && hit.obfuscated);
  if (command === undefined) return null;
  return pastejacking(
    'copy_button_swap',
    command.evidence,
    'the page shows code to copy but puts an obfuscated command it does not show on the clipboard',
  );
}

function clipboardClipper(page: PageView): PageFinding | null {
  const { code } = page;
  const shape = ADDRESS_REGEX.exec(code);
  if (shape === null) return null;
  const address = ADDRESS_LITERAL.exec(code);
  if (address === null || !REPLACE_CALL.test(code)) return null;
  const hooked =
    CLIPBOARD_HOOK.test(code) ||
    page.doc.handlers.some((h) => h.event === 'oncopy' || h.event === 'onpaste');
  if (!hooked) return null;
  return {
    ...pastejacking(
      'clipboard_clipper',
      excerpt(`${shape[0]} → ${address[1] ?? ''}`),
      'the page watches the clipboard for crypto addresses and replaces them with a fixed address',
    ),
    threatTypes: ['pastejacking', 'crypto_scam'],
    signals: ['pastejacking', 'crypto_scam'],
    confidence: 0.95,
  };
}
