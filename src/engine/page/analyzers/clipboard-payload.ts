/**
 * @module engine/page/analyzers/clipboard-payload
 * What a page can put on the clipboard, shared by the fake-CAPTCHA and pastejacking analyzers
 * (detection.md §2.3 "clipboard write" and "payload content in JS strings", §2.4, §6.3, §6.4):
 * - whether its code writes the clipboard (`navigator.clipboard.writeText`,
 *   `execCommand('copy')`, `clipboardData.setData`, ClipboardJS), also when the API names are
 *   hidden in strings (`navigator['clip' + 'board']`, a hex-escaped `'execCommand'`);
 * - the commands its code and its decoded strings carry ({@link COMMAND_PATTERN}), and whether each
 *   one is shown on the page. The W3C Clipboard API lets pages copy what they like, so the signal
 *   is a command the visitor cannot see (W3C clipboard-apis use cases, §2.4): a docs page whose
 *   Copy button copies the install command it displays is not one.
 */
import type { PageView } from '../page-context.js';
import { excerpt } from '../page-finding.js';
import { COMMAND_PATTERN } from './command-patterns.js';

/** Clipboard writes spelled out in code. */
const CLIPBOARD_WRITE =
  /\bclipboard\s*\.\s*write(?:Text)?\s*\(|\bexecCommand\s*\(\s*["'`](?:copy|cut)["'`]|\bclipboardData\b[^;\n]{0,40}?\.\s*setData\s*\(|\bClipboardJS\b/;
/** `execCommand(x)` with a computed argument (the word `copy` then comes from a string table). */
const COMPUTED_EXEC_COMMAND = /\bexecCommand\s*\(\s*[\w$]/;
/** API names that only appear as whole decoded strings when a kit hides its property access. */
const HIDDEN_CLIPBOARD_NAMES = new Set(['clipboard', 'writeText', 'execCommand', 'setData']);

/** Most command matches examined per page. */
const MAX_HITS = 32;
/** Characters of context kept after a match for the "is it shown" comparison and evidence. */
const KEY_TAIL = 60;

/** A command found in the page's code or decoded strings. */
export interface CommandHit {
  /** The command as found, shortened for evidence. */
  evidence: string;
  /** Not displayed in the page's visible text or code blocks. */
  hidden: boolean;
  /** Found only in a decoded (obfuscated) string. */
  obfuscated: boolean;
}

/**
 * The clipboard write in the page's code, as short evidence (`navigator.clipboard.writeText(`),
 * or null when the code never writes the clipboard.
 */
export function clipboardWrite(page: PageView): string | null {
  const match = CLIPBOARD_WRITE.exec(page.code);
  if (match !== null) return excerpt(match[0]);
  const hidden = page.decoded.find((s) => HIDDEN_CLIPBOARD_NAMES.has(s));
  if (hidden !== undefined) return `hidden property ${hidden}`;
  if (COMPUTED_EXEC_COMMAND.test(page.code) && page.decoded.includes('copy')) {
    return 'execCommand(<decoded "copy">)';
  }
  return null;
}

const cache = new WeakMap<PageView, CommandHit[]>();

/**
 * Commands in the page's code and decoded strings, at most {@link MAX_HITS}: hidden ones first
 * (decoded before plain code), then in code order. Memoised per view: both clipboard analyzers
 * ask.
 */
export function findCommands(page: PageView): readonly CommandHit[] {
  const cached = cache.get(page);
  if (cached !== undefined) return cached;
  const hits: CommandHit[] = [];
  let shown: string | null = null;
  const visible = (): string => (shown ??= displayedText(page));
  const collect = (source: string, obfuscated: boolean): void => {
    for (const match of source.matchAll(COMMAND_PATTERN)) {
      if (hits.length >= MAX_HITS) return;
      const key = commandKey(source, match.index, match[0].length);
      hits.push({
        evidence: commandEvidence(source, match.index),
        hidden: !visible().includes(normalize(key)),
        obfuscated,
      });
    }
  };
  collect(page.code, false);
  for (const text of page.decoded) {
    if (hits.length >= MAX_HITS) break;
    collect(text, true);
  }
  // Decoded hidden commands first: they show the payload a kit took care to hide.
  const rank = (h: CommandHit): number => (h.hidden ? (h.obfuscated ? 0 : 1) : 2);
  const ordered = hits.sort((a, b) => rank(a) - rank(b));
  cache.set(page, ordered);
  return ordered;
}

/** The first command in `text` (a code block's hidden part, say) as evidence, or null. */
export function commandIn(text: string): string | null {
  for (const match of text.matchAll(COMMAND_PATTERN)) return commandEvidence(text, match.index);
  return null;
}

/**
 * The matched command plus what follows it up to the end of its line or string literal (at most
 * {@link KEY_TAIL} characters): enough to tell it from another command of the same shape.
 */
function commandKey(source: string, index: number, length: number): string {
  const end = index + length;
  let stop = end;
  const limit = Math.min(source.length, end + KEY_TAIL);
  while (stop < limit) {
    const c = source.charCodeAt(stop);
    // newline, ", ', `
    if (c === 0x0a || c === 0x22 || c === 0x27 || c === 0x60) break;
    stop += 1;
  }
  return source.slice(index, stop).trim();
}

/** The command from its start to the end of its line, shortened for evidence. */
function commandEvidence(source: string, index: number): string {
  const end = source.indexOf('\n', index);
  return excerpt(source.slice(index, Math.min(end < 0 ? source.length : end, index + 200)));
}

/** What the visitor can read: visible text and the visible part of every code block. */
function displayedText(page: PageView): string {
  const blocks = page.doc.codeBlocks.map((b) => b.visible).join('\n');
  return normalize(`${page.doc.visibleText}\n${blocks}`);
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}
