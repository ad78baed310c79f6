/**
 * Page language and target country: `<html lang>` first, ELD detection on the visible text
 * otherwise (checked on every fixture with its `lang` removed), CJK by script, and the country of
 * a national brand before the region subtag.
 */
import { describe, expect, it } from 'vitest';

import type { Brand } from '../../src/engine/brand/brand-index.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { pageLanguage, targetCountry } from '../../src/engine/page/page-language.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import { fixtureDocument, PAGE_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';

const page = (lang: string | null, body: string): ReturnType<typeof parsePage> =>
  parsePage(`<html${lang === null ? '' : ` lang="${lang}"`}><body>${body}</body></html>`);

function brand(id: string): Brand {
  const found = defaultEngine().brands.brands.find((b) => b.id === id);
  if (found === undefined) throw new Error(id);
  return found;
}

function finding(level: PageFinding['level'], named: Brand): PageFinding {
  return {
    id: 'test',
    level,
    threatTypes: [],
    signals: [],
    confidence: 0.9,
    weight: 0,
    group: 'content',
    evidence: 'x',
    text: 'x',
    brand: named,
  };
}

const SPANISH =
  'Su paquete no se pudo entregar porque hay una tasa de aduana pendiente de pago. Si el pago no se realiza, el paquete será devuelto al remitente.';
const GERMAN =
  'Ihr Paket wurde vom Zoll zurückgehalten. Vor der Zustellung müssen Zollgebühren nachgezahlt werden.';

describe('pageLanguage', () => {
  it('takes the primary subtag of <html lang>', () => {
    expect(pageLanguage(page('pt-BR', GERMAN))).toBe('pt');
    expect(pageLanguage(page('EN_us', GERMAN))).toBe('en');
    expect(pageLanguage(page('zh-Hant-TW', GERMAN))).toBe('zh');
  });

  it('detects the text when lang is missing or names no language', () => {
    expect(pageLanguage(page(null, GERMAN))).toBe('de');
    expect(pageLanguage(page('und', SPANISH))).toBe('es');
    expect(pageLanguage(page('x-default', SPANISH))).toBe('es');
  });

  it('returns null for text too short to tell', () => {
    expect(pageLanguage(page(null, 'Loading…'))).toBeNull();
    expect(pageLanguage(page(null, '<h1>302 Found</h1><hr>nginx'))).toBeNull();
  });

  it('tells CJK by script', () => {
    expect(
      pageLanguage(
        page(null, 'お客様宛にお荷物のお届けにあがりましたが、不在のため持ち帰りました。'),
      ),
    ).toBe('ja');
    expect(
      pageLanguage(page(null, '您的包裹派送失败，请在二十四小时内支付关税并更新地址信息。')),
    ).toBe('zh');
    expect(
      pageLanguage(
        page(null, '고객님의 택배가 주소 불명으로 배송되지 못했습니다. 주소를 확인해 주세요.'),
      ),
    ).toBe('ko');
  });

  it('a language menu in other scripts does not change an English page', () => {
    const menu = '<nav>简体中文 · 繁體中文 · 日本語 · 한국어</nav>';
    const text =
      'Welcome to the documentation. Install the package with your package manager and read the guide to get started.';
    expect(pageLanguage(page(null, `${menu}<p>${text}</p>`))).toBe('en');
  });

  it('detects the fixtures’ language from their text alone (two UI-label pages misread)', () => {
    const unreadable = new Set(['credential-outlook-cloaked-atob', 'delivery-usps-shortlink']);
    const misread: string[] = [];
    for (const fixture of PAGE_FIXTURES) {
      const got = pageLanguage({ ...fixtureDocument(fixture), lang: null });
      if (unreadable.has(fixture.id)) expect(got, fixture.id).toBeNull();
      else if (got !== fixture.language.split('-')[0]) misread.push(fixture.id);
    }
    // Measured with franc-min (page-language.ts): dApp pages made of button labels only.
    expect(misread.sort()).toEqual(['benign-jupiter-swap', 'benign-uniswap-app']);
  });
});

describe('targetCountry', () => {
  it('a national brand named by a finding decides, the strongest finding first', () => {
    const doc = page('fr-FR', 'x');
    expect(targetCountry([finding('danger', brand('usps'))], doc, 'fr')).toBe('US');
    expect(
      targetCountry(
        [finding('soft', brand('correos')), finding('danger', brand('yamato'))],
        doc,
        'fr',
      ),
    ).toBe('JP');
  });

  it('global brands do not; the region subtag of <html lang> does', () => {
    expect(targetCountry([finding('danger', brand('paypal'))], page('pt-BR', 'x'), 'pt')).toBe(
      'BR',
    );
    expect(targetCountry([], page('zh-Hant-TW', 'x'), 'zh')).toBe('TW');
  });

  it('no region, a numeric region or a disagreeing language give null', () => {
    expect(targetCountry([], page('en', 'x'), 'en')).toBeNull();
    expect(targetCountry([], page('es-419', 'x'), 'es')).toBeNull();
    expect(targetCountry([], page(null, 'x'), 'de')).toBeNull();
    expect(targetCountry([], page('en-US', 'x'), 'es')).toBeNull();
  });

  it('the fixtures: a carrier page targets its carrier’s country', () => {
    const yamato = fixtureDocument(pageFixture('delivery-yamato-ja'));
    expect(targetCountry([finding('danger', brand('yamato'))], yamato, 'ja')).toBe('JP');
    const itau = fixtureDocument(pageFixture('benign-itau-login-pt'));
    expect(targetCountry([], itau, pageLanguage(itau))).toBe('BR');
  });
});
