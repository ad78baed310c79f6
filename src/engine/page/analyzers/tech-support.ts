/**
 * @module engine/page/analyzers/tech-support
 * Tech-support scams and browser lockers (detection.md §2.5, §6.5; IOK
 * `microsoft-tech-support-0589be7`: a phone number from a URL parameter plus an alarm mp3;
 * open-source scareware detectors record full-screen, keyboard-lock, pointer-lock and worker-bomb
 * requests; Microsoft Edge's scareware blocker keys on the same full-screen alerts).
 *
 * Rules:
 * - `browser_locker_alert` (danger, tech_support_scam + fake_urgency, §2.9): locker behaviour
 *   **and** tech-support alert text. Locker behaviour is one strong behaviour
 *   (`navigator.keyboard.lock()`, `requestPointerLock`, an alert/confirm loop, a
 *   `history.pushState` flood, a `window.open` loop, a worker bomb) with two kinds of alert
 *   wording or one plus a phone number next to a call/support word; or two weak behaviours
 *   (`requestFullscreen`, `onbeforeunload`, looping alarm audio, speech, a hidden cursor) with two
 *   kinds of alert wording. Behaviour and wording are also read from decoded strings, where lockers
 *   hide `requestFullscreen`, `keyboard`/`lock` and their messages.
 * - `tech_support_alert` (caution, tech_support_scam): the same alert wording with a phone number
 *   near a call/support word, or a remote-access tool (AnyDesk, TeamViewer …), and no locker
 *   behaviour (§2.5 "the text plus a phone number alone → caution").
 *
 * Alert wording must include a tech-support kind (infection, a Microsoft/Apple/Windows security
 * alert, "call support", a fake error code): a police-ransomware locker ("your computer has been
 * blocked", a fine to pay) is government impersonation, not a tech-support scam. FP guards: vendor
 * support pages name one alert phrase next to their real number (two kinds are needed); advice
 * pages and security blogs that quote a whole fake alert also call it a scam, which no scam page
 * does about itself, so `tech_support_alert` stays quiet there; they have no locker behaviour.
 */
import type { Brand } from '../../brand/brand-index.js';
import { brandsInText, ownsDomain } from '../page-brands.js';
import type { PageContext, PageView } from '../page-context.js';
import { around, excerpt, type PageFinding } from '../page-finding.js';
import {
  ADVISORY,
  ALERT_KINDS,
  CALL_WORD,
  LOCKER_BEHAVIOURS,
  PHONE,
  REMOTE_TOOL,
} from './tech-support-patterns.js';

/**
 * Page text searched for alert wording, phone numbers and advisory words (characters). Scam
 * alerts are short pages whose message comes first (page-brands.ts reads brands from the first
 * 20,000 characters for the same reason); this bounds the work on a 1 MB documentation page.
 */
const TEXT_SCAN_CHARS = 32 * 1024;
/** Decoded text searched for alert wording and phone numbers (characters). */
const MAX_DECODED_TEXT = 32 * 1024;
/** Characters either side of a phone number searched for a call/support word. */
const CALL_RADIUS = 120;
/** Phone numbers examined per text. */
const MAX_PHONES = 20;
/** Characters either side of the first alert match quoted as evidence. */
const QUOTE_RADIUS = 24;
/** Characters either side of an alert match searched for the brand it names. */
const BRAND_RADIUS = 60;

/** Alert wording found on a page. */
interface AlertText {
  kinds: string[];
  tech: boolean;
  /** The first match. */
  quote: string;
  /** The first match with some context, for evidence. */
  excerpt: string;
  /** Text around every match, where the alert names its brand. */
  surroundings: string[];
}

/** Report tech-support scams and browser lockers (see the module comment for the rules). */
export function analyzeTechSupport(page: PageView, context: PageContext): PageFinding[] {
  const decoded = decodedText(page.decoded);
  const text = page.textLower.slice(0, TEXT_SCAN_CHARS);
  const texts = [text, decoded];
  const alert = alertText(texts);
  if (!alert?.tech) return [];
  const phone = phoneNearCall(texts);
  const wording = alert.kinds.length >= 2 || (phone !== null && alert.kinds.length >= 1);
  if (!wording) return [];

  const behaviours = lockerBehaviours(page, decoded);
  const strong = behaviours.filter((b) => b.strong).length;
  const brand = alertBrand(page, context, alert);
  const impersonation = brand === undefined ? [] : (['brand_impersonation'] as const);

  // Weak behaviours alone (a video player's full screen, an editor's beforeunload) also occur on
  // real sites, so without a strong one the alert must use two kinds of wording.
  if (strong >= 1 || (behaviours.length >= 2 && alert.kinds.length >= 2)) {
    return [
      {
        id: 'browser_locker_alert',
        level: 'danger',
        threatTypes: ['tech_support_scam', ...impersonation],
        signals: ['tech_support_scam', 'fake_urgency', ...impersonation],
        confidence: 0.95,
        weight: 0,
        group: 'content',
        evidence: excerpt(`"${alert.excerpt}"${phone === null ? '' : ` ${phone}`}`),
        text: `the page locks the browser (${behaviours
          .slice(0, 3)
          .map((b) => b.id.replace(/_/g, ' '))
          .join(', ')}) behind a fake security alert ("${excerpt(alert.quote, 50)}")`,
        ...(brand === undefined ? {} : { brand }),
      },
    ];
  }

  const remote = REMOTE_TOOL.exec(text)?.[0] ?? null;
  if (alert.kinds.length < 2 || (phone === null && remote === null)) return [];
  if (ADVISORY.test(text)) return [];
  return [
    {
      id: 'tech_support_alert',
      level: 'caution',
      threatTypes: ['tech_support_scam', ...impersonation],
      signals: ['tech_support_scam', ...impersonation],
      confidence: 0.8,
      weight: 0,
      group: 'content',
      evidence: excerpt(`"${alert.excerpt}" ${phone ?? remote ?? ''}`),
      text: `the page shows a fake security alert ("${excerpt(alert.quote, 50)}") with ${
        phone === null ? `a remote-access tool (${remote ?? ''})` : 'a support number to call'
      }`,
      ...(brand === undefined ? {} : { brand }),
    },
  ];
}

/** The kinds of alert wording in the texts (each kind counted once). */
function alertText(texts: readonly string[]): AlertText | null {
  const kinds: string[] = [];
  const surroundings: string[] = [];
  let tech = false;
  let quote = '';
  let context = '';
  for (const kind of ALERT_KINDS) {
    for (const text of texts) {
      const match = kind.pattern.exec(text);
      if (match === null) continue;
      kinds.push(kind.id);
      tech ||= kind.tech;
      if (quote === '') {
        quote = excerpt(match[0]);
        context = around(text, match.index, match[0].length, QUOTE_RADIUS);
      }
      surroundings.push(
        text.slice(
          Math.max(0, match.index - BRAND_RADIUS),
          match.index + match[0].length + BRAND_RADIUS,
        ),
      );
      break;
    }
  }
  return kinds.length === 0 ? null : { kinds, tech, quote, excerpt: context, surroundings };
}

/** The first phone number with a call/support word near it, as written, or null. */
function phoneNearCall(texts: readonly string[]): string | null {
  for (const text of texts) {
    let seen = 0;
    for (const match of text.matchAll(PHONE)) {
      const window = around(text, match.index, match[0].length, CALL_RADIUS);
      if (CALL_WORD.test(window)) return excerpt(match[0]);
      seen += 1;
      if (seen >= MAX_PHONES) break;
    }
  }
  return null;
}

/** Locker behaviours in code, decoded strings and style sheets. */
function lockerBehaviours(page: PageView, decoded: string): { id: string; strong: boolean }[] {
  const found: { id: string; strong: boolean }[] = [];
  const styles = page.doc.styles.join('\n');
  for (const behaviour of LOCKER_BEHAVIOURS) {
    const sources = behaviour.id === 'hidden_cursor' ? [styles, page.code] : [page.code, decoded];
    if (sources.some((source) => behaviour.pattern.test(source))) {
      found.push({ id: behaviour.id, strong: behaviour.strong });
    }
  }
  // `navigator[t[6]][t[7]]()` with `keyboard` and `lock` in a decoded string table.
  if (
    !found.some((b) => b.id === 'keyboard_lock') &&
    page.decoded.includes('keyboard') &&
    page.decoded.includes('lock')
  ) {
    found.push({ id: 'keyboard_lock', strong: true });
  }
  const audio =
    page.doc.autoplayMedia.some((media) => media.loop) ||
    (/\bnew\s+Audio\s*\(/.test(page.code) && /\.play\s*\(/.test(page.code));
  if (audio) found.push({ id: 'alarm_audio', strong: false });
  return found;
}

/**
 * The brand the alert impersonates (a tech brand named in the title, the headings or next to the
 * alert wording) on a domain it does not own. "Windows" names Microsoft's product, not a catalog
 * alias, so a Windows alert with no other brand is Microsoft's.
 */
function alertBrand(page: PageView, context: PageContext, alert: AlertText): Brand | undefined {
  const domain = context.analysis.url.registrableDomain;
  const named = [page.doc.title, ...page.doc.headings.slice(0, 8), ...alert.surroundings].join(
    ' | ',
  );
  const candidates = brandsInText(named, context.brands).filter((b) => b.category === 'tech');
  if (candidates.length === 0 && /\bwindows\b/i.test(named)) {
    const microsoft = context.brands.brandByName('microsoft');
    if (microsoft !== undefined) candidates.push(microsoft);
  }
  return candidates.find((brand) => brand !== context.owner && !ownsDomain(brand, domain));
}

/** Decoded strings as one lower-case text (lockers keep their messages in string tables). */
function decodedText(decoded: readonly string[]): string {
  let out = '';
  for (const text of decoded) {
    if (out.length >= MAX_DECODED_TEXT) break;
    out += `${text}\n`;
  }
  return out.slice(0, MAX_DECODED_TEXT).normalize('NFKC').toLowerCase();
}
