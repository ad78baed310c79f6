import { describe, expect, it } from 'vitest';

import { bearerChallenge, readAuthorization } from './authorization-header.js';

describe('readAuthorization (RFC 9110 §11.4, RFC 6750 §2.1, RFC 7617 §2)', () => {
  it.each([
    [undefined, { kind: 'none' }],
    ['', { kind: 'none' }],
    [' \t ', { kind: 'none' }],
    ['Bearer abc', { kind: 'bearer', token: 'abc' }],
    ['bEaReR   a-b.c_d~e+f/g==', { kind: 'bearer', token: 'a-b.c_d~e+f/g==' }],
    ['\tBearer abc\t', { kind: 'bearer', token: 'abc' }],
    ['Basic dXNlcjpwYXNz', { kind: 'basic', token68: 'dXNlcjpwYXNz' }],
    ['BASIC  dXNlcjpwYXNz', { kind: 'basic', token68: 'dXNlcjpwYXNz' }],
    ['Digest username="a", realm="b"', { kind: 'other', scheme: 'Digest' }],
    ['Negotiate', { kind: 'other', scheme: 'Negotiate' }],
    // Another scheme's name, not Bearer without its space: a Bearer door refuses it all the same.
    ['Bearerabc', { kind: 'other', scheme: 'Bearerabc' }],
  ] as const)('%j → %j', (header, expected) => {
    expect(readAuthorization(header)).toEqual(expected);
  });

  it.each([
    'Bearer\tabc',
    'Bearer \tabc',
    'Bearer',
    'Bearer ',
    'Bearer abc def',
    'Bearer a=b',
    'Bearer abc\u00a0',
    'Bearer ab"c',
    'Basic\tdXNlcjpwYXNz',
    'Basic',
    '=abc',
  ])('%j is malformed', (header) => {
    expect(readAuthorization(header)).toEqual({ kind: 'malformed' });
  });

  it('a header sent twice is malformed', () => {
    expect(readAuthorization(['Bearer a', 'Bearer b'])).toEqual({ kind: 'malformed' });
  });
});

describe('bearerChallenge (RFC 6750 §3)', () => {
  it('has no error without credentials, and puts given parameters first', () => {
    expect(bearerChallenge(null, '')).toBe('Bearer');
    expect(bearerChallenge(null, '', ['resource_metadata="https://x/"'])).toBe(
      'Bearer resource_metadata="https://x/"',
    );
    expect(bearerChallenge('invalid_request', 'Bad', ['realm="x"'])).toBe(
      'Bearer realm="x", error="invalid_request", error_description="Bad"',
    );
  });
});
