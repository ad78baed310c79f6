/**
 * @module engine/page/analyzers/exfiltration-channels
 * Where a page's code can send what a visitor typed or which wallet connected: the drop channels
 * kits use (detection.md §2.2 "Exfiltration", §2.7 "JS exfiltration", §6.1 "C2 and logging",
 * §6.2, §6.6) and the generic ways code talks to a server (§2.2 FP guard: "form action, fetch or
 * XHR, WebSocket"). Shared by the seed-phrase analyzer (a seed form needs a submission path) and
 * the wallet-drainer analyzer (Telegram / Discord reporting corroborates a drainer).
 *
 * Sources: Telegram bot reporting and Discord webhooks (Cofense / Infosecurity on Telegram
 * exfiltration; IOK indicators); EmailJS and the form-backend services of phish-report IOK
 * (`formspree.io/f/`, `getform.io`, `formsubmit.co`, `submit-form.com`, `nocodeform.io`,
 * `form2chat.io`, `formpost.app`, `actionforms.io`); Google Apps Script `macros/s/…/exec`;
 * SeedBuster `kit_signatures.yaml` collector paths (`/api/form/submit`, `/log-ip`) and C2 on
 * `*.ondigitalocean.app`; IOK drainer panels (`PANEL_URL`, `/api/log`).
 */
import { excerpt } from '../page-finding.js';

/** Kinds of channel, strongest first. */
export type ExfiltrationKind =
  /** `api.telegram.org/bot…`: a bot token in the page; messages go to the kit owner's chat. */
  | 'telegram'
  /** `discord.com/api/webhooks/…`. */
  | 'discord'
  /** EmailJS: form data mailed from the browser. */
  | 'emailjs'
  /** A form-backend service or Google Apps Script endpoint. */
  | 'form_backend'
  /** A kit collector path or panel (`/api/form/submit`, `/log-ip`, `PANEL_URL`). */
  | 'collector'
  /** Generic network code: fetch, XHR, jQuery AJAX, axios, sendBeacon, WebSocket, image beacon. */
  | 'network';

/** One channel found in code, with short evidence around the first match. */
export interface ExfiltrationChannel {
  kind: ExfiltrationKind;
  evidence: string;
}

/** Kinds that name a third-party drop or a kit collector (not ordinary app traffic). */
export const NAMED_CHANNELS: ReadonlySet<ExfiltrationKind> = new Set([
  'telegram',
  'discord',
  'emailjs',
  'form_backend',
  'collector',
]);

/**
 * One pass over the code: each alternative is one capture group, in {@link ExfiltrationKind}
 * order. Every part is a literal or a bounded class, so the scan is linear. Case-sensitive: kits
 * write these names as documented, and a case-insensitive alternation is several times slower on
 * large bundles.
 */
const CHANNELS =
  /(api\.telegram\.org\/bot)|(discord(?:app)?\.com\/api\/webhooks\/)|(api\.emailjs\.com|\bemailjs\.(?:send|sendForm|init)\b)|(formspree\.io\/f\/|getform\.io\/|formsubmit\.co\/|submit-form\.com\/|nocodeform\.io|form2chat\.io|formpost\.app|actionforms\.io|script\.google\.com\/macros\/s\/)|(\/api\/form\/submit\b|\/log-ip\b|\/api\/log\b|\bPANEL_URL\b|\.ondigitalocean\.app\b)|(\bfetch\s*\(|\bXMLHttpRequest\b|\$\.(?:ajax|post|get)\s*\(|\baxios(?:\.post)?\s*\(|\bsendBeacon\s*\(|\bnew\s+WebSocket\s*\(|\bnew\s+Image\s*\()/g;

const KINDS: readonly ExfiltrationKind[] = [
  'telegram',
  'discord',
  'emailjs',
  'form_backend',
  'collector',
  'network',
];

/** Matches looked at per call: channels repeat, the first of each kind is enough. */
const MAX_MATCHES = 500;

/**
 * Channels a page's code can send data through.
 *
 * @param sources code to scan (the page's code and the strings decoded from it); each is scanned
 *   once.
 * @returns at most one channel per kind, in {@link ExfiltrationKind} order.
 */
export function exfiltrationChannels(sources: readonly string[]): ExfiltrationChannel[] {
  const found = new Map<ExfiltrationKind, string>();
  let seen = 0;
  for (const source of sources) {
    for (const match of source.matchAll(CHANNELS)) {
      const kind = KINDS[firstGroup(match) - 1];
      if (kind !== undefined && !found.has(kind)) {
        found.set(kind, channelEvidence(source, match.index, match[0], kind));
      }
      seen += 1;
      if (found.size === KINDS.length || seen >= MAX_MATCHES) break;
    }
    if (found.size === KINDS.length || seen >= MAX_MATCHES) break;
  }
  return KINDS.filter((kind) => found.has(kind)).map((kind) => ({
    kind,
    evidence: found.get(kind) ?? '',
  }));
}

/**
 * The matched channel and what follows it: the rest of the URL for a named channel (cut at a quote
 * or space), the rest of the statement for a network call.
 */
function channelEvidence(
  source: string,
  index: number,
  matched: string,
  kind: ExfiltrationKind,
): string {
  const tail = source.slice(index + matched.length, index + matched.length + 60);
  const stop = kind === 'network' ? tail.search(/[\n;]/) : tail.search(/[\s"'`)]/);
  return excerpt(matched + (stop < 0 ? tail : tail.slice(0, stop)), 70);
}

/** Index of the first capture group that took part in `match` (0 when none did). */
export function firstGroup(match: RegExpMatchArray): number {
  for (let group = 1; group < match.length; group += 1) {
    if (match[group] !== undefined) return group;
  }
  return 0;
}
