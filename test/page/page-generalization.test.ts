/**
 * The page classes an independent evaluation on real captures found missed or falsely flagged
 * (issue "detection that generalizes"): passwords typed into text inputs, e-mail-first steps,
 * brand-less webmail and shared-document lures, identity-document uploads, brands shown only by
 * favicon, canonical address or look-alike letters, parcel-fee lures in one German compound, and
 * the false-alarm classes — a page naming itself while mentioning a brand, social sign-in and
 * payment buttons, sister sites, card-network marks. Every page here is written for the test.
 */
import { describe, expect, it } from 'vitest';

import { analyzePage, pageView } from '../../src/engine/page/analyze-page.js';
import { brandClaims } from '../../src/engine/page/analyzers/brand-claims.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { urlContext } from '../helpers/analyzer-input.js';

function analyze(html: string, url: string, fresh: boolean | null = null): PageFinding[] {
  return analyzePage(parsePage(html), urlContext(url, fresh)).findings;
}
const loud = (findings: readonly PageFinding[]): string[] =>
  findings.filter((f) => f.level !== 'soft').map((f) => `${f.level}:${f.id}`);
const claimsOf = (html: string, url: string): string[] =>
  brandClaims([parsePage(html)], urlContext(url)).map((c) => `${c.brand.id}:${c.strength}`);

describe('credential fields beyond <input type=password>', () => {
  it('a password typed into a text input named as one (camelCase, Spanish) counts', () => {
    const html =
      '<title>Facebook - Inicia sesión</title><form action="next.php"><input name="txtCorreo"><input name="txtContra"></form>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:credential_brand_mismatch',
    ]);
  });

  it('a virtual-keyboard PIN grid (pass1…pass8) counts; a passport number does not', () => {
    const grid = `<title>Santander</title><form>${[1, 2, 3, 4]
      .map((i) => `<input name="pass${i}">`)
      .join('')}</form>`;
    expect(loud(analyze(grid, 'https://quiet-garden-notes.com/'))).toContain(
      'caution:credential_brand_mismatch',
    );
    const passport =
      '<title>Santander</title><form><input name="passport_number"><input name="passenger"></form>';
    expect(loud(analyze(passport, 'https://quiet-garden-notes.com/'))).toEqual([]);
  });
});

describe('the first step of a sign-in', () => {
  const step = (title: string): string =>
    `<title>${title}</title><form action="/next"><input type="email" name="loginfmt"><button>Next</button></form>`;

  it('an e-mail-only step as a brand is caution, danger on risky infrastructure', () => {
    expect(
      loud(analyze(step('Sign in to your Microsoft account'), 'https://quiet-garden-notes.com/')),
    ).toEqual(['caution:credential_first_step']);
    expect(loud(analyze(step('Microsoft account'), 'https://quiet-garden-notes.top/'))).toEqual([
      'danger:credential_first_step',
    ]);
  });

  it('a newsletter or contact form in a brand’s name is not a sign-in step', () => {
    const contact =
      '<title>Microsoft partner news</title><form><input name="name"><input type="email" name="email"><textarea name="message"></textarea></form>';
    expect(loud(analyze(contact, 'https://quiet-garden-notes.top/'))).toEqual([]);
  });
});

describe('brand-less credential lures', () => {
  it('a webmail quota upgrade asking for the mailbox password', () => {
    const html =
      '<title>Email Settings</title><p>Confirm your ID to upgrade your mail quota</p><form action="none.php"><input type="password" name="passwd"></form>';
    const findings = analyze(html, 'https://quiet-garden-notes.com/');
    expect(loud(findings)).toEqual(['caution:credential_lure']);
    expect(findings[0]?.evidence).toMatch(/mail quota/);
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/', true))).toEqual([
      'danger:credential_lure',
    ]);
  });

  it('a shared document that opens only after signing in', () => {
    const html =
      '<title>Sharing Link Validation</title><p>You have received a link to a file that requires a password. To open the content, enter your email and password.</p><form><input type="email"><input type="password"></form>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:credential_lure',
    ]);
  });

  it('an ordinary sign-in page without a lure is nothing', () => {
    const html =
      '<title>Members area</title><p>Welcome back.</p><form><input name="user"><input type="password"></form>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([]);
  });
});

describe('identity documents', () => {
  it('a passport and selfie upload as a brand', () => {
    const html =
      '<title>PayPal: Confirm your account</title><p>Upload your identity: passport or driver’s license, and a selfie.</p><form><input type="file" name="doc"><input type="file" name="selfie"></form>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toContain(
      'caution:identity_document_upload',
    );
  });
});

describe('where a page says which brand it is', () => {
  it('look-alike letters of other scripts in the title', () => {
    expect(claimsOf('<title>Sign in | Chɑse</title>', 'https://quiet-garden-notes.com/')).toEqual([
      'chase:strong',
    ]);
    expect(claimsOf('<title>Chαse Bαnk</title>', 'https://quiet-garden-notes.com/')).toEqual([
      'chase:strong',
    ]);
  });

  it('the canonical address or og:url on a brand’s official domain', () => {
    expect(
      claimsOf(
        '<link rel="canonical" href="https://www.instagram.com/">',
        'https://quiet-garden-notes.com/',
      ),
    ).toEqual(['instagram:strong']);
  });

  it('a favicon from a brand’s servers is medium alone and strong with a name', () => {
    const icon = '<link rel="icon" href="https://www.paypalobjects.com/favicon.ico">';
    expect(claimsOf(icon, 'https://quiet-garden-notes.com/')).toEqual(['paypal:medium']);
    expect(claimsOf(`${icon}<h2>PayPal</h2>`, 'https://quiet-garden-notes.com/')).toEqual([
      'paypal:strong',
    ]);
  });

  it('ASCII look-alikes of a distinctive name in the title (l for I, I for l, 0 for o)', () => {
    const at = 'https://quiet-garden-notes.com/';
    expect(claimsOf('<title>Blue Badge | lnstagram</title>', at)).toEqual(['instagram:strong']);
    expect(claimsOf('<title>Log in to your PayPaI account</title>', at)).toEqual(['paypal:strong']);
    // Ordinary words one swap away from nothing, and ordinary-word brands, are left alone.
    expect(claimsOf('<title>Olive oil and lnk</title>', at)).toEqual([]);
    expect(claimsOf('<title>App1e pie</title>', at)).toEqual([]);
  });

  it('an ordinary-word brand named by a specific name: several words or its own compound', () => {
    const at = 'https://quiet-garden-notes.com/';
    // "Intesa" alone is an Italian word; "Intesa Sanpaolo" is the bank, even mid-title.
    expect(claimsOf('<title>Banca Intesa Sanpaolo - Conto Corrente</title>', at)).toEqual([
      'intesa-sanpaolo:strong',
    ]);
    expect(claimsOf('<title>Un’intesa tra amici</title>', at)).toEqual([]);
    // A one-word alias built on the brand's token reads as the brand.
    expect(claimsOf('<title>Raiffeisenbank</title>', at)).toEqual(['raiffeisen:strong']);
    expect(claimsOf('<p>Your Apple ID</p><p>Apple ID password</p>', at)).toEqual(['apple:weak']);
    expect(claimsOf('<p>An apple a day.</p><p>Apple pie.</p>', at)).toEqual([]);
  });

  it('a distinctive brand repeated at the top of the text is a weak claim', () => {
    const text = '<p>About DHL</p><p>Your DHL parcel is waiting.</p>';
    expect(claimsOf(text, 'https://quiet-garden-notes.com/')).toEqual(['dhl:weak']);
  });
});

describe('cloned sign-in pages and identity secrets', () => {
  it('a big brand’s own sign-in field identifiers cloned onto another site claim that brand', () => {
    const html =
      '<title>Sign in to your account</title><form><input type="email" name="loginfmt" id="i0116"><input type="password" name="passwd" id="i0118"><input type="submit" id="idSIButton9"></form>';
    expect(claimsOf(html, 'https://quiet-garden-notes.com/')).toEqual(['microsoft:strong']);
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:credential_brand_mismatch',
    ]);
  });

  it('social security number, licence and PIN asked as a bank', () => {
    const html =
      '<title>Welcome to Online Banking | M&T Bank</title><form><input name="ssn"><input name="dln"><input name="pin"></form>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:identity_data_brand_mismatch',
    ]);
    const own = '<title>Tax form</title><form><input name="ssn"><input name="dob"></form>';
    expect(loud(analyze(own, 'https://quiet-garden-notes.com/'))).toEqual([]);
  });

  it('a full set of security answers under a bank’s copyright line', () => {
    const answers = (n: number): string =>
      Array.from({ length: n }, (_, i) => `<input name="answer${i + 1}">`).join('');
    const page = (n: number): string =>
      `<title>Your Security Questions</title><form>${answers(n)}</form><p>© 2021 Wells Fargo</p>`;
    expect(loud(analyze(page(3), 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:identity_data_brand_mismatch',
    ]);
    // Two answers under a copyright line are not enough: the line may name a parent company.
    expect(loud(analyze(page(2), 'https://quiet-garden-notes.com/'))).toEqual([]);
  });
});

describe('a locked-account notice without a form', () => {
  const notice = (title: string): string =>
    `<title>${title}</title><p>We've noticed unusual activity on your account. We need you to verify your account information.</p><a href="verify.php">Proceed to verification</a>`;

  it('as a brand on a site it does not own is caution, danger on risky infrastructure', () => {
    const findings = analyze(
      notice('Wells Fargo | Before we proceed'),
      'https://quiet-garden-notes.com/',
    );
    expect(loud(findings)).toEqual(['caution:account_lure_brand_mismatch']);
    expect(findings[0]?.brand?.id).toBe('wells-fargo');
    expect(
      loud(analyze(notice('Wells Fargo | Before we proceed'), 'https://quiet-garden-notes.top/')),
    ).toEqual(['danger:account_lure_brand_mismatch']);
  });

  it('on the brand’s own site, without a brand, or on a page that names itself it is nothing', () => {
    expect(loud(analyze(notice('Wells Fargo | Security'), 'https://www.wellsfargo.com/'))).toEqual(
      [],
    );
    expect(loud(analyze(notice('Before we proceed'), 'https://quiet-garden-notes.com/'))).toEqual(
      [],
    );
    expect(
      loud(
        analyze(
          notice('Wells Fargo account scams | Quiet Garden Notes'),
          'https://quiet-garden-notes.com/',
        ),
      ),
    ).toEqual([]);
  });
});

describe('mentioning a brand is not claiming it', () => {
  it('a page that names itself mentions other brands in headings, logos and the body', () => {
    const html =
      '<title>Quiet Garden Notes</title><h2>PayPal</h2><img alt="PayPal logo" src="/img/paypal-logo.png"><p>We accept PayPal. PayPal is fine.</p><form><input type="password"></form>';
    expect(claimsOf(html, 'https://quiet-garden-notes.com/')).toEqual([]);
  });

  it('a site named after a brand it writes about, unless its name reads as impersonation', () => {
    const fan = '<title>Pokemon Pets</title><form><input type="password"></form>';
    expect(claimsOf(fan, 'https://www.pokemonpets.com/login')).toEqual([]);
  });

  it('social sign-in and payment buttons', () => {
    const html =
      '<title>Register</title><a href="https://www.facebook.com/dialog/oauth?client_id=1">Sign in with Facebook</a><img alt="Facebook logo" src="/fb-logo.png"><button>Pay with PayPal</button><img alt="PayPal logo" src="/pp-logo.png"><form><input type="password"></form>';
    expect(claimsOf(html, 'https://quiet-garden-notes.com/')).toEqual([]);
  });

  it('card-network marks on a checkout', () => {
    const html =
      '<title>Checkout</title><img alt="Visa logo" src="/visa-logo.svg"><img alt="Mastercard logo" src="/mc-logo.svg"><form><input name="cardnumber" autocomplete="cc-number"></form>';
    expect(claimsOf(html, 'https://quiet-garden-notes.com/')).toEqual([]);
  });

  it('a sister site: the brand’s own name under another legitimate TLD', () => {
    const html = '<title>Revolut</title><form><input type="password"></form>';
    expect(claimsOf(html, 'https://app.revolut.net/')).toEqual([]);
    expect(claimsOf(html, 'https://app.revolut-secure.net/')).toEqual(['revolut:strong']);
  });

  it('an ordinary-word brand counts where a name starts, not inside another name', () => {
    expect(
      claimsOf('<title>Astral Guild Forum</title>', 'https://quiet-garden-notes.com/'),
    ).toEqual([]);
    expect(claimsOf('<title>Chase | Sign in</title>', 'https://quiet-garden-notes.com/')).toEqual([
      'chase:strong',
    ]);
  });
});

describe('parcel-fee lures', () => {
  it('a carrier in the title asking a small fee in one German compound word', () => {
    const html =
      '<title>Deutsche Post</title><p>SCHRITT 1: ZAHLUNG DER PAKETGEBÜHREN Betrag: 2,99 €</p><form><input type="radio" name="pay"><button>Weiter</button></form>';
    const findings = analyze(html, 'https://quiet-garden-notes.com/');
    expect(loud(findings)).toEqual(['caution:delivery_lure']);
    expect(findings[0]?.brand?.id).toBe('deutsche-post');
  });
});

describe('cloaking', () => {
  it('a human check that no CAPTCHA service serves is evidence, a real one is not', () => {
    const fake = '<title>Checking your browser</title><p>Please wait while we check.</p>';
    const ids = (html: string): string[] =>
      analyze(html, 'https://quiet-garden-notes.com/').map((f) => f.id);
    expect(ids(fake)).toContain('security_gate');
    const real = `${fake}<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>`;
    expect(ids(real)).not.toContain('security_gate');
  });

  it('a <noscript> bounce to another site is evidence', () => {
    const html = `<noscript><meta http-equiv="refresh" content="0;url=https://www.google.com/"></noscript><title>x</title>`;
    const findings = analyzePage(parsePage(html), urlContext('https://quiet-garden-notes.com/'));
    expect(findings.findings.map((f) => f.id)).toContain('noscript_bounce');
    expect(pageView(parsePage(html)).doc.meta.has('refresh')).toBe(false);
  });
});

describe('a big brand’s sign-in page copied without its name', () => {
  const microsoft =
    '<title>Sign in to your account</title><form action="1.php"><input type="email" name="u" placeholder="Email,phone, or Skype"></form><p>No account? Create one!</p><a href="#">Can’t access your account?</a>';

  it('two of its interface phrases claim the brand; one alone, or generic words, do not', () => {
    expect(claimsOf(microsoft, 'https://quiet-garden-notes.com/')).toEqual(['microsoft:strong']);
    expect(loud(analyze(microsoft, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:credential_first_step',
    ]);
    const one =
      '<title>Members</title><form><input type="email" name="u"><input type="password" name="p"></form><a href="#">Can’t access your account?</a>';
    expect(claimsOf(one, 'https://quiet-garden-notes.com/')).toEqual([]);
    const generic =
      '<title>Members</title><form><input type="password" name="p"></form><a>Forgot password?</a><a>Create new account</a><label>Stay signed in</label>';
    expect(claimsOf(generic, 'https://quiet-garden-notes.com/')).toEqual([]);
  });

  it('a brand-stripped PayPal log-in keeps PayPal’s help link and error text', () => {
    const html =
      '<title>Log in to your account</title><form><input type="email" name="e"><input type="password" name="p"></form><p>That email format isn’t right</p><a>Having trouble logging in?</a>';
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([
      'caution:credential_brand_mismatch',
    ]);
  });
});

describe('a sign-in on a throwaway site', () => {
  const form =
    '<title>Login</title><form action="https://collector-example.win/k.php"><input name="user"><input type="password" name="pass"></form>';

  it('a password form posting to another site is caution on a hosting tenant, soft elsewhere', () => {
    expect(loud(analyze(form, 'https://someone-profile.blogspot.com/'))).toEqual([
      'caution:credential_exfiltration',
    ]);
    expect(loud(analyze(form, 'https://quiet-garden-notes.com/'))).toEqual([]);
  });

  it('a user-name step under an account warning is caution on an abused TLD, quiet elsewhere', () => {
    const html =
      '<title>Talep Oluştur</title><p>Hesabınız kurallarımızı ihlal ediyor, lütfen hesabınızı doğrulamak için formu doldurun.</p><form><input name="username"><button>Devam Et</button></form>';
    expect(loud(analyze(html, 'https://games-area-example.cf/'))).toEqual([
      'caution:credential_lure_first_step',
    ]);
    expect(loud(analyze(html, 'https://quiet-garden-notes.com/'))).toEqual([]);
  });
});

describe('naming the brand', () => {
  it('reads the owner written before the copyright sign', () => {
    const html =
      '<title>Welcome</title><form><input type="password" name="p"></form><footer>Help Centre · Facebook ©2018</footer>';
    expect(claimsOf(html, 'https://quiet-garden-notes.com/')).toEqual(['facebook:medium']);
  });

  it('a brand named twice at the top, and no other, names a page other evidence raised', () => {
    const html =
      '<title>Validation Program Recovery</title><p>Continue to Facebook. We have detected suspicious activity on your Facebook account.</p><form action="x.php"><input name="e"><input type="password" name="p"></form>';
    const findings = analyze(html, 'https://quiet-garden-notes.com/');
    expect(loud(findings)).toEqual(['caution:credential_lure']);
    expect(findings.find((f) => f.id === 'brand_claim')?.brand?.name).toBe('Facebook');
    const two =
      '<title>Recovery</title><p>Facebook and Instagram: Facebook, Instagram. Suspicious activity on your account.</p><form action="x.php"><input type="password" name="p"></form>';
    expect(
      analyze(two, 'https://quiet-garden-notes.com/').some((f) => f.id === 'brand_claim'),
    ).toBe(false);
  });
});
