/**
 * The lure analyzer (detection.md §2.6): delivery, toll/government and invoice fixtures, the
 * carriers', agencies' and billers' own pages, and invented pages for the edges of each rule
 * (delivery problem vs shop shipping note, authority words, government domains, fee sizes).
 */
import { describe, expect, it } from 'vitest';

import { pageView } from '../../src/engine/page/analyze-page.js';
import { analyzeLureScams } from '../../src/engine/page/analyzers/lure-scams.js';
import { createPageContext } from '../../src/engine/page/create-page-context.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import {
  BENIGN_FIXTURES,
  fixtureDocument,
  fixtureUrl,
  type PageFixture,
  pageFixture,
} from '../helpers/page-fixtures.js';
import { rulesEngine } from '../helpers/rules-engine.js';

function analyze(html: string, url: string): PageFinding[] {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(url);
  return analyzeLureScams(
    pageView(parsePage(html)),
    createPageContext(rulesEngine(), parsed.url, null),
  );
}

function analyzeFixturePage(fixture: PageFixture): PageFinding[] {
  const parsed = normalizeUrl(fixtureUrl(fixture));
  if (!parsed.ok) throw new Error(fixture.id);
  return analyzeLureScams(
    pageView(fixtureDocument(fixture)),
    createPageContext(rulesEngine(), parsed.url, null),
  );
}

const CARD =
  '<form><input name="cardnumber" autocomplete="cc-number"><input name="exp" autocomplete="cc-exp"><input name="cvv" autocomplete="cc-csc"></form>';
const LURE_SIGNALS = [
  'delivery_scam',
  'government_impersonation',
  'invoice_scam',
  'brand_impersonation',
  'domain_mismatch',
];

describe('lure fixtures', () => {
  const cases: [string, string, string | null][] = [
    ['delivery-usps-redelivery', 'delivery_lure', 'usps'],
    ['delivery-correos-es', 'delivery_lure', 'correos'],
    ['delivery-ctt-pt', 'delivery_lure', 'ctt'],
    ['delivery-yamato-ja', 'delivery_lure', 'yamato'],
    ['delivery-dhl-de', 'delivery_lure', 'dhl'],
    ['gov-hmrc-refund', 'government_lure', 'hmrc'],
    ['gov-ezpass-toll', 'government_lure', 'ezpass'],
    ['gov-impots-fr', 'government_lure', 'dgfip'],
    ['gov-dgt-multa-es', 'government_lure', 'dgt'],
    ['gov-polizia-locker-it', 'government_lure', 'polizia-di-stato'],
    ['invoice-docusign-login', 'invoice_lure', 'docusign'],
    ['invoice-telekom-rechnung-de', 'invoice_lure', 'deutsche-telekom'],
    ['invoice-onedrive-factura-es', 'invoice_lure', 'microsoft'],
  ];
  it.each(cases)('%s: danger %s naming %s', (id, rule, brand) => {
    const fixture = pageFixture(id);
    const findings = analyzeFixturePage(fixture);
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding?.id).toBe(rule);
    expect(finding?.level).toBe('danger');
    expect(finding?.brand?.id ?? null).toBe(brand);
    expect(finding?.evidence).not.toBe('');
    expect(finding?.evidence.length).toBeLessThanOrEqual(120);
    for (const signal of fixture.expect.signals.filter((s) => LURE_SIGNALS.includes(s))) {
      expect(finding?.signals, `${id} ${signal}`).toContain(signal);
    }
    for (const type of fixture.expect.threat_types.filter((t) => LURE_SIGNALS.includes(t))) {
      expect(finding?.threatTypes, `${id} ${type}`).toContain(type);
    }
  });

  it('quotes the page: lure words, the fee, the form', () => {
    const [usps] = analyzeFixturePage(pageFixture('delivery-usps-redelivery'));
    expect(usps?.evidence).toMatch(/could not be delivered.*\$1\.99.*card form/);
    const [yamato] = analyzeFixturePage(pageFixture('delivery-yamato-ja'));
    expect(yamato?.evidence).toMatch(/330円/);
    const [polizia] = analyzeFixturePage(pageFixture('gov-polizia-locker-it'));
    expect(polizia?.evidence).toMatch(/sanzione/);
  });

  it('suspicious_payment for a small fee on a card form of a carrier or toll operator', () => {
    const withFee = [
      'delivery-usps-redelivery',
      'delivery-correos-es',
      'delivery-ctt-pt',
      'delivery-yamato-ja',
      'delivery-dhl-de',
      'gov-ezpass-toll',
    ];
    for (const id of withFee) {
      expect(analyzeFixturePage(pageFixture(id))[0]?.signals, id).toContain('suspicious_payment');
    }
    // A £328 refund and a 50 € fine are not a small fee.
    for (const id of ['gov-hmrc-refund', 'gov-dgt-multa-es']) {
      expect(analyzeFixturePage(pageFixture(id))[0]?.signals, id).not.toContain(
        'suspicious_payment',
      );
    }
  });

  it('the short-link page (a 302 body) holds no lure', () => {
    expect(analyzeFixturePage(pageFixture('delivery-usps-shortlink'))).toEqual([]);
  });
});

describe('lure analyzer on benign look-alikes', () => {
  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution',
    (_id, fixture) => {
      expect(analyzeFixturePage(fixture).filter((f) => f.level !== 'soft')).toEqual([]);
    },
  );

  it('carriers, agencies and billers on their own sites report nothing at all', () => {
    for (const id of [
      'benign-dhl-tracking-de',
      'benign-usps-tracking',
      'benign-correos-es',
      'benign-yamato-ja',
      'benign-ctt-pt',
      'benign-gov-uk-refund',
      'benign-irs-refund',
      'benign-impots-fr',
      'benign-ezpass-pay',
      'benign-aeat-es',
      'benign-docusign-signing',
      'benign-stripe-invoice',
      'benign-telekom-rechnung-de',
    ]) {
      expect(analyzeFixturePage(pageFixture(id)), id).toEqual([]);
    }
  });
});

describe('delivery lures', () => {
  const lure =
    '<title>USPS Tracking</title><p>Your package could not be delivered due to an incomplete address. Redelivery fee: $1.99.</p>';

  it('danger with a card form and a carrier the site does not own', () => {
    const [finding] = analyze(lure + CARD, 'https://usps-redelivery.com/');
    expect(finding).toMatchObject({ id: 'delivery_lure', level: 'danger' });
    expect(finding?.brand?.id).toBe('usps');
    expect(finding?.signals).toEqual(
      expect.arrayContaining(['delivery_scam', 'brand_impersonation', 'suspicious_payment']),
    );
  });

  it('caution without a form', () => {
    expect(analyze(lure, 'https://usps-redelivery.com/')[0]?.level).toBe('caution');
  });

  it('nothing on the carrier’s own site', () => {
    expect(analyze(lure + CARD, 'https://www.usps.com/redelivery')).toEqual([]);
  });

  it('soft when the text alone is on risky infrastructure', () => {
    const text =
      '<p>Your parcel could not be delivered. Pay the customs fee of 2,99 € to release it.</p>';
    const [finding] = analyze(text, 'https://parcel-info.top/');
    expect(finding).toMatchObject({ level: 'soft', group: 'social', weight: 1 });
    expect(finding?.brand).toBeUndefined();
  });

  it('caution for a lure with a card form on an unknown site, even without a brand', () => {
    const text =
      '<p>Ihr Paket wurde vom Zoll zurückgehalten. Zollgebühren: 2,99 €. Zustellung nach Zahlung.</p>';
    expect(analyze(text + CARD, 'https://paket-status.com/')[0]?.level).toBe('caution');
  });

  it('a delivery FAQ with a contact form on an ordinary site is not reported', () => {
    const faq =
      '<p>If your parcel could not be delivered, it is returned to the sender. Redelivery fee: 4,90 €.</p><form><input name="name"><input name="email"><textarea name="msg"></textarea></form>';
    expect(analyze(faq, 'https://small-shop.com/faq')).toEqual([]);
  });

  it('a shop’s shipping note is not a lure', () => {
    const shop =
      '<title>Shoe Shop</title><p>Free delivery on every parcel. Track your shipment with the tracking number we e-mail you. Pay by card: 59,90 €.</p>';
    expect(analyze(shop + CARD, 'https://shoe-shop.top/')).toEqual([]);
  });

  it('one delivery word is not enough (≥ 2 distinct terms, §2.6)', () => {
    expect(analyze(`<p>Customs fee: 2,99 €. Pay now.</p>${CARD}`, 'https://fees.top/')).toEqual([]);
  });

  it('a large amount is not a small fee', () => {
    const text = `<title>USPS</title><p>Your package could not be delivered. Customs duty: $85.00. Pay now.</p>${CARD}`;
    expect(analyze(text, 'https://usps-customs.top/')[0]?.signals).not.toContain(
      'suspicious_payment',
    );
  });
});

describe('government lures', () => {
  // An authority the brand catalog does not list (Polizia di Stato joined it in 2026-11).
  const text =
    "<h1>Ministero dell'Interno</h1><p>Devi pagare una sanzione amministrativa di € 100.</p>";
  const locker = `${text}<form><input name="psc1"><input name="psc2"><input name="psc3"></form>`;

  it('an authority named in text with a fine and a voucher form, without a catalog brand', () => {
    const [finding] = analyze(locker, 'https://sblocco-pc.buzz/');
    expect(finding).toMatchObject({ id: 'government_lure', level: 'danger' });
    expect(finding?.brand).toBeUndefined();
    expect(finding?.threatTypes).toEqual(['government_impersonation']);
    expect(finding?.evidence).toMatch(/voucher code form/);
  });

  it('a plain data form is caution on risky infrastructure and nothing elsewhere', () => {
    const contact = `${text}<form><input name="name"><input name="email"><input name="phone"></form>`;
    expect(analyze(contact, 'https://sblocco-pc.buzz/')[0]?.level).toBe('caution');
    expect(analyze(contact, 'https://sblocco-pc.com/')).toEqual([]);
  });

  it('a fine without an authority or agency is not a government lure', () => {
    const text =
      '<p>Late returns: a fine of 2 € per day. Pay at the desk.</p><form><input name="a"><input name="b"><input name="c"></form>';
    expect(analyze(text, 'https://library-fines.top/')).toEqual([]);
  });

  it('an agency’s lure on a government domain is the agency’s own page', () => {
    const refund = `<title>HMRC</title><p>Claim your tax refund of £328.40.</p>${CARD}`;
    expect(analyze(refund, 'https://www.tax.service.gov.uk/refund')).toEqual([]);
    expect(analyze(locker, 'https://www.poliziadistato.gov.it/')).toEqual([]);
    expect(analyze(refund, 'https://hmrc-refund.top/')[0]?.level).toBe('danger');
  });

  it('a toll operator’s bill is a toll lure, not an invoice', () => {
    const toll = `<title>E-ZPass</title><p>Unpaid toll notice. Invoice TBM-1. Total due: $6.99.</p>${CARD}`;
    const [finding] = analyze(toll, 'https://ezpass-tolls.xin/');
    expect(finding?.id).toBe('government_lure');
    expect(finding?.signals).toContain('suspicious_payment');
  });
});

describe('invoice lures', () => {
  it('needs two invoice terms with a payment demand', () => {
    const single = `<p>Download your invoice. Total 40,00 €.</p>${CARD}`;
    expect(analyze(single, 'https://billing-portal.top/')).toEqual([]);
    const overdue = `<p>Your invoice is overdue. Amount due: 640,00 €.</p>${CARD}`;
    expect(analyze(overdue, 'https://billing-portal.top/')[0]).toMatchObject({
      id: 'invoice_lure',
      level: 'danger',
    });
  });

  it('or an invoice behind a document login', () => {
    const envelope =
      '<p>Accounts sent you a document to review and sign: Invoice 2291.</p><form><input type=email><input type=password></form>';
    expect(analyze(envelope, 'https://doc-view.top/')[0]?.evidence).toMatch(
      /invoice.*password form/,
    );
  });

  it('multilingual: Rechnung and Mahnung', () => {
    const mahnung = `<title>Telekom</title><p>Letzte Mahnung: Ihre Rechnung ist überfällig. Offener Betrag 69,97 €.</p>`;
    const [finding] = analyze(mahnung, 'https://telekom-rechnung.com/');
    expect(finding).toMatchObject({ id: 'invoice_lure', level: 'caution' });
    expect(finding?.brand?.id).toBe('deutsche-telekom');
  });
});
