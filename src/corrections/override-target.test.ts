import { describe, expect, it } from 'vitest';

import { AppError } from '../errors.js';
import { parseOverrideTarget, schemelessUrl } from './override-target.js';

describe('parseOverrideTarget', () => {
  it('reads a registrable domain as a domain target', () => {
    expect(parseOverrideTarget('Example.COM')).toEqual({ scope: 'domain', target: 'example.com' });
    expect(parseOverrideTarget('shop.example.co.uk.')).toEqual({
      scope: 'host',
      target: 'shop.example.co.uk',
    });
    expect(parseOverrideTarget('example.co.uk')).toEqual({
      scope: 'domain',
      target: 'example.co.uk',
    });
  });

  it('treats a hosting tenant as its own registrable domain (PSL private section)', () => {
    expect(parseOverrideTarget('alice.github.io')).toEqual({
      scope: 'domain',
      target: 'alice.github.io',
    });
  });

  it('never widens a public suffix to a domain: the host alone', () => {
    expect(parseOverrideTarget('github.io')).toEqual({ scope: 'host', target: 'github.io' });
    expect(parseOverrideTarget('gov.uk')).toEqual({ scope: 'host', target: 'gov.uk' });
  });

  it('writes internationalized hosts in punycode, as they are matched', () => {
    expect(parseOverrideTarget('bücher.de')).toEqual({
      scope: 'domain',
      target: 'xn--bcher-kva.de',
    });
  });

  it('reads an IP address as a host target', () => {
    expect(parseOverrideTarget('8.8.8.8')).toEqual({ scope: 'host', target: '8.8.8.8' });
  });

  it('reads a scheme, a path, a query or a port as a URL prefix without its fragment', () => {
    expect(parseOverrideTarget('https://example.com/login#top')).toEqual({
      scope: 'url_prefix',
      target: 'https://example.com/login',
    });
    expect(parseOverrideTarget('example.com/app/')).toEqual({
      scope: 'url_prefix',
      target: 'https://example.com/app/',
    });
    expect(parseOverrideTarget('https://example.com')).toEqual({
      scope: 'url_prefix',
      target: 'https://example.com/',
    });
    expect(parseOverrideTarget('example.com:8443')).toEqual({
      scope: 'url_prefix',
      target: 'https://example.com:8443/',
    });
  });

  it.each(['localhost', 'com', '', 'ftp://example.com/', 'http://10.0.0.1/', 'no spaces.com'])(
    'refuses %j with invalid_request / override_target',
    (input) => {
      let error: unknown;
      try {
        parseOverrideTarget(input);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_request');
      expect((error as AppError).reason).toBe('override_target');
    },
  );

  it('compares URL prefixes without their scheme', () => {
    expect(schemelessUrl('https://example.com/a')).toBe('//example.com/a');
    expect(schemelessUrl('http://example.com/a')).toBe('//example.com/a');
  });
});
