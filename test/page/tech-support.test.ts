import { describe, expect, it } from 'vitest';

import { analyzeTechSupport } from '../../src/engine/page/analyzers/tech-support.js';
import type { PageView } from '../../src/engine/page/page-context.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { alarming, fixtureInput, htmlInput } from '../helpers/analyzer-input.js';
import { BENIGN_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';

function run(html: string, url = 'https://pc-alert-center.example-scam.top/') {
  const { page, context } = htmlInput(html, url);
  return { page, findings: analyzeTechSupport(page, context) };
}

const ids = (findings: readonly PageFinding[]): string[] =>
  findings.map((f) => `${f.level}:${f.id}`);

/** The quoted part of the evidence is lower-cased page text (or a decoded string). */
function quotedFromPage(finding: PageFinding | undefined, page: PageView): boolean {
  const quote = /^"(.+?)…?"/.exec(finding?.evidence ?? '')?.[1]?.replace(/^…/, '');
  if (quote === undefined || quote.length < 8) return false;
  const squash = (text: string): string => text.replace(/\s+/g, ' ');
  return [page.textLower, ...page.decoded.map((d) => d.toLowerCase())].some((text) =>
    squash(text).includes(squash(quote)),
  );
}

const ALERT = `<h1>Windows Defender Security Center</h1>
  <p>Your computer has been infected with Trojan Spyware (Error # 0x80073afc).</p>
  <p>Do not restart your computer.</p>`;

describe('analyzeTechSupport on the corpus', () => {
  it.each([
    ['tech-support-defender-locker', 'microsoft'],
    ['tech-support-apple-fr', 'apple'],
    ['tech-support-microsoft-de-hex', 'microsoft'],
  ])('%s: danger browser locker impersonating %s', (id, brand) => {
    const { page, context } = fixtureInput(pageFixture(id));
    const findings = analyzeTechSupport(page, context);
    expect(ids(findings)).toEqual(['danger:browser_locker_alert']);
    const [finding] = findings;
    expect(finding?.threatTypes).toEqual(['tech_support_scam', 'brand_impersonation']);
    expect(finding?.signals).toEqual(
      expect.arrayContaining(['tech_support_scam', 'fake_urgency', 'brand_impersonation']),
    );
    expect(finding?.brand?.id).toBe(brand);
    expect(quotedFromPage(finding, page)).toBe(true);
  });

  it('tech-support-text-only-ja: caution only (alert text and a 050 number, no script)', () => {
    const { page, context } = fixtureInput(pageFixture('tech-support-text-only-ja'));
    const findings = analyzeTechSupport(page, context);
    expect(ids(findings)).toEqual(['caution:tech_support_alert']);
    expect(findings[0]?.threatTypes).toContain('tech_support_scam');
    expect(findings[0]?.evidence).toContain('050-0000-0000');
    expect(quotedFromPage(findings[0], page)).toBe(true);
  });

  it('gov-polizia-locker-it: a police locker without tech-support wording is not reported', () => {
    const { page, context } = fixtureInput(pageFixture('gov-polizia-locker-it'));
    expect(analyzeTechSupport(page, context)).toEqual([]);
  });

  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution finding',
    (_id, fixture) => {
      const { page, context } = fixtureInput(fixture);
      expect(alarming(analyzeTechSupport(page, context))).toEqual([]);
    },
  );
});

describe('analyzeTechSupport rules', () => {
  it('reports alert wording plus one strong locker behaviour (keyboard lock) as danger', () => {
    const { findings } = run(`${ALERT}<script>document.onclick = function () {
      navigator.keyboard.lock(['Escape']); };</script>`);
    expect(ids(findings)).toEqual(['danger:browser_locker_alert']);
    expect(findings[0]?.brand?.id).toBe('microsoft');
  });

  it('reads locker API names and messages hidden in a hex-escaped string table', () => {
    const hex = (s: string): string =>
      Array.from(s, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const { findings } = run(`<p>Bitte warten…</p><script>
      var t = ["${hex('requestFullscreen')}", "${hex('Ihr PC ist mit Viren infiziert. Fehlercode: 0x800VDS')}",
               "${hex('keyboard')}", "${hex('lock')}"];
      document.onclick = function () { document.documentElement[t[0]](); navigator[t[2]][t[3]](); };
      </script>`);
    expect(ids(findings)).toEqual(['danger:browser_locker_alert']);
  });

  it('needs more than one weak behaviour: full screen alone with a phone is caution, not danger', () => {
    const { findings } = run(`${ALERT}<p>Call Microsoft Support: +1-888-555-0143</p>
      <script>document.onclick = function () { document.documentElement.requestFullscreen(); };</script>`);
    expect(ids(findings)).toEqual(['caution:tech_support_alert']);
  });

  it('with only weak behaviours, one kind of wording and a phone is not enough for danger', () => {
    const { findings } = run(`<p>Call now for support: 1-800-555-0100</p><script>
      video.onclick = function () { video.requestFullscreen(); };
      window.onbeforeunload = function () { return 'Unsaved changes'; };</script>`);
    expect(findings).toEqual([]);
  });

  it('does not call a police locker (blocked + fine, no tech wording) a tech-support scam', () => {
    const { findings } = run(`<h1>Il tuo computer è stato bloccato</h1><p>Paga la sanzione.</p>
      <p>Non chiudere questa pagina.</p><script>
      document.onclick = function () { document.documentElement.requestFullscreen(); };
      for (var i = 0; i < 30; i++) history.pushState(null, '', location.href);
      window.onbeforeunload = function () { return 'bloccato'; };</script>`);
    expect(findings).toEqual([]);
  });

  it('reports alert text with a support number (or a remote tool) as caution', () => {
    const phone = run(`${ALERT}<p>Call Microsoft Support now (toll-free): 1-888-555-0143</p>`);
    expect(ids(phone.findings)).toEqual(['caution:tech_support_alert']);
    expect(phone.findings[0]?.evidence).toContain('1-888-555-0143');
    const remote = run(`${ALERT}<p>A certified technician will connect with AnyDesk.</p>`);
    expect(ids(remote.findings)).toEqual(['caution:tech_support_alert']);
  });

  it('needs the number near a call word', () => {
    const { findings } = run(
      `${ALERT}<p>${'Lorem ipsum dolor sit amet. '.repeat(12)}Order 1-888-555-0143 shipped.</p>`,
    );
    expect(findings).toEqual([]);
  });

  it('stays quiet on a vendor page with one alert phrase next to its real number', () => {
    const { findings } = run(
      `<h1>Contacter l’assistance Apple</h1><p>Assistance par téléphone : 0805 540 003.</p>
      <p>Si une fenêtre affiche « Votre Mac est infecté », fermez l’onglet.</p>`,
      'https://support.apple.com/fr-fr/contact',
    );
    expect(findings).toEqual([]);
  });

  it('stays quiet on advice that quotes a whole fake alert and calls it a scam', () => {
    const { findings } = run(`<h1>Protect yourself from tech support scams</h1>
      <blockquote>${ALERT}<p>Call Microsoft Support: +1-888-555-0143</p></blockquote>
      <p>Never call a number in a pop-up; scammers use AnyDesk.</p>`);
    expect(findings).toEqual([]);
  });

  it('names no brand on the brand’s own domain', () => {
    const { findings } = run(
      `${ALERT}<script>navigator.keyboard.lock();</script>`,
      'https://www.microsoft.com/en-us/demo',
    );
    expect(findings[0]?.level).toBe('danger');
    expect(findings[0]?.brand).toBeUndefined();
    expect(findings[0]?.threatTypes).toEqual(['tech_support_scam']);
  });
});
