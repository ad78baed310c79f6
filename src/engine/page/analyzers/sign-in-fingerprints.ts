/**
 * @module engine/page/analyzers/sign-in-fingerprints
 * Fingerprints of big brands' own sign-in pages that kits copy with the page (IOK-style: the
 * phishing-kit indicators of the `phish-report/IOK` project match the same kind of copied
 * markup): the identifiers of the sign-in form's fields and buttons, and the sentences of its
 * interface — the placeholder, the help links, the error messages. A kit strips the brand's name
 * and logo to slip past brand matching but keeps the interface text, because the victim must see
 * the page they know. Two of one brand's fingerprints on a page are that brand's sign-in page;
 * only the brand's own domains serve it.
 *
 * The phrases are the brands' own interface text (English, as served on their sign-in pages in
 * 2021–2024), each chosen because no ordinary site writes it: "Email, phone, or Skype" is
 * Microsoft's account placeholder, "Having trouble logging in?" PayPal's help link. Generic
 * sign-in words ("Forgot password?", "Create new account", "Stay signed in") are never
 * fingerprints, and one phrase alone never counts.
 */
import type { PageDocument } from '../page-document.js';

/** One brand's fingerprints: field and button identifiers, and interface phrases. */
interface SignInFingerprint {
  /** Catalog brand id. */
  brand: string;
  /** `name`/`id` values of the sign-in page's inputs, lower-case. */
  ids: ReadonlySet<string>;
  /** Interface phrases, matched on letters and digits only (see {@link compact}). */
  phrases: readonly string[];
}

const FINGERPRINTS: readonly SignInFingerprint[] = [
  {
    brand: 'microsoft',
    ids: new Set(['loginfmt', 'idsibutton9', 'i0116', 'i0118', 'idbtn_back', 'kmsi', 'i0281']),
    phrases: [
      'Email, phone, or Skype',
      'No account? Create one!',
      'Can’t access your account?',
      'Sign-in options',
    ],
  },
  {
    brand: 'google',
    ids: new Set(['identifierid', 'identifiernext', 'passwordnext', 'totppin']),
    phrases: [
      'Forgot email?',
      'Not your computer? Use Guest mode to sign in privately.',
      'Use your Google Account',
      'To continue to Gmail',
    ],
  },
  {
    brand: 'apple',
    ids: new Set(['account_name_text_field', 'password_text_field', 'sign-in']),
    phrases: ['Forgot Apple ID or password?', 'Manage your Apple ID', 'Sign in with your Apple ID'],
  },
  {
    brand: 'paypal',
    ids: new Set(['splitlogincontext', 'splitlogincookiedfallback']),
    phrases: [
      'Having trouble logging in?',
      'Some of your info isn’t correct. Please try again.',
      'That email format isn’t right',
      'remember your first and last name, profile picture, and user ID when you log in on this browser',
      'Stay logged in for faster purchases',
    ],
  },
  {
    brand: 'facebook',
    ids: new Set(),
    phrases: [
      'Forgotten account?',
      'Log in to Facebook',
      'Create a Page for a celebrity, brand or business.',
      'Connect with friends and the world around you on Facebook.',
    ],
  },
];

/** Letters and digits only, lower-case: survives re-spaced and re-punctuated copies. */
function compact(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

const COMPACT_PHRASES = FINGERPRINTS.map((f) => f.phrases.map(compact));
/** Text of a page scanned for interface phrases (characters): sign-in pages are short. */
const SCAN_CHARS = 20_000;
const MIN_MATCHES = 2;

/**
 * Catalog brand ids whose own sign-in page this document is a copy of: two of the brand's field
 * identifiers, or two of its interface phrases in the text, placeholders and buttons.
 *
 * @param doc one parsed document.
 * @returns brand ids (`microsoft`, `paypal` …), [] when none matches.
 */
export function signInFingerprintBrands(doc: PageDocument): string[] {
  const fieldIds = new Set(
    doc.fields.flatMap((f) => [f.name.toLowerCase(), f.id.toLowerCase()]).filter((v) => v !== ''),
  );
  const text = compact(
    [doc.text.slice(0, SCAN_CHARS), ...doc.fields.map((f) => f.placeholder), ...doc.buttons].join(
      ' ',
    ),
  );
  const out: string[] = [];
  FINGERPRINTS.forEach((fingerprint, i) => {
    let ids = 0;
    for (const id of fingerprint.ids) if (fieldIds.has(id)) ids += 1;
    const phrases = (COMPACT_PHRASES[i] ?? []).filter((p) => text.includes(p)).length;
    if (ids >= MIN_MATCHES || phrases >= MIN_MATCHES) {
      out.push(fingerprint.brand);
    }
  });
  return out;
}
