/**
 * Redirect URI rules of the authorization server: which URIs a client may register (https
 * anywhere, http only on loopback, reverse-DNS native-app schemes, never a fragment, user info, a
 * backslash or a script-running scheme), how the sign-in page names the target (ASCII host beside
 * its Unicode form), how a request's `redirect_uri` is matched (exactly, except the port of
 * a loopback URI, RFC 8252 §7.3), and how response parameters are added to a URI that already
 * has a query (RFC 6749 §4.1.2).
 */
import { describe, expect, it } from 'vitest';

import {
  describeRedirectTarget,
  matchRedirectUri,
  redirectUriProblem,
  withResponseParameters,
} from '../../src/oauth/redirect-uri.js';

describe('redirectUriProblem', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://app.example.com/cb?tenant=1',
    'http://127.0.0.1:6276/oauth/callback',
    'http://127.0.0.1/callback',
    'http://[::1]:8080/callback',
    'http://localhost:33418/',
    'com.example.app:/oauth2redirect',
    'com.example.app://oauth2redirect',
    'https://p\u0430ypal.com/cb',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ['callback', 'is not an absolute URI'],
    ['/oauth/callback', 'is not an absolute URI'],
    ['https://app.example.com/cb#frag', 'must not contain a fragment'],
    ['https://app.example.com/cb#', 'must not contain a fragment'],
    ['https://user:pass@app.example.com/cb', 'must not contain user information'],
    ['https://user@app.example.com/cb', 'must not contain user information'],
    ['http://app.example.com/cb', 'may use http only on a loopback host'],
    ['http://127.0.0.2/cb', 'may use http only on a loopback host'],
    ['http://localhost.attacker.example/cb', 'may use http only on a loopback host'],
    ['javascript:alert(1)', 'may not use the javascript: scheme'],
    ['data:text/html,hi', 'may not use the data: scheme'],
    ['file:///etc/passwd', 'may not use the file: scheme'],
    ['wss://app.example.com/cb', 'may not use the wss: scheme'],
    // Reads like claude.ai; a URL parser goes to evil.example (backslash = slash).
    [
      'https://evil.example\\@claude.ai/cb',
      'must not contain a backslash, a space or a control character',
    ],
    [
      'https://claude.ai\t.evil.example/cb',
      'must not contain a backslash, a space or a control character',
    ],
    ['https://claude.ai /cb', 'must not contain a backslash, a space or a control character'],
    ['https://claude.ai@evil.example/cb', 'must not contain user information'],
    ['http://user@127.0.0.1:6276/cb', 'must not contain user information'],
    ['https:evil.example/cb', 'must start with https://'],
    ['http:/127.0.0.1/cb', 'must start with http://'],
    [
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'must use https, http on a loopback host, or an app scheme in reverse domain name form (com.example.app:/callback, RFC 8252 §7.1)',
    ],
    [
      'myapp:/cb',
      'must use https, http on a loopback host, or an app scheme in reverse domain name form (com.example.app:/callback, RFC 8252 §7.1)',
    ],
    ['com.example.app:/cb#x', 'must not contain a fragment'],
  ])('refuses %s: %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });

  it('refuses a URI over 2048 characters', () => {
    const long = 'https://app.example.com/' + 'a'.repeat(2048 - 24);
    expect(long).toHaveLength(2048);
    expect(redirectUriProblem(long)).toBeNull();
    expect(redirectUriProblem(long + 'a')).toBe('is too long');
  });
});

describe('describeRedirectTarget', () => {
  it('gives a look-alike host in punycode beside its Unicode form', () => {
    expect(describeRedirectTarget('https://p\u0430ypal.com/cb?x=1')).toEqual({
      kind: 'web',
      href: 'https://xn--pypal-4ve.com/cb?x=1',
      asciiHost: 'xn--pypal-4ve.com',
      unicodeHost: 'p\u0430ypal.com',
      loopback: false,
    });
  });

  it('gives an ASCII host once, in lower case as the browser connects to it', () => {
    expect(describeRedirectTarget('https://Claude.AI/api/mcp/auth_callback')).toEqual({
      kind: 'web',
      href: 'https://claude.ai/api/mcp/auth_callback',
      asciiHost: 'claude.ai',
      unicodeHost: null,
      loopback: false,
    });
  });

  it('recognises loopback hosts and app schemes', () => {
    expect(describeRedirectTarget('http://[::1]:8080/cb')).toMatchObject({
      asciiHost: '[::1]',
      unicodeHost: null,
      loopback: true,
    });
    expect(describeRedirectTarget('http://localhost:1/cb')).toMatchObject({ loopback: true });
    expect(describeRedirectTarget('com.example.app:/cb')).toEqual({
      kind: 'app',
      href: 'com.example.app:/cb',
      scheme: 'com.example.app',
    });
  });
});

describe('matchRedirectUri', () => {
  const registered = [
    'https://app.example.com/cb',
    'http://127.0.0.1:6276/oauth/callback',
    'http://[::1]/cb?x=1',
  ];

  it('matches a registered URI exactly', () => {
    expect(matchRedirectUri(registered, 'https://app.example.com/cb')).toBe(true);
    expect(matchRedirectUri(registered, 'http://127.0.0.1:6276/oauth/callback')).toBe(true);
  });

  it('accepts another port on a registered loopback URI (RFC 8252 §7.3)', () => {
    expect(matchRedirectUri(registered, 'http://127.0.0.1:51789/oauth/callback')).toBe(true);
    expect(matchRedirectUri(registered, 'http://127.0.0.1/oauth/callback')).toBe(true);
    expect(matchRedirectUri(registered, 'http://[::1]:9000/cb?x=1')).toBe(true);
  });

  it.each([
    ['another https port', 'https://app.example.com:8443/cb'],
    ['another https path', 'https://app.example.com/cb/'],
    ['an added query', 'https://app.example.com/cb?x=1'],
    ['another case', 'https://APP.example.com/cb'],
    ['another loopback path', 'http://127.0.0.1:6276/oauth/other'],
    ['another loopback query', 'http://127.0.0.1:6276/oauth/callback?next=x'],
    ['a missing loopback query', 'http://[::1]:9000/cb'],
    ['another loopback host', 'http://localhost:6276/oauth/callback'],
    ['https on the loopback URI', 'https://127.0.0.1:6276/oauth/callback'],
    ['no URI at all', 'not a uri'],
  ])('refuses %s', (_label, requested) => {
    expect(matchRedirectUri(registered, requested)).toBe(false);
  });

  // Registration refuses these (RFC 6749 §3.1.2, OAuth 2.1 §2.3.1); the port exception of a
  // loopback URI must not let a request add them.
  it.each([
    ['a fragment, same port', 'http://127.0.0.1:6276/oauth/callback#x'],
    ['a fragment, another port', 'http://127.0.0.1:51789/oauth/callback#x'],
    ['an empty fragment', 'http://127.0.0.1:51789/oauth/callback#'],
    ['user information', 'http://user:pw@127.0.0.1:51789/oauth/callback'],
  ])('refuses a loopback URI with %s', (_label, requested) => {
    expect(redirectUriProblem(requested)).not.toBeNull();
    expect(matchRedirectUri(registered, requested)).toBe(false);
  });

  it('does not extend the port exception to https URIs', () => {
    expect(matchRedirectUri(['https://localhost:3000/cb'], 'https://localhost:4000/cb')).toBe(
      false,
    );
  });
});

describe('withResponseParameters', () => {
  it('adds the parameters as a query', () => {
    expect(
      withResponseParameters('http://127.0.0.1:6276/oauth/callback', {
        code: 'mcp_ac_abc',
        state: 's 1&2',
        iss: 'https://linkguard.example',
      }),
    ).toBe(
      'http://127.0.0.1:6276/oauth/callback?code=mcp_ac_abc&state=s+1%262&iss=https%3A%2F%2Flinkguard.example',
    );
  });

  it('keeps an existing query and leaves out null values', () => {
    const location = withResponseParameters('https://app.example.com/cb?tenant=7&lang=fr', {
      error: 'access_denied',
      error_description: 'The user declined',
      state: null,
      iss: 'https://linkguard.example',
    });
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe('https://app.example.com/cb');
    expect([...url.searchParams]).toEqual([
      ['tenant', '7'],
      ['lang', 'fr'],
      ['error', 'access_denied'],
      ['error_description', 'The user declined'],
      ['iss', 'https://linkguard.example'],
    ]);
  });

  it('works for a native-app scheme', () => {
    expect(withResponseParameters('com.example.app:/oauth2redirect', { code: 'c' })).toBe(
      'com.example.app:/oauth2redirect?code=c',
    );
  });

  it('throws for a URI that does not parse', () => {
    expect(() => withResponseParameters('not a uri', { code: 'c' })).toThrow(
      'redirect URI no longer parses',
    );
  });
});
