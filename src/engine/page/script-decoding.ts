/**
 * @module engine/page/script-decoding
 * Recovers the strings kits hide in their scripts, without running them (detection.md §2.3:
 * "decode base64, hex, `atob(`, `String.fromCharCode` and array-join before matching"; the same
 * tricks appear in the ClickGrab corpus and in Sekoia's IClickFix and the Still34 fake-CAPTCHA
 * YARA rules). Recovered forms:
 * - `\x41` / `\u0041` / `\u{41}` / `%41` escapes inside string literals;
 * - base64 literals (`atob('…')` arguments of any length once the code calls `atob`), including
 *   UTF-16LE payloads of PowerShell `-enc`, and one more level of base64 inside what was decoded;
 * - `String.fromCharCode(…)` lists (decimal or hex, also `.apply(null, […])` / `(...[…])`);
 * - concatenated literals (`'pow' + 'ershell'`, `navigator['clip' + 'board']`, base64 chunks);
 * - arrays of literals that the code `.join()`s (chunk arrays), and reversed strings
 *   (`.split('').reverse().join('')`, applied to a literal, a concatenation or a joined array).
 *
 * The code is scanned once by a small tokenizer that skips comments and finds string literals with
 * sticky regular expressions whose alternatives are disjoint, so the work is linear in the code's
 * length; a regex literal containing a quote can put the tokenizer out of step, which only costs
 * recall. Output is bounded ({@link MAX_DECODED_STRINGS} strings of at most
 * {@link MAX_DECODED_LENGTH} characters, each mostly printable and at least 4 characters long).
 */

/** Most strings recovered from one page; the rest are ignored. */
export const MAX_DECODED_STRINGS = 2_000;
/** Longest decoded string kept (longer ones are cut): a kit's overlay HTML is a few kB. */
export const MAX_DECODED_LENGTH = 32 * 1024;
/** Most string literals examined per page (a 4 MB bundle has far fewer). */
const MAX_LITERALS = 200_000;
/** Longest literal examined for escapes or base64 (a data: URI image is not a payload). */
const MAX_LITERAL_LENGTH = 256 * 1024;
/** Most parts of one concatenation or array that are joined. */
const MAX_PARTS = 512;
/** Base64 runs searched for inside one decoded string (second level). */
const MAX_NESTED_RUNS = 4;

const DOUBLE_BODY = /(?:[^"\\\n]|\\[\s\S])*"/y;
const SINGLE_BODY = /(?:[^'\\\n]|\\[\s\S])*'/y;
const TEMPLATE_BODY = /(?:[^`\\]|\\[\s\S])*`/y;
/** The rest of a regex literal after its `/`: escapes and character classes, to the closing `/`. */
const REGEX_BODY = /(?:[^\\/[\n]|\\.|\[(?:[^\]\\\n]|\\.){0,64}\]){1,200}\/[a-z]*/y;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SHORT_BASE64_HINT = /[0-9+/=]|[A-Z][^A-Z]*[A-Z]/;
const BASE64_URL = /^[A-Za-z0-9_-]+={0,2}$/;
const PERCENT = /^(?:%[0-9A-Fa-f]{2}|[\w.~!*'();:@&=+$,/?#[\] -])+$/;
const HAS_ESCAPE = /\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|u\{[0-9A-Fa-f]{1,6}\})/;
const NESTED_BASE64 = /[A-Za-z0-9+/]{24,}={0,2}/g;
/**
 * Base64 handed to a decoder inside a longer string (`…FromBase64String('…')) | iex` in a template
 * literal, `powershell -enc …`, `echo … | base64 -d`, `atob('…')`), where the literal scan does not
 * see it alone. Each pattern starts with a literal so the engine can skip ahead quickly.
 */
const EMBEDDED_BASE64 = [
  /-[eE](?:[nN][cC][a-zA-Z]*)?\s+["']?([A-Za-z0-9+/]{20,}={0,2})/g,
  /[Ff]rom[Bb]ase64[Ss]tring\s*\(\s*\\?["'`]([A-Za-z0-9+/]{8,}={0,2})/g,
  /\batob\s*\(\s*\\?["'`]([A-Za-z0-9+/]{4,}={0,2})/g,
  /\becho\s+\\?["']?([A-Za-z0-9+/]{16,}={0,2})/g,
];
const FROM_CHAR_CODE =
  /String\s*\.\s*fromCharCode\s*(?:\(\s*|\.\s*apply\s*\(\s*[\w$]+\s*,\s*\[\s*|\(\s*\.\.\.\s*\[\s*)((?:(?:0x[0-9a-fA-F]{1,6}|\d{1,7})\s*,\s*){0,4095}(?:0x[0-9a-fA-F]{1,6}|\d{1,7}))\s*[\])]/g;
const JOIN_CALL = /\.\s*join\s*\(/g;
const REVERSAL_IDIOM = /split\s*\(\s*(["'`])\1\s*\)\s*\.\s*reverse\s*\(\s*\)/;
const REVERSAL_AFTER = /^\s*\)?\s*\.\s*split\s*\(\s*(["'`])\1\s*\)\s*\.\s*reverse\s*\(/;
const CONCAT_GAP = /^\s*\+\s*$/;
const LIST_GAP = /^\s*,\s*$/;
const LIST_CLOSE = /^\s*,?\s*\](\s*\.\s*join\s*\(\s*(?:(["'`])((?:(?!\2)[^\\\n]){0,8})\2)?)?/;

/** One literal found by the tokenizer: where it is and its value with escapes resolved. */
interface Literal {
  start: number;
  end: number;
  value: string;
  /** Written with `\x` / `\u` escapes (its value is then a decoded string in itself). */
  hexEscaped: boolean;
}

/** Collects decoded strings: deduplicated, printable, capped. */
class Sink {
  readonly out: string[] = [];
  private readonly seen = new Set<string>();

  get full(): boolean {
    return this.out.length >= MAX_DECODED_STRINGS;
  }

  /** Add `text` (and what base64 it carries) when it is printable and new. */
  add(text: string, depth = 0): void {
    if (this.full || text.length < 4) return;
    const value = text.length > MAX_DECODED_LENGTH ? text.slice(0, MAX_DECODED_LENGTH) : text;
    if (this.seen.has(value) || !isMostlyPrintable(value)) return;
    this.seen.add(value);
    this.out.push(value);
    if (depth >= 2) return;
    // A decoded command often carries the next layer (`powershell -enc <b64>`, `atob('…')`).
    let runs = 0;
    for (const match of value.matchAll(NESTED_BASE64)) {
      const decoded = decodeBase64(match[0]);
      if (decoded !== null) this.add(decoded, depth + 1);
      runs += 1;
      if (runs >= MAX_NESTED_RUNS) break;
    }
  }
}

/**
 * Strings recovered from obfuscated code.
 *
 * @param code the page's code (scripts and handlers, joined).
 * @returns decoded strings in code order, each at least 4 characters and mostly printable, at
 *   most {@link MAX_DECODED_STRINGS}, each at most {@link MAX_DECODED_LENGTH} characters.
 */
export function decodeScriptStrings(code: string): string[] {
  const sink = new Sink();
  if (code === '') return sink.out;
  const usesAtob = code.includes('atob');
  const reverses = REVERSAL_IDIOM.test(code);
  const joined = new Set<string>();
  for (const match of code.matchAll(JOIN_CALL)) {
    joined.add(identifierBefore(code, match.index));
    if (joined.size >= 1_000) break;
  }

  let run: Literal[] = [];
  let list: Literal[] = [];
  let listName: string | null = null;
  let listOpen = false;
  let previous: Literal | null = null;

  const flushRun = (): void => {
    if (run.length >= 2) {
      const value = run.map((part) => part.value).join('');
      const last = run[run.length - 1];
      sink.add(value);
      addBase64(sink, value, usesAtob);
      if (last !== undefined && reverses && reversedAfter(code, last.end)) {
        sink.add(reverse(value));
      }
    }
    run = [];
  };
  const flushList = (closed: boolean): void => {
    const last = list[list.length - 1];
    if (closed && list.length >= 2 && last !== undefined) {
      const close = LIST_CLOSE.exec(code.slice(last.end, last.end + 24));
      const direct = close?.[1] !== undefined;
      if (direct || (listName !== null && joined.has(listName))) {
        const value = list.map((part) => part.value).join(close?.[3] ?? '');
        sink.add(value);
        addBase64(sink, value, usesAtob);
        if (reverses) sink.add(reverse(value));
      }
    }
    list = [];
    listName = null;
    listOpen = false;
  };

  let count = 0;
  for (const literal of literals(code)) {
    if (sink.full || count >= MAX_LITERALS) break;
    count += 1;
    const gap = previous === null ? null : gapBetween(code, previous.end, literal.start);

    if (gap !== null && CONCAT_GAP.test(gap) && run.length < MAX_PARTS) {
      if (run.length === 0 && previous !== null) run.push(previous);
      run.push(literal);
    } else {
      flushRun();
    }

    if (listOpen && gap !== null && LIST_GAP.test(gap) && list.length < MAX_PARTS) {
      list.push(literal);
    } else {
      flushList(listOpen && previous !== null && LIST_CLOSE.test(gapAfter(code, previous.end)));
      const bracket = skipSpaceBack(code, literal.start - 1);
      if (code.charCodeAt(bracket) === 0x5b /* [ */) {
        listOpen = true;
        listName = assignedName(code, bracket);
        list.push(literal);
      }
    }

    addLiteral(sink, code, literal, usesAtob, reverses);
    previous = literal;
  }
  flushRun();
  flushList(listOpen && previous !== null && LIST_CLOSE.test(gapAfter(code, previous.end)));

  for (const match of code.matchAll(FROM_CHAR_CODE)) {
    if (sink.full) break;
    sink.add(fromCharCodes(match[1] ?? ''));
  }
  for (const pattern of EMBEDDED_BASE64) {
    for (const match of code.matchAll(pattern)) {
      if (sink.full) break;
      const decoded = decodeBase64(match[1] ?? '');
      if (decoded !== null) sink.add(decoded, 1);
    }
  }
  return sink.out;
}

/** Decode what one literal hides: escapes, base64, percent-encoding, a reversal applied to it. */
function addLiteral(
  sink: Sink,
  code: string,
  literal: Literal,
  usesAtob: boolean,
  reverses: boolean,
): void {
  const { value } = literal;
  if (value.length > MAX_LITERAL_LENGTH) return;
  if (literal.hexEscaped) sink.add(value);
  addBase64(sink, value, usesAtob);
  if (value.length >= 12 && value.includes('%') && PERCENT.test(value)) {
    const decoded = percentDecode(value);
    if (decoded !== null && decoded !== value) sink.add(decoded);
  }
  if (reverses && reversedAfter(code, literal.end)) sink.add(reverse(value));
}

/**
 * Base64 → text for a whole literal: 16+ characters, or 4+ when the page calls `atob` (kits
 * split a payload into short `atob` pieces).
 */
function addBase64(sink: Sink, value: string, usesAtob: boolean): void {
  const min = usesAtob ? 4 : 16;
  if (value.length < min || value.length % 4 === 1) return;
  // A short piece must not look like a word ("name", "Data"): base64 of text has digits, symbols
  // or several capitals.
  if (value.length < 16 && !SHORT_BASE64_HINT.test(value)) return;
  if (!BASE64.test(value) && !(value.length >= 16 && BASE64_URL.test(value))) return;
  const decoded = decodeBase64(value);
  if (decoded !== null) sink.add(decoded, 1);
}

/**
 * String literals of `code` in order. Comments and regular-expression literals are skipped (a
 * quote inside `/["']/` or an escaped `\/\/` must not put the scan out of step); a `/` is taken
 * as a regex when the code before it cannot end an operand, the usual heuristic of JavaScript
 * highlighters.
 */
function* literals(code: string): Generator<Literal> {
  const start = /["'`/]/g;
  // Where a failed (unterminated) literal of each quote kind stopped scanning: a later quote of
  // the same kind before that point cannot close either, so it is not scanned again (this keeps
  // a line of escaped quotes linear).
  const failedUntil = { [0x22]: -1, [0x27]: -1, [0x60]: -1 } as Record<number, number>;
  let match: RegExpExecArray | null;
  while ((match = start.exec(code)) !== null) {
    const at = match.index;
    const token = code.charCodeAt(at);
    if (token === 0x2f /* / */) {
      const next = code.charCodeAt(at + 1);
      if (next === 0x2f /* // */) {
        const end = code.indexOf('\n', at + 2);
        if (end < 0) return;
        start.lastIndex = end + 1;
      } else if (next === 0x2a /* /* */) {
        const end = code.indexOf('*/', at + 2);
        if (end < 0) return;
        start.lastIndex = end + 2;
      } else if (regexMayStart(code, at)) {
        REGEX_BODY.lastIndex = at + 1;
        if (REGEX_BODY.test(code)) start.lastIndex = REGEX_BODY.lastIndex;
      }
      continue;
    }
    if (at < (failedUntil[token] ?? -1)) continue;
    const body = token === 0x22 ? DOUBLE_BODY : token === 0x27 ? SINGLE_BODY : TEMPLATE_BODY;
    body.lastIndex = at + 1;
    if (!body.test(code)) {
      // Unterminated on this line (or, for a template, in the code): go on after the quote.
      const newline = token === 0x60 ? -1 : code.indexOf('\n', at);
      failedUntil[token] = newline < 0 ? code.length : newline;
      continue;
    }
    const end = body.lastIndex;
    start.lastIndex = end;
    const raw = code.slice(at + 1, end - 1);
    const escaped = raw.includes('\\');
    yield {
      start: at,
      end,
      value: escaped ? unescapeJs(raw) : raw,
      hexEscaped: escaped && HAS_ESCAPE.test(raw),
    };
  }
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const REGEX_KEYWORDS = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);

/** True when a `/` at `at` can start a regex: it follows an operator, punctuation or a keyword. */
function regexMayStart(code: string, at: number): boolean {
  const before = skipSpaceBack(code, at - 1);
  if (before < 0) return true;
  const c = code.charCodeAt(before);
  // `)`, `]`, `}`, quotes and backtick end an operand: the slash divides.
  if (c === 0x29 || c === 0x5d || c === 0x7d || c === 0x22 || c === 0x27 || c === 0x60) {
    return false;
  }
  if (!isIdentifierChar(c)) return true;
  return REGEX_KEYWORDS.has(identifierBefore(code, before + 1));
}

/** Index of the last non-space character at or before `index` (-1 when none). */
function skipSpaceBack(code: string, index: number): number {
  let i = index;
  while (i >= 0 && isSpace(code.charCodeAt(i))) i -= 1;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isIdentifierChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x24
  );
}

/** The identifier ending at or before `end` (spaces skipped), '' when none; at most 64 chars. */
function identifierBefore(code: string, end: number): string {
  const last = skipSpaceBack(code, end - 1);
  let first = last;
  while (first >= 0 && last - first < 64 && isIdentifierChar(code.charCodeAt(first))) first -= 1;
  return code.slice(first + 1, last + 1);
}

/** `name` in `name = [` / `name=[` before the bracket at `bracket`, else null. */
function assignedName(code: string, bracket: number): string | null {
  const equals = skipSpaceBack(code, bracket - 1);
  if (code.charCodeAt(equals) !== 0x3d /* = */) return null;
  // `==`, `!=`, `<=`, `>=`, `=>` are not assignments.
  const before = code.charCodeAt(equals - 1);
  if (before === 0x3d || before === 0x21 || before === 0x3c || before === 0x3e) return null;
  const name = identifierBefore(code, equals);
  return name === '' ? null : name;
}

/** The code between two literals when it is short enough to be an operator; else null. */
function gapBetween(code: string, from: number, to: number): string | null {
  return to - from > 24 ? null : code.slice(from, to);
}

function gapAfter(code: string, from: number): string {
  return code.slice(from, from + 24);
}

/** True when the code right after `end` reverses the string (`.split('').reverse()`). */
function reversedAfter(code: string, end: number): boolean {
  return REVERSAL_AFTER.test(code.slice(end, end + 48));
}

/** Reverse by UTF-16 code units, exactly as the kit's `.split('').reverse().join('')` does. */
function reverse(value: string): string {
  return value.split('').reverse().join('');
}

/** Resolve JavaScript string escapes (`\x41`, `\u0041`, `\u{1F600}`, `\n`, `\'` …). */
function unescapeJs(raw: string): string {
  return raw.replace(
    /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|([0-7]{1,3})|(\r\n|[\s\S]))/g,
    (_all, hex?: string, u4?: string, uBrace?: string, octal?: string, other?: string) => {
      const hexValue = hex ?? u4 ?? uBrace;
      if (hexValue !== undefined) return codePoint(Number.parseInt(hexValue, 16));
      if (octal !== undefined) return codePoint(Number.parseInt(octal, 8));
      switch (other) {
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case 'v':
          return '\v';
        case '\n':
        case '\r\n':
          return '';
        default:
          return other ?? '';
      }
    },
  );
}

function codePoint(value: number): string {
  return value <= 0x10ffff ? String.fromCodePoint(value) : '';
}

/** `109,115,0x69` → `msi`. */
function fromCharCodes(list: string): string {
  let out = '';
  for (const part of list.split(',')) {
    const text = part.trim();
    const value =
      text.startsWith('0x') || text.startsWith('0X') ? Number.parseInt(text, 16) : +text;
    if (Number.isInteger(value) && value >= 0 && value <= 0xffff) out += String.fromCharCode(value);
  }
  return out;
}

function percentDecode(value: string): string | null {
  if ((value.match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0) < 3) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not UTF-8 (`%u`-era or Latin-1 escapes): decode byte by byte.
    return value.replace(/%([0-9A-Fa-f]{2})/g, (_all, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/**
 * Base64 (standard or URL-safe) → text when the result is mostly printable (≥ 90 %), else null.
 * Bytes that look like UTF-16LE (every other byte zero, as PowerShell `-EncodedCommand` uses) are
 * decoded as such.
 */
export function decodeBase64(value: string): string | null {
  if (value.length % 4 === 1) return null;
  const bytes = Buffer.from(
    value,
    value.includes('-') || value.includes('_') ? 'base64url' : 'base64',
  );
  if (bytes.length < 3) return null;
  const text = looksUtf16(bytes) ? bytes.toString('utf16le') : bytes.toString('utf8');
  return isMostlyPrintable(text) ? text : null;
}

function looksUtf16(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  let zeros = 0;
  let pairs = 0;
  for (let i = 1; i < bytes.length; i += 2) {
    pairs += 1;
    if (bytes[i] === 0) zeros += 1;
  }
  return zeros / pairs >= 0.9;
}

/** True when at least 90 % of the characters are printable (letters, digits, punctuation, space). */
export function isMostlyPrintable(text: string): boolean {
  if (text.length < 4) return false;
  let printable = 0;
  let total = 0;
  for (const char of text) {
    total += 1;
    const c = char.codePointAt(0) ?? 0;
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09 || c >= 0xa0) {
      if (c !== 0xfffd) printable += 1;
    }
  }
  return printable / total >= 0.9;
}
