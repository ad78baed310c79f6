/** Crypto giveaways, doublers and fake investment platforms (detection.md §2.8). */
import { describe, expect, it } from 'vitest';

import { analyzeCryptoScams } from '../../src/engine/page/analyzers/crypto-scams.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { BENIGN_FIXTURES, MALICIOUS_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';
import { fixtureInput, htmlView, urlContext } from '../helpers/page-view-context.js';

function scamFindings(html: string, url = 'https://meadowlark-labs.com/'): PageFinding[] {
  return analyzeCryptoScams(htmlView(html), urlContext(url));
}

function levels(findings: readonly PageFinding[]): string[] {
  return findings.map((f) => `${f.level}:${f.id}`);
}

/** A BTC documentation address (BIP-173 test vector) and an ETH one. */
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const ETH = '0x8Ba1f109551bD432803012645Ac136ddd64DBA72';

describe('crypto-scam fixtures', () => {
  it('covers every giveaway fixture of the corpus', () => {
    const ids = MALICIOUS_FIXTURES.filter((f) => f.category === 'crypto_giveaway_scam').map(
      (f) => f.id,
    );
    expect(ids).toEqual(['crypto-giveaway-doubler']);
  });

  it('crypto-giveaway-doubler: danger doubler with page-derived evidence and the §2.9 types', () => {
    const fixture = pageFixture('crypto-giveaway-doubler');
    const { view, context } = fixtureInput(fixture);
    const findings = analyzeCryptoScams(view, context);
    expect(levels(findings)).toEqual(['danger:crypto_doubler']);
    const [doubler] = findings;
    expect(doubler?.evidence).toContain('"send btc or eth and get 2×"');
    expect(doubler?.evidence).toContain('MULTIPLIER = 2');
    expect(doubler?.evidence).toContain('address bc1q');
    expect(doubler?.evidence.length).toBeLessThanOrEqual(120);
    expect(doubler?.threatTypes).toEqual(['crypto_giveaway_scam', 'crypto_scam']);
    expect(doubler?.signals).toEqual(['crypto_giveaway_scam', 'crypto_scam', 'too_good_prices']);
    for (const type of doubler?.threatTypes ?? [])
      expect(fixture.expect.threat_types).toContain(type);
    for (const signal of doubler?.signals ?? []) expect(fixture.expect.signals).toContain(signal);
  });
});

describe('crypto-scam benign pages', () => {
  for (const fixture of BENIGN_FIXTURES) {
    it(`${fixture.id}: no finding`, () => {
      const { view, context } = fixtureInput(fixture);
      expect(levels(analyzeCryptoScams(view, context))).toEqual([]);
    });
  }
});

describe('doublers', () => {
  it('promise + address + celebrity giveaway: danger; promise + address: caution; promise: nothing', () => {
    const promise = '<h1>Send 0.1 BTC and receive 0.2 BTC back</h1>';
    const full = `<title>Elon Musk Bitcoin Giveaway</title>${promise}<p>${BTC}</p>`;
    expect(levels(scamFindings(full))).toEqual(['danger:crypto_doubler']);
    expect(scamFindings(full)[0]?.evidence).toContain('elon musk giveaway');
    expect(levels(scamFindings(`${promise}<p>${BTC}</p>`))).toEqual(['caution:crypto_doubler']);
    expect(scamFindings(promise)).toEqual([]);
    const bonus = `<title>Elon Musk Bitcoin Giveaway</title><h1>Send 1 BTC and receive 1.05 BTC</h1><p>${BTC}</p>`;
    expect(scamFindings(bonus)).toEqual([]);
  });

  it('reads the promise in Spanish and the processing copy', () => {
    const html = `<h1>Envía ETH y recibe el doble</h1><p>${ETH}</p><p>Waiting for confirmation…</p>`;
    const findings = scamFindings(html);
    expect(levels(findings)).toEqual(['danger:crypto_doubler']);
    expect(findings[0]?.evidence).toContain('"waiting for confirmation"');
  });

  it('a security article quoting the lure next to "scam" is not a doubler', () => {
    const html = `<title>Elon Musk giveaway scams</title><p>The scam pages say: send 1 BTC and get 2 BTC back.
      Victims sent coins to ${BTC} and never saw them again.</p>`;
    expect(scamFindings(html, 'https://krebsonsecurity.com/2024/elon-scam')).toEqual([]);
  });

  it('kit code without the wording needs a giveaway and an address', () => {
    const code = '<script>var MULTIPLIER = 2, GIVEAWAY_AMOUNT = 5000;</script>';
    expect(scamFindings(code)).toEqual([]);
    expect(scamFindings(`<p>${BTC}</p>${code}`)).toEqual([]);
    const page = `<title>Tesla 5,000 BTC giveaway</title><p>${BTC}</p>${code}`;
    expect(levels(scamFindings(page))).toEqual(['danger:crypto_doubler']);
  });

  it('double-walled glasses and twice-yearly sales are not promises', () => {
    const html = `<h1>Double-walled glass, send us a photo and get 10% off twice a year</h1><p>${ETH}</p>`;
    expect(scamFindings(html)).toEqual([]);
  });
});

describe('fake investment platforms', () => {
  it('a guaranteed or ≥ 0.5 %/day return in a crypto context: caution', () => {
    const guaranteed = '<h1>USDT mining pool</h1><p>Guaranteed daily returns for every member.</p>';
    expect(levels(scamFindings(guaranteed))).toEqual(['caution:crypto_investment_scam']);
    const daily = '<h1>Bitcoin staking</h1><p>Earn 3.5% per day on your deposit.</p>';
    const findings = scamFindings(daily);
    expect(levels(findings)).toEqual(['caution:crypto_investment_scam']);
    expect(findings[0]?.evidence).toBe('"3.5% per day"');
    expect(findings[0]?.signals).toEqual(['crypto_scam']);
  });

  it('ordinary rates and non-crypto pages are not promises', () => {
    expect(scamFindings('<p>Borrow ETH at 0.02% per day.</p>')).toEqual([]);
    expect(scamFindings('<p>Supply USDC and earn 4.12% APY.</p>')).toEqual([]);
    expect(scamFindings('<p>Our bakery sells 5% per day more bread.</p>')).toEqual([]);
    const warning = `<h1>Bitcoin investment tips</h1><p>Beware of sites that promise guaranteed
      daily returns. No one can offer 2% per day on crypto.</p>`;
    expect(scamFindings(warning)).toEqual([]);
  });

  it('IOK kit names: two are danger, one is soft', () => {
    const two =
      '<script src="/static/js/yuebaoIndex.js"></script><script>function MiningPool() {}</script>';
    expect(levels(scamFindings(two))).toEqual(['danger:crypto_investment_scam']);
    expect(scamFindings(two)[0]?.evidence).toBe('yuebaoIndex + MiningPool');
    expect(levels(scamFindings('<a href="/ReceiveVoucher">Voucher</a>'))).toEqual([
      'soft:crypto_investment_scam',
    ]);
  });
});
