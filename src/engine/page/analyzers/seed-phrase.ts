/**
 * @module engine/page/analyzers/seed-phrase
 * Seed-phrase phishing (detection.md §2.2, §6.2, mapping §2.9): a page that asks for a wallet's
 * recovery phrase or private key. Legitimate sites never need one, wallets restore inside the
 * extension or app, so a seed-entry surface plus a way to send it off the page is a hard rule
 * (§4.2 step 1: "a seed form plus exfiltration on a non-wallet origin").
 *
 * Rules (heuristics of SeedBuster `detector_seed.py`, `config/heuristics.yaml`,
 * `config/kit_signatures.yaml`; phish-report IOK `exodus-wallet`; the "wallet validation /
 * rectification" template described by mirror.xyz "SCAM REVIEW: Validate Your Wallet"):
 * - **Entry surface**, one of:
 *   - an input grid: 12 or 24 text/password inputs, or 10–26 inputs of which at least 3 are
 *     seed-like, or at least 10 seed-like inputs (seed-like: name, id, placeholder or aria-label
 *     with word, seed, mnemonic, phrase, recovery, or a numbered word such as `word3` / "Mot n°3").
 *     A 12/24 grid without seed-like fields must be anonymous: one input type, no field named or
 *     autocompleted like an e-mail, name, address or card (a registration form is not a grid);
 *   - a grid built by script: `createElement('input')` (or an `<input` string) inside a loop that
 *     names the fields after a word (`"palavra" + i`), with a 12/18/24 count in the code or the
 *     page text (kits that ship no static inputs, so a static count misses them);
 *   - a phrase field: a textarea or input whose attributes name the phrase, or a private-key /
 *     keystore field (the "Phrase | Keystore JSON | Private Key" tabs).
 * - **Seed context**: the page names the phrase (multilingual list in `seed-phrase-patterns.ts`)
 *   in its text, identity or field attributes, or carries a BIP39 kit signal. A grid of twelve
 *   fields with no such context is only caution (a vocabulary quiz looks the same).
 * - **Exfiltration**: the surface's form posts somewhere, or the code (including strings decoded
 *   from base64) has a drop channel or network call (`exfiltration-channels.ts`).
 * - **Kit signals** (soft on their own): `bip39(.browser)(.min).js`, `validateBIP39`, an embedded
 *   BIP39 word list (≥ 200 words of the 2048, in list order, in one script), and SeedBuster's
 *   cloaking checks `is_datacenter|is_vpn|is_tor|is_proxy`.
 *
 * Levels: surface + context + exfiltration → danger `seed_phrase_form`; a surface without
 * exfiltration or without context → caution `seed_phrase_entry` (§2.2 FP guard: offline BIP39
 * tools and hardware-wallet docs mention the same words); on a crypto brand's own domain (web
 * wallets restore in the page) → soft. Wallet docs that only talk about the phrase have no surface
 * and produce nothing.
 */
import { resolveReference } from '../../url/resolve-reference.js';
import type { PageContext, PageView } from '../page-context.js';
import type { PageField } from '../page-document.js';
import { excerpt, type PageFinding } from '../page-finding.js';
import { impersonatedCryptoBrand, isCryptoBrand } from './crypto-brand.js';
import {
  type ExfiltrationChannel,
  exfiltrationChannels,
  NAMED_CHANNELS,
} from './exfiltration-channels.js';
import {
  BIP39_ENGLISH,
  KEY_FIELD_ATTR,
  NUMBERED_WORD_FIELD,
  SEED_FIELD_ATTR,
  SEED_NAME_IN_CODE,
  SEED_PHRASE_NAME,
  SEED_WORD_COUNT,
} from './seed-phrase-patterns.js';

/** Phrase lengths that make a grid of that many inputs definitive (SeedBuster: 12 or 24). */
const DEFINITIVE_GRID = new Set([12, 24]);
const MIN_GRID = 10;
const MAX_GRID = 26;
const MIN_SEED_LIKE_IN_GRID = 3;
/**
 * Attributes of fields that are not phrase words (identity, address, payment, search): a 12- or
 * 24-field form that has them is a registration or checkout form, not an anonymous word grid.
 */
const OTHER_FIELD =
  /e-?mail|phone|\btel\b|name|nome|nombre|address|street|city|cidade|ciudad|ville|stadt|zip|postal|\bcep\b|user|login|card|cvv|cvc|search|country|birth|company|amount|price|quantity|correo|telefon/;
/** Seed-like inputs that make a grid on their own, whatever the total. */
const SEED_LIKE_GRID = 10;

/** Places in code where a field is created. */
const INPUT_BUILD = /createElement\(\s*["'`]input["'`]\s*\)|<input\b/gi;
const MAX_INPUT_BUILDS = 20;
/** Code around a created field searched for the loop, the word name and the count. */
const BUILD_RADIUS = 400;
const LOOP = /\bfor\s*\(|\.forEach\s*\(|\bwhile\s*\(|\bArray\.from\s*\(|\.map\s*\(/;
const PHRASE_LENGTH_LITERAL = /\b(?:12|18|24)\b/;

const BIP39_SCRIPT = /(?:^|\/)bip-?39(?:[.-]browser)?(?:[.-]min)?\.js(?:[?#]|$)/i;
const VALIDATE_BIP39 = /\bvalidateBIP39\b/;
const CLOAK_CHECK = /\bis_(?:datacenter|vpn|tor|proxy)\b/g;
/** A BIP39 list in list order: word, then separators (quotes, commas, spaces, `\n` escapes). */
const LIST_WORD = /([a-z]{3,8})(?:[\s"'`,|;]|\\[nrt]){1,8}/y;
const MIN_LIST_RUN = 200;
/** `abandon` occurrences tried as the start of a list, per script. */
const MAX_LIST_STARTS = 5;

/** A way to type a phrase into the page. */
interface EntrySurface {
  /** What was found, for the evidence: `12 inputs named word1…word12`. */
  evidence: string;
  /** Forms holding the surface's fields (indexes into `doc.forms`); every form for a JS grid. */
  forms: number[];
  /** Field attributes that name the phrase (part of the seed context). */
  attributes: string;
  /**
   * The fields themselves look like word fields (a grid of seed-like inputs): caution even when
   * the page never names the phrase. False for a 12/24 grid of plain inputs and for a single field,
   * which count only with the page's seed context.
   */
  seedLike: boolean;
}

/**
 * Seed-phrase phishing findings of a page.
 *
 * @returns at most one surface finding (`seed_phrase_form` danger, or `seed_phrase_entry` caution
 *   / soft) and one soft `seed_phrase_kit` finding.
 */
export function analyzeSeedPhrase(page: PageView, context: PageContext): PageFinding[] {
  const findings: PageFinding[] = [];
  const kit = kitSignals(page);
  const surface = staticGrid(page.doc.fields) ?? scriptGrid(page) ?? phraseField(page.doc.fields);

  if (surface !== null) {
    const seedContext =
      kit.bip39 ||
      SEED_PHRASE_NAME.test(surface.attributes) ||
      SEED_PHRASE_NAME.test(page.identityLower) ||
      SEED_PHRASE_NAME.test(page.textLower);
    const channel = exfiltration(page, context, surface);
    const walletSite = context.owner !== null && isCryptoBrand(context.owner);
    const brand = impersonatedCryptoBrand(page, context);
    const base = {
      threatTypes: brand
        ? (['seed_phrase_phishing', 'crypto_scam', 'brand_impersonation'] as const)
        : (['seed_phrase_phishing', 'crypto_scam'] as const),
      signals: brand
        ? (['seed_phrase_phishing', 'crypto_scam', 'brand_impersonation'] as const)
        : (['seed_phrase_phishing', 'crypto_scam'] as const),
      group: 'content' as const,
      ...(brand ? { brand } : {}),
    };
    const brandText = brand ? ` under the ${brand.name} name` : '';

    if (!walletSite && channel !== null && seedContext) {
      findings.push({
        ...base,
        id: 'seed_phrase_form',
        level: 'danger',
        confidence: NAMED_CHANNELS.has(channel.kind) ? 0.97 : 0.92,
        weight: 0,
        evidence: excerpt(`${surface.evidence} → ${channel.evidence}`),
        text: `the page asks for a wallet recovery phrase${brandText} and sends it off the page`,
      });
    } else if (walletSite || seedContext || surface.seedLike) {
      findings.push({
        ...base,
        id: 'seed_phrase_entry',
        // A crypto brand's own site may restore a web wallet in the page: never more than soft.
        level: walletSite ? 'soft' : 'caution',
        confidence: walletSite ? 0.3 : 0.7,
        weight: walletSite ? 1 : 0,
        evidence: excerpt(surface.evidence),
        text: `the page asks for a wallet recovery phrase${brandText}`,
      });
    }
  }

  if (kit.evidence.length > 0) {
    findings.push({
      id: 'seed_phrase_kit',
      level: 'soft',
      threatTypes: ['seed_phrase_phishing', 'crypto_scam'],
      signals: ['seed_phrase_phishing', 'crypto_scam'],
      confidence: 0.5,
      weight: 1,
      group: 'content',
      evidence: excerpt(kit.evidence.join(' + ')),
      text: 'the page carries code used by seed-phrase phishing kits',
    });
  }
  return findings;
}

/** Lower-cased attributes of a field that can name it. */
function attributesOf(field: PageField): string {
  return `${field.name} ${field.id} ${field.placeholder} ${field.ariaLabel}`.toLowerCase();
}

/** What a field is called in evidence. */
function labelOf(field: PageField): string {
  return field.name || field.id || field.placeholder || field.ariaLabel || field.type;
}

function isTextInput(field: PageField): boolean {
  return field.tag === 'input' && (field.type === 'text' || field.type === 'password');
}

function isSeedLike(attributes: string): boolean {
  return SEED_FIELD_ATTR.test(attributes) || NUMBERED_WORD_FIELD.test(attributes);
}

/** A static grid of word inputs (SeedBuster's count rules). */
function staticGrid(fields: readonly PageField[]): EntrySurface | null {
  const inputs = fields.filter(isTextInput);
  if (inputs.length < MIN_GRID) return null;
  const seedLike = inputs.filter((field) => isSeedLike(attributesOf(field)));
  const count = inputs.length;
  const grid =
    seedLike.length >= SEED_LIKE_GRID ||
    (count <= MAX_GRID && seedLike.length >= MIN_SEED_LIKE_IN_GRID) ||
    (DEFINITIVE_GRID.has(count) && anonymousGrid(inputs));
  if (!grid) return null;
  const first = seedLike[0];
  const last = seedLike.at(-1);
  const named =
    first !== undefined && last !== undefined
      ? ` named ${labelOf(first)}…${labelOf(last)}`
      : ` of type ${inputs[0]?.type ?? 'text'}`;
  return {
    evidence: `${count} inputs${named}`,
    forms: [...new Set(inputs.map((field) => field.form))],
    attributes: seedLike.map(attributesOf).join(' '),
    seedLike: seedLike.length >= MIN_SEED_LIKE_IN_GRID,
  };
}

/**
 * True when the inputs look like one grid of words: all of one type, none named or autocompleted
 * like another kind of field.
 */
function anonymousGrid(inputs: readonly PageField[]): boolean {
  const type = inputs[0]?.type;
  return inputs.every(
    (field) =>
      field.type === type &&
      (field.autocomplete === '' || field.autocomplete === 'off') &&
      !OTHER_FIELD.test(attributesOf(field)),
  );
}

/** A word grid created by script: a field built in a loop and named after a word. */
function scriptGrid(page: PageView): EntrySurface | null {
  const code = page.code;
  let builds = 0;
  for (const match of code.matchAll(INPUT_BUILD)) {
    builds += 1;
    if (builds > MAX_INPUT_BUILDS) break;
    const start = Math.max(0, match.index - BUILD_RADIUS);
    const window = code.slice(start, match.index + BUILD_RADIUS);
    if (!LOOP.test(window)) continue;
    const name = SEED_NAME_IN_CODE.exec(window);
    if (name === null) continue;
    if (!PHRASE_LENGTH_LITERAL.test(window) && !SEED_WORD_COUNT.test(page.textLower)) continue;
    return {
      evidence: `inputs built in a loop, named ${excerpt(name[0], 30)}…`,
      forms: page.doc.forms.map((_, index) => index),
      attributes: name[0].toLowerCase(),
      seedLike: true,
    };
  }
  return null;
}

/** A textarea or input that names the phrase, or a private-key / keystore field. */
function phraseField(fields: readonly PageField[]): EntrySurface | null {
  let keyField: PageField | null = null;
  for (const field of fields) {
    if (field.tag !== 'textarea' && !isTextInput(field)) continue;
    const attributes = attributesOf(field);
    if (SEED_FIELD_ATTR.test(attributes)) {
      return {
        evidence: `${field.tag} ${excerpt(field.placeholder || labelOf(field), 50)}`,
        forms: [field.form],
        attributes,
        seedLike: false,
      };
    }
    if (keyField === null && KEY_FIELD_ATTR.test(attributes)) keyField = field;
  }
  if (keyField === null) return null;
  return {
    evidence: `${keyField.tag} ${excerpt(keyField.placeholder || labelOf(keyField), 50)}`,
    forms: [keyField.form],
    attributes: attributesOf(keyField),
    seedLike: false,
  };
}

/**
 * The strongest way the page sends the phrase: a named drop (Telegram, EmailJS, a kit collector)
 * in the surface's form action or in the code, then a form post, then plain network code.
 */
function exfiltration(
  page: PageView,
  context: PageContext,
  surface: EntrySurface,
): ExfiltrationChannel | null {
  const posts: ExfiltrationChannel[] = [];
  for (const index of surface.forms) {
    const action = page.doc.forms[index]?.action ?? '';
    if (action === '' || /^(?:#|javascript:)/i.test(action)) continue;
    const target = resolveReference(action, context.analysis.url.href);
    const shown = target === null ? action : `${target.hostname}${target.pathname}`;
    // A form posting to a kit collector (`/api/form/submit`) or a form backend is a named drop.
    const kind = exfiltrationChannels([action])[0]?.kind ?? 'network';
    posts.push({ kind, evidence: `form posts to ${excerpt(shown, 80)}` });
  }
  const channels = exfiltrationChannels([page.code, ...page.decoded]);
  const named = (channel: ExfiltrationChannel): boolean => NAMED_CHANNELS.has(channel.kind);
  return posts.find(named) ?? channels.find(named) ?? posts[0] ?? channels[0] ?? null;
}

/**
 * Kit signals of SeedBuster and IOK as short evidence strings; `bip39` when one of them is BIP39
 * code (which names the phrase as surely as the page text does; the cloaking check does not).
 */
function kitSignals(page: PageView): { evidence: string[]; bip39: boolean } {
  const evidence: string[] = [];
  const library = page.doc.scripts.find(
    (script) => script.src !== null && BIP39_SCRIPT.test(script.src),
  );
  if (library?.src) evidence.push(excerpt(library.src.split('/').at(-1) ?? library.src, 40));
  if (VALIDATE_BIP39.test(page.code)) evidence.push('validateBIP39()');
  for (const script of page.doc.scripts) {
    const run = bip39Run(script.code);
    if (run >= MIN_LIST_RUN) {
      evidence.push(`${run} BIP39 words in one script`);
      break;
    }
  }
  const bip39 = evidence.length > 0;
  const cloaks = new Set(Array.from(page.code.matchAll(CLOAK_CHECK), (match) => match[0]));
  if (cloaks.size >= 2) evidence.push([...cloaks].join('|'));
  return { evidence, bip39 };
}

/**
 * Longest run of BIP39 words in list order starting at an `abandon` (the first word) in `code`:
 * an embedded word list, not English prose or identifiers, which are neither consecutive words
 * separated only by quotes and commas nor in alphabetical list order.
 */
function bip39Run(code: string): number {
  let best = 0;
  let from = 0;
  for (let tries = 0; tries < MAX_LIST_STARTS; tries += 1) {
    const start = code.indexOf('abandon', from);
    if (start < 0) break;
    from = start + 1;
    LIST_WORD.lastIndex = start;
    let run = 0;
    let previous = '';
    for (let match = LIST_WORD.exec(code); match !== null; match = LIST_WORD.exec(code)) {
      const word = match[1] ?? '';
      if (!BIP39_ENGLISH.has(word) || word <= previous) break;
      previous = word;
      run += 1;
    }
    best = Math.max(best, run);
    if (best >= MIN_LIST_RUN) break;
  }
  return best;
}
