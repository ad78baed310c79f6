/**
 * @module engine/page/analyzers/fake-captcha
 * ClickFix, fake CAPTCHA and FileFix (detection.md §2.3, §6.3): a fake "verify you are human",
 * Cloudflare, Google Meet or Windows-error overlay writes a command to the clipboard and tells the
 * visitor to press Win+R (or Win+X, Cmd+Space), Ctrl+V and Enter. Signals synthesised from
 * ClickGrab's pattern library, the Sekoia IClickFix YARA rule, the Still34 fake-CAPTCHA YARA rule
 * and the SigmaHQ "Suspicious ClickFix/FileFix Execution Pattern" decoy-comment rule.
 *
 * Rules, in order:
 * - `clickfix_clipboard_command` (danger, fake_captcha + pastejacking): the code writes the
 *   clipboard, its code or decoded strings hold a command shape (command-patterns.ts) that the
 *   page does not display, and the page has a lure: fake-verification or meeting-error text, a
 *   decoy comment (`# I am not a robot - reCAPTCHA Verification ID`) or a kit identifier; or,
 *   off reputable sites, instructions that open a prompt (Win+R, Win+X then I, Cmd+Space, the Run
 *   dialog, the File Explorer address bar). This is the hard rule of §4.2 ("a ClickFix command
 *   plus instructions"). When the lure names a brand next to its text (Cloudflare, Google Meet,
 *   Microsoft) on a domain the brand does not own, the finding names it (+ brand_impersonation).
 * - `clipboard_command` (caution, pastejacking): a clipboard write of a command without that
 *   context (§2.3 "a clipboard write of a command with no instructions → caution"): the command
 *   is hidden, or it is shown but next to a lure or prompt-opening keys.
 *
 * Paste-and-Enter steps alone ("paste the command into PowerShell and press Enter") are not a
 * lure: every install tutorial says the same, and what distinguishes ClickFix is the fake check
 * or the Run-dialog keys. A tutorial whose copy handler swaps in a hidden command is pastejacking
 * (pastejacking.ts), not a fake CAPTCHA.
 *
 * FP guards (§2.3, §4.4): the command must come from script strings, not from the page text, so
 * docs whose Copy buttons copy the displayed `curl … | sh` or `iwr … | iex` (pnpm, rustup,
 * Homebrew, Microsoft Learn) and security write-ups quoting a lure stay quiet; a command the page
 * also displays is at most caution, and only next to a lure or Run-dialog keys; on a reputable
 * domain without a lure only an obfuscated command counts, and only as caution. A real Cloudflare challenge has the verification text but
 * no clipboard write and no command.
 */
import type { Brand } from '../../brand/brand-index.js';
import { brandsInText, identityBrands, ownsDomain } from '../page-brands.js';
import type { PageContext, PageView } from '../page-context.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import {
  DECOY_COMMENT,
  FAKE_VERIFICATION,
  KIT_IDENTIFIERS,
  OPEN_PROMPT,
} from './clickfix-patterns.js';
import { clipboardWrite, type CommandHit, findCommands } from './clipboard-payload.js';

/** Decoded text searched for lure words (characters): a kit's overlay HTML is a few kB. */
const MAX_DECODED_TEXT = 256 * 1024;
/** Characters either side of a lure match searched for the brand it names. */
const BRAND_RADIUS = 100;
/** Lure matches whose surroundings are searched for a brand. */
const MAX_BRAND_CONTEXTS = 8;
const FAKE_VERIFICATION_ALL = new RegExp(FAKE_VERIFICATION.source, 'g');

/** A piece of lure text found on the page. */
interface Cue {
  /** Short quote for the reason and evidence. */
  quote: string;
  /** Text around the match, where the lure names its brand (`… by Cloudflare`). */
  context: string;
}

/** Report ClickFix / fake-CAPTCHA pages (see the module comment for the rules). */
export function analyzeFakeCaptcha(page: PageView, context: PageContext): PageFinding[] {
  if (clipboardWrite(page) === null) return [];
  const command = findCommands(page)[0];
  if (command === undefined) return [];

  const texts = [page.textLower, decodedText(page.decoded)];
  const lure = firstCue(texts, FAKE_VERIFICATION) ?? decoyCue(page);
  const open = firstCue(texts, OPEN_PROMPT);

  if (command.hidden && (lure !== null || (open !== null && !context.reputable))) {
    const cue = lure ?? open;
    const brand = lureBrand(page, context, [...verificationContexts(texts), open?.context ?? '']);
    const impersonation = brand === undefined ? [] : (['brand_impersonation'] as const);
    return [
      {
        id: 'clickfix_clipboard_command',
        level: 'danger',
        threatTypes: ['fake_captcha', 'pastejacking', ...impersonation],
        signals: ['fake_captcha', 'pastejacking', ...impersonation],
        confidence: 0.97,
        weight: 0,
        group: 'content',
        evidence: command.evidence,
        text: `the page puts ${describe(command)} it does not show on the clipboard${
          cue === null ? '' : ` behind "${excerpt(cue.quote, 60)}"`
        } and tells the visitor to run it`,
        ...(brand === undefined ? {} : { brand }),
      },
    ];
  }

  const suspicious = command.hidden || lure !== null || open !== null;
  if (suspicious && (!context.reputable || command.obfuscated)) {
    return [
      {
        id: 'clipboard_command',
        level: 'caution',
        threatTypes: ['pastejacking'],
        signals: ['pastejacking'],
        confidence: 0.75,
        weight: 0,
        group: 'content',
        evidence: command.evidence,
        text: `the page copies ${describe(command)} to the clipboard`,
      },
    ];
  }
  return [];
}

function describe(command: CommandHit): string {
  return command.obfuscated ? 'an obfuscated command' : 'a command';
}

/** Text around the first few fake-verification matches (where a lure names its brand). */
function verificationContexts(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const match of text.matchAll(FAKE_VERIFICATION_ALL)) {
      out.push(cueAt(text, match.index, match[0].length).context);
      if (out.length >= MAX_BRAND_CONTEXTS) return out;
    }
  }
  return out;
}

/** A decoy comment in code or decoded strings, or a kit identifier in code. */
function decoyCue(page: PageView): Cue | null {
  for (const source of [page.code, ...page.decoded]) {
    const match = DECOY_COMMENT.exec(source);
    if (match !== null) return cueAt(source, match.index, match[0].length);
  }
  const kit = KIT_IDENTIFIERS.exec(page.code);
  return kit === null ? null : { quote: kit[0], context: '' };
}

function firstCue(texts: readonly string[], pattern: RegExp): Cue | null {
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match !== null) return cueAt(text, match.index, match[0].length);
  }
  return null;
}

function cueAt(text: string, index: number, length: number): Cue {
  return {
    quote: excerpt(text.slice(index, index + length)),
    context: text.slice(Math.max(0, index - BRAND_RADIUS), index + length + BRAND_RADIUS),
  };
}

/**
 * Decoded strings as lower-case text: kits inject their overlay as an HTML string, so tags are
 * replaced by spaces before the lure words are matched.
 */
function decodedText(decoded: readonly string[]): string {
  let out = '';
  for (const text of decoded) {
    if (out.length >= MAX_DECODED_TEXT) break;
    out += `${text.replace(/<[^<>]{0,2000}>/g, ' ').replace(/&amp;/g, '&')}\n`;
  }
  return out.slice(0, MAX_DECODED_TEXT).normalize('NFKC').toLowerCase();
}

/**
 * The brand the lure impersonates, on a domain it does not own: one named next to the lure text
 * ("Performance & security by Cloudflare", "Google Meet … no camera found"). Only the lure's
 * surroundings count, so a compromised shop that names a brand elsewhere is not said to
 * impersonate it; a brand whose name is a common word ("Zoom", "Apple") must also be named in the
 * page's identity places (title, logo, headings).
 */
function lureBrand(
  page: PageView,
  context: PageContext,
  surroundings: readonly string[],
): Brand | undefined {
  const domain = context.analysis.url.registrableDomain;
  const named = brandsInText(surroundings.join(' | '), context.brands);
  if (named.length === 0) return undefined;
  const identity = named.some((brand) => brand.commonWord)
    ? identityBrands(page.doc, context.brands).map((n) => n.brand)
    : [];
  return named.find(
    (brand) =>
      (!brand.commonWord || identity.includes(brand)) &&
      brand !== context.owner &&
      !ownsDomain(brand, domain),
  );
}
