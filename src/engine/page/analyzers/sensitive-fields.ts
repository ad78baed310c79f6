/**
 * @module engine/page/analyzers/sensitive-fields
 * The inputs that make a page a credential or payment harvester (detection.md §2.6 signals, §2.7):
 * password fields, payment-card fields (`autocomplete="cc-number"`, `cc-csc`, `cc-exp` or names
 * such as `cardnumber`, `cvv`, `tarjeta`, `kartennummer`), one-time-code fields, and password
 * inputs created by script (kits build the password step in a modal after the first submit).
 * Fields of HTML decoded from scripts (`decoded-documents.ts`) count like static ones.
 *
 * Shared by the credential analyzer (password, OTP, card) and the lure analyzer (a payment or
 * data form turns a lure text into a harvester).
 */
import type { PageView } from '../page-context.js';
import type { PageDocument, PageField, PageForm } from '../page-document.js';
import { excerpt } from '../page-finding.js';

/** A form holding a sensitive field, with the document it came from. */
interface SensitiveForm {
  form: PageForm;
  /** The form came from HTML decoded out of a script. */
  decoded: boolean;
}

/** What a page asks the visitor to type. */
export interface SensitiveFields {
  password: PageField[];
  card: PageField[];
  otp: PageField[];
  /** A password input created by script (`.type = "password"`, an `<input type=password>` string). */
  scriptPassword: string | null;
  /** Data-entry inputs (text, e-mail, phone, number, password, textarea) in all documents. */
  dataInputs: number;
  /** Forms holding a password, card or OTP field. */
  forms: SensitiveForm[];
  /**
   * Visible inputs for an account identifier (e-mail, phone, user name): the first step of a
   * sign-in that asks for the password on the next page.
   */
  identifier: PageField[];
  /** File inputs (`<input type=file>`): identity documents, selfies. */
  files: PageField[];
  /**
   * Inputs for identity secrets a bank or agency uses to verify its customer: social security
   * or tax number, date of birth, driving licence number, card PIN, mother's maiden name,
   * security answers.
   */
  identityData: PageField[];
  /** Some sensitive field exists only in HTML decoded from a script. */
  fromDecoded: boolean;
}

/** `autocomplete` tokens of payment cards (WHATWG autofill field names). */
const CARD_AUTOCOMPLETE = /\bcc-(?:number|csc|exp(?:-month|-year)?)\b/;
/**
 * Card field names, ids, placeholders and labels in the languages of detection.md §2.6.
 * Anchored on a non-letter so `discard` or `cardholder` do not count.
 */
const CARD_NAME =
  /(?:^|[^a-z])(?:card.?(?:num(?:ber)?|no\b|nr\b)|cardnumber|cc.?(?:num(?:ber)?|no\b)|ccnum|credit.?card|kredit.?karte|karten.?(?:nummer|nr)|num(?:ero|éro)?.?(?:de.?)?(?:la.?)?(?:tarjeta|carte|carta|cart[aã]o)|tarjeta|cart[aã]o|kaart.?nummer|numer.?karty|kart.?numaras|cvv2?|cvc2?|csc\b|cryptogramme|pr[uü]fnummer)/i;
const OTP_AUTOCOMPLETE = /\bone-time-code\b/;
const OTP_NAME =
  /(?:^|[^a-z])(?:otp|one.?time.?(?:code|pass)|sms.?code|verification.?code|verify.?code|auth.?code|2fa|mfa|totp|push.?tan|tan.?code|c[oó]digo.?(?:sms|de.?verifica)|code.?(?:sms|de.?v[ée]rification))/i;
/**
 * Inputs of a recovery-phrase grid (`word1`…`word24`, `mnemonic`) or a wallet key (`keystore`,
 * `private_key`): kits mask seed words as passwords; the seed-phrase analyzer (§2.2) judges them,
 * they are not a sign-in.
 */
const SEED_WORD =
  /(?:word|palavra|palabra|mot|wort|parola|woord|slowo)[\s_#.-]?\d{1,2}(?!\d)|mnemonic|seed|\bsrp\b|recovery.?phrase|keystore|private.?key/i;
/** Password inputs built by script: property or attribute writes and markup strings. */
const SCRIPT_PASSWORD =
  /\.type\s*=\s*["']password["']|setAttribute\(\s*["']type["']\s*,\s*["']password["']|<input\b[^<>]{0,200}?type\s*=\s*\\?["']?password/i;
/** Input types a visitor types data into. */
const DATA_TYPES = new Set(['text', 'email', 'tel', 'number', 'password', 'textarea', '']);
/** Code scanned for script-built password inputs (characters). */
const MAX_CODE_SCAN = 512 * 1024;

const fieldText = (f: PageField): string => `${f.name} ${f.id} ${f.placeholder} ${f.ariaLabel}`;

/**
 * Password names in the languages of the lure lists, for a password typed into a plain text
 * input (kits do it to dodge `type=password` checks, and virtual-keyboard bank pages fill
 * `pass1`…`pass8`). Anchored on non-letters: `passport`, `passenger`, `compass` are not passwords.
 */
const PASSWORD_NAME =
  /(?:^|[^a-z])(?:pass(?:word|wd|wort|code)?|pwd|pswd|psw|contra(?:s[eé]|se)?[nñ]a|contra|senha|mot.?de.?passe|mdp|wachtwoord|has[lł]o|[sş]ifre|parol[ae]?|clave|kennwort|passe)(?:[^a-z]|$)|пароль|密码|パスワード|비밀번호/i;
/** Identity-secret fields: SSN, tax id, birth date, licence number, PIN, maiden name, answers. */
const IDENTITY_DATA_NAME =
  /(?:^|[^a-z])(?:ssn|social.?security|sin|tax.?id|tin|dob|birth|geburt|nacimiento|naissance|nascita|dln|driver.?s?.?licen[cs]e|licen[cs]e.?number|pin|atm.?pin|card.?pin|mmn|maiden|security.?(?:question|answer)|answer\d?)(?:[^a-z]|$)/i;

/** Identifier fields: e-mail, phone, user name, login, account id. */
const IDENTIFIER_NAME =
  /(?:^|[^a-z])(?:e?-?mail|email|correo|user(?:name|id)?|login|account|acct|phone|mobile|tel|usuario|utilisateur|benutzer|identifiant|id)(?:[^a-z]|$)|логин|телефон/i;

/** The field's names as words: camelCase split (`txtContra` → `txt contra`), lower-cased. */
const fieldWords = (f: PageField): string => fieldText(f).replace(/([a-z])([A-Z])/g, '$1 $2');

/** A text input named, labelled or placed as a password. */
function isTextPassword(field: PageField): boolean {
  return (
    (field.type === 'text' || field.type === '') &&
    !field.hidden &&
    PASSWORD_NAME.test(fieldWords(field))
  );
}

/** An input for an account identifier. */
function isIdentifierField(field: PageField): boolean {
  if (field.type === 'email' || field.type === 'tel') return true;
  return (field.type === 'text' || field.type === '') && IDENTIFIER_NAME.test(fieldWords(field));
}

/** True for a payment-card field (number, expiry or security code). */
function isCardField(field: PageField): boolean {
  if (field.tag !== 'input' || field.type === 'hidden') return false;
  return CARD_AUTOCOMPLETE.test(field.autocomplete) || CARD_NAME.test(fieldText(field));
}

function isOtpField(field: PageField): boolean {
  if (field.tag !== 'input' || field.type === 'hidden' || field.type === 'password') return false;
  return OTP_AUTOCOMPLETE.test(field.autocomplete) || OTP_NAME.test(fieldText(field));
}

/**
 * Classify the fields of a page and its decoded documents.
 *
 * @param page the page view (its code is searched for script-built password inputs).
 * @param docs the page's documents, static first (`pageDocuments(page)`).
 */
export function sensitiveFields(page: PageView, docs: readonly PageDocument[]): SensitiveFields {
  const result: SensitiveFields = {
    password: [],
    card: [],
    otp: [],
    scriptPassword: null,
    dataInputs: 0,
    forms: [],
    identifier: [],
    files: [],
    identityData: [],
    fromDecoded: false,
  };
  let seedWords = 0;
  docs.forEach((doc, index) => {
    const decoded = index > 0;
    for (const field of doc.fields) {
      if (DATA_TYPES.has(field.type) && field.tag !== 'select') result.dataInputs += 1;
      let sensitive = true;
      if (field.tag === 'input' && (field.type === 'password' || isTextPassword(field))) {
        if (SEED_WORD.test(fieldText(field))) {
          seedWords += 1;
          sensitive = false;
        } else result.password.push(field);
      } else if (isCardField(field)) result.card.push(field);
      else if (isOtpField(field)) result.otp.push(field);
      else {
        sensitive = false;
        if (field.tag === 'input' && !field.hidden && isIdentifierField(field)) {
          result.identifier.push(field);
        }
        if (field.tag === 'input' && field.type === 'file') result.files.push(field);
        if (field.type !== 'hidden' && IDENTITY_DATA_NAME.test(fieldWords(field))) {
          result.identityData.push(field);
        }
      }
      if (!sensitive) continue;
      if (decoded) result.fromDecoded = true;
      const form = doc.forms[field.form];
      if (form !== undefined && !result.forms.some((f) => f.form === form)) {
        result.forms.push({ form, decoded });
      }
    }
  });
  // A page with a masked seed grid builds more of the same grid by script, not a sign-in.
  if (seedWords > 0) return result;
  const match =
    SCRIPT_PASSWORD.exec(page.code.slice(0, MAX_CODE_SCAN)) ??
    page.decoded.map((s) => SCRIPT_PASSWORD.exec(s)).find((m) => m !== null);
  if (match) result.scriptPassword = excerpt(match[0], 60);
  return result;
}
