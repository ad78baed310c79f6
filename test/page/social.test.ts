/**
 * The social-engineering analyzer (detection.md §2.8, §2.7 `no_contact_info`, §2.0 cloaking,
 * §6.6): the shop fixtures, the urgency / contact / price / payment signals any malicious fixture
 * expects, every benign look-alike (real sales with countdowns included), and invented pages for
 * the edges of each rule.
 */
import { describe, expect, it } from 'vitest';

import { pageView } from '../../src/engine/page/analyze-page.js';
import { analyzeLureScams } from '../../src/engine/page/analyzers/lure-scams.js';
import { analyzeSocialEngineering } from '../../src/engine/page/analyzers/social.js';
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

function analyze(html: string, url = 'https://example-shop.com/'): PageFinding[] {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(url);
  return analyzeSocialEngineering(
    pageView(parsePage(html)),
    createPageContext(rulesEngine(), parsed.url, null),
  );
}

/** Findings of the social analyzer, and of the lure analyzer when `withLure`. */
function analyzeFixturePage(fixture: PageFixture, withLure = false): PageFinding[] {
  const parsed = normalizeUrl(fixtureUrl(fixture));
  if (!parsed.ok) throw new Error(fixture.id);
  const view = pageView(fixtureDocument(fixture));
  const context = createPageContext(rulesEngine(), parsed.url, null);
  return [
    ...analyzeSocialEngineering(view, context),
    ...(withLure ? analyzeLureScams(view, context) : []),
  ];
}

const ids = (findings: readonly PageFinding[]): string[] => findings.map((f) => f.id);
const byId = (findings: readonly PageFinding[], id: string): PageFinding | undefined =>
  findings.find((f) => f.id === id);

const SOCIAL_SIGNALS = ['fake_urgency', 'no_contact_info', 'too_good_prices', 'suspicious_payment'];

describe('social signals of the malicious fixtures', () => {
  const expecting = MALICIOUS_FIXTURES.filter(
    (f) => f.redirect === undefined && f.expect.signals.some((s) => SOCIAL_SIGNALS.includes(s)),
  );
  it.each(expecting.map((f) => [f.id, f] as const))('%s', (id, fixture) => {
    // A card form with a carrier's small fee is the lure analyzer's suspicious_payment (§2.9).
    const findings = analyzeFixturePage(fixture, true);
    const signals = new Set(findings.flatMap((f) => f.signals));
    for (const signal of fixture.expect.signals.filter((s) => SOCIAL_SIGNALS.includes(s))) {
      expect(signals, `${id} ${signal}`).toContain(signal);
    }
    const types = new Set<string>(findings.flatMap((f) => f.threatTypes));
    if (fixture.category === 'brand_impersonation' || fixture.category === 'crypto_scam') {
      for (const type of fixture.expect.threat_types)
        expect(types, `${id} ${type}`).toContain(type);
    }
    for (const finding of findings) {
      expect(finding.evidence).not.toBe('');
      expect(finding.evidence.length).toBeLessThanOrEqual(120);
    }
  });
});

describe('fake shops', () => {
  it('the Nike outlet: a counterfeit-brand shop is danger with the brand', () => {
    const shop = byId(analyzeFixturePage(pageFixture('shop-nike-outlet-de')), 'fake_shop');
    expect(shop?.level).toBe('danger');
    expect(shop?.brand?.id).toBe('nike');
    expect(shop?.threatTypes).toEqual(['brand_impersonation']);
    expect(shop?.signals).toEqual(
      expect.arrayContaining(['too_good_prices', 'fake_urgency', 'no_contact_info']),
    );
  });

  it('the USDT-only iPhone shop: danger as a crypto scam', () => {
    const findings = analyzeFixturePage(pageFixture('shop-iphone-usdt-only-pt'));
    expect(byId(findings, 'fake_shop')).toMatchObject({
      level: 'danger',
      threatTypes: ['crypto_scam'],
    });
    expect(byId(findings, 'crypto_only_payment')?.evidence).toMatch(/somente em criptomoeda/);
    expect(byId(findings, 'too_good_prices')?.evidence).toMatch(/3 of 3 discounts/);
  });

  it('the doubler is too good but not a shop', () => {
    const findings = analyzeFixturePage(pageFixture('crypto-giveaway-doubler'));
    expect(byId(findings, 'too_good_prices')?.evidence).toMatch(/double the amount/);
    expect(byId(findings, 'fake_shop')).toBeUndefined();
  });
});

describe('social analyzer on benign look-alikes', () => {
  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution',
    (_id, fixture) => {
      expect(analyzeFixturePage(fixture).filter((f) => f.level !== 'soft')).toEqual([]);
    },
  );

  it('soft findings on benign pages are limited to real sales’ timers and a refund deadline', () => {
    const soft = BENIGN_FIXTURES.flatMap((f) =>
      analyzeFixturePage(f).map((finding) => `${f.id}:${finding.id}`),
    );
    expect(soft).toEqual([
      'benign-steam-sale:fake_urgency',
      'benign-otto-countdown-de:fake_urgency',
      'benign-irs-refund:fake_urgency',
    ]);
  });
});

describe('fake urgency', () => {
  it.each([
    ['en', 'Please verify within 24 hours or your account will be suspended.'],
    ['en', 'Only 3 left in stock!'],
    ['es', 'Actualice sus datos dentro de 24 horas.'],
    ['pt', 'Realize a atualização em até 24 horas.'],
    ['fr', 'Sans réponse dans les 24 heures, votre dossier sera clôturé.'],
    ['de', 'Bitte zahlen Sie innerhalb von 48 Stunden.'],
    ['de', 'Zahlungserinnerung – Letzte Mahnung'],
    ['it', 'Paga entro 24 ore.'],
    ['nl', 'Betaal binnen 24 uur.'],
    ['pl', 'Zapłać w ciągu 24 godzin.'],
    ['ja', '24時間以内にご確認ください。'],
  ])('%s: %s', (_lang, text) => {
    expect(byId(analyze(`<p>${text}</p>`), 'fake_urgency')?.evidence).not.toBe('');
  });

  it('ordinary uses of hours and "immediately" are not urgency', () => {
    for (const text of [
      'Opening hours: 9–17. We ship within the EU.',
      'The callback is called immediately after the stream ends.',
      'Deliveries take 2 to 3 days.',
    ]) {
      expect(analyze(`<p>${text}</p>`), text).toEqual([]);
    }
  });

  it('a countdown in code: a timer every second with countdown names or % 60', () => {
    const named =
      '<p>x</p><script>setInterval(function () { document.getElementById("countdown").textContent = left--; }, 1000);</script>';
    expect(byId(analyze(named), 'fake_urgency')?.evidence).toBe('countdown timer in script');
    const math =
      '<p>x</p><script>setInterval(function(){ s--; el.textContent = Math.floor(s / 60) + ":" + (s % 60); }, 1000);</script>';
    expect(byId(analyze(math), 'fake_urgency')).toBeDefined();
    const poll = '<p>x</p><script>setInterval(function(){ refreshPrices(); }, 5000);</script>';
    expect(analyze(poll)).toEqual([]);
  });
});

describe('too-good prices', () => {
  const item = (old: string, now: string, badge: string): string =>
    `<div><span>${badge}</span><s>${old}</s> <b>${now}</b><a href="/kontakt">Kontakt</a></div>`;

  it('every item at -90 %', () => {
    const html = [1, 2, 3].map(() => item('159,99 €', '15,99 €', '-90%')).join('');
    expect(byId(analyze(html), 'too_good_prices')?.evidence).toMatch(/of \d+ discounts ≥ 70 %/);
  });

  it('struck/current pairs at ≥ 3× without a badge', () => {
    const html = `<p><s>$300.00</s> $29.00</p><p><s>$250.00</s> $19.00</p>`;
    expect(byId(analyze(html), 'too_good_prices')).toBeDefined();
  });

  it('a real sale mixes discounts and is not too good', () => {
    const html = [
      item('14,79€', '3,69€', '-75%'),
      item('13,99€', '8,39€', '-40%'),
      item('24,50€', '9,80€', '-60%'),
      item('9,75€', '0,97€', '-90%'),
      item('9,75€', '4,87€', '-50%'),
    ].join('');
    expect(analyze(html)).toEqual([]);
  });

  it('an invoice table is not a price pair', () => {
    const html = '<p>Robot arm calibration $1,200.00 Travel $80.00 Total $1,280.00</p>';
    expect(byId(analyze(html), 'too_good_prices')).toBeUndefined();
  });
});

describe('suspicious payment', () => {
  it('crypto only, in words or by refusing cards', () => {
    const only = byId(analyze('<p>Payment only in USDT (TRC-20).</p>'), 'crypto_only_payment');
    expect(only?.threatTypes).toEqual(['crypto_scam']);
    expect(only?.signals).toEqual(['suspicious_payment', 'crypto_scam']);
    expect(
      byId(
        analyze('<p>Aceitamos Bitcoin. Não aceitamos cartão, boleto ou PIX.</p>'),
        'crypto_only_payment',
      ),
    ).toBeDefined();
    expect(analyze('<p>We accept Bitcoin, PayPal and all major cards.</p>')).toEqual([]);
  });

  it('gift cards and vouchers as payment, not as goods', () => {
    expect(
      byId(analyze('<p>Pay the fine with a Paysafecard voucher.</p>'), 'gift_card_payment'),
    ).toBeDefined();
    expect(analyze('<p>Gift cards make great presents. Browse our gift cards.</p>')).toEqual([]);
  });

  it('crypto sent to an address the page shows', () => {
    const html =
      '<p>Send 0.5 BTC to the address below.</p><p>bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh</p>';
    expect(byId(analyze(html), 'crypto_address_payment')?.evidence).toMatch(/bc1q/);
    expect(analyze('<p>Send 0.5 BTC to the address below.</p>')).toEqual([]);
  });

  it('changed bank details', () => {
    const html =
      '<p>Achtung: Unsere Bankverbindung hat sich geändert.</p><p>IBAN: LT12 3250 0136 2471 9805</p>';
    expect(byId(analyze(html), 'changed_bank_details')?.evidence).toMatch(/LT12/);
    expect(analyze('<p>You can update your bank details in your settings.</p>')).toEqual([]);
  });
});

describe('no contact info', () => {
  const form = '<form><input name="name"><input name="card"></form>';
  const filler = `<p>${'Best prices for everything in our store today. '.repeat(6)}</p>`;

  it('a form page with only dead links', () => {
    const finding = byId(analyze(`${filler}${form}<a href="#">Datenschutz</a>`), 'no_contact_info');
    expect(finding).toMatchObject({ level: 'soft', weight: 0.3 });
    expect(finding?.evidence).toBe('1 links (1 dead), no contact, imprint or privacy page');
  });

  it('a working imprint link, an e-mail or a phone number is contact data', () => {
    for (const extra of [
      '<a href="/impressum">Impressum</a>',
      '<p>service@shop.example</p>',
      '<p>Hotline +49 30 2000 2000</p>',
    ]) {
      expect(byId(analyze(`${filler}${form}${extra}`), 'no_contact_info'), extra).toBeUndefined();
    }
  });

  it('a page that asks for nothing owes no imprint (documentation, landing pages)', () => {
    expect(analyze(`${filler}<a href="https://github.com/x">GitHub</a>`)).toEqual([]);
  });
});

describe('cloaking and obfuscation', () => {
  it('visitor checks', () => {
    for (const code of [
      'fetch("https://ipapi.co/json/").then(r => r.json())',
      'if (d.is_datacenter || d.is_vpn) location.replace("/")',
      'if (/bot|Googlebot|HeadlessChrome/i.test(navigator.userAgent)) location.replace("/")',
      'if (!/Android|iPhone/i.test(navigator.userAgent)) { location.href = "https://example.org/"; }',
    ]) {
      expect(byId(analyze(`<script>${code}</script>`), 'visitor_checks'), code).toMatchObject({
        group: 'cloak',
        weight: 1,
      });
    }
    expect(analyze('<script>analytics.track(navigator.userAgent)</script>')).toEqual([]);
  });

  it('obfuscated loaders', () => {
    for (const code of [
      'document.write(atob(p))',
      'document.write(unescape("%3Cform%3E"))',
      'var _0x3a1f = ["a"];',
      'setInterval(function () { debugger; }, 100)',
    ]) {
      expect(byId(analyze(`<script>${code}</script>`), 'obfuscated_loader'), code).toBeDefined();
    }
    expect(analyze('<script>document.write("<p>hi</p>")</script>')).toEqual([]);
  });
});

describe('fake-shop levels', () => {
  const products = [1, 2, 3]
    .map(() => '<div><span>-90%</span><s>159,99 €</s> <b>15,99 €</b></div>')
    .join('');
  const timer =
    '<div id="timer">02:59:59</div><script>setInterval(function(){ t--; }, 1000); var timer;</script>';
  const story = `<p>${'Wir schließen unser Lager und verkaufen alles. '.repeat(5)}</p>`;

  it('danger for a brand the site does not own with urgency and no contact data', () => {
    const html = `<title>Nike Outlet – 90% Rabatt</title>${story}${products}${timer}<a href="#">AGB</a>`;
    const shop = byId(analyze(html, 'https://sneaker-outlet.com/'), 'fake_shop');
    expect(shop?.level).toBe('danger');
    expect(shop?.brand?.id).toBe('nike');
  });

  it('caution without a brand or crypto-only payment', () => {
    const html = `<title>Outlet</title>${story}${products}${timer}<a href="#">AGB</a>`;
    expect(byId(analyze(html, 'https://sneaker-outlet.com/'), 'fake_shop')?.level).toBe('caution');
  });

  it('nothing combined on the brand’s own or a popular site', () => {
    const html = `<title>Nike Outlet – 90% Rabatt</title>${products}${timer}<a href="#">AGB</a>`;
    expect(byId(analyze(html, 'https://www.nike.com/de/outlet'), 'fake_shop')).toBeUndefined();
  });

  it('too-good prices alone are not a fake shop', () => {
    const html = `<title>Outlet</title>${products}<a href="/impressum">Impressum</a>`;
    expect(ids(analyze(html, 'https://sneaker-outlet.com/'))).toEqual(['too_good_prices']);
  });
});
