import { describe, expect, it } from 'vitest';

import { parseRdapDomain } from './parse-rdap-domain.js';

const NOW = Date.UTC(2026, 10, 20);

const domainObject = (events: unknown, extra: Record<string, unknown> = {}) => ({
  objectClassName: 'domain',
  ldhName: 'EXAMPLE.COM',
  events,
  ...extra,
});

describe('parseRdapDomain', () => {
  it('takes the registration event and the expiration for caching', () => {
    const result = parseRdapDomain(
      domainObject([
        { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
        { eventAction: 'expiration', eventDate: '2027-08-13T04:00:00Z' },
        { eventAction: 'last changed', eventDate: '2026-08-14T07:01:39Z' },
      ]),
      'example.com',
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      registeredAt: Date.UTC(1995, 7, 14, 4),
      basis: 'registration',
      expiresAt: Date.UTC(2027, 7, 13, 4),
    });
  });

  it('reads only the domain events, not those of nested entities (registrar, contacts)', () => {
    const result = parseRdapDomain(
      {
        objectClassName: 'domain',
        ldhName: 'example.fr',
        entities: [
          {
            objectClassName: 'entity',
            roles: ['registrar'],
            events: [{ eventAction: 'registration', eventDate: '2026-11-19T00:00:00Z' }],
          },
        ],
        events: [
          { eventAction: 'registration', eventDate: '2016-01-27T00:33:10Z' },
          { eventAction: 'last changed', eventDate: '2026-11-19T00:35:28Z' },
        ],
      },
      'example.fr',
      NOW,
    );
    expect(result).toMatchObject({ ok: true, registeredAt: Date.UTC(2016, 0, 27, 0, 33, 10) });
  });

  it('prefers a later re-registration and ignores transfers', () => {
    const result = parseRdapDomain(
      domainObject([
        { eventAction: 'registration', eventDate: '2001-01-01T00:00:00Z' },
        { eventAction: 'transfer', eventDate: '2026-11-01T00:00:00Z' },
        { eventAction: 'reregistration', eventDate: '2026-10-01T00:00:00Z' },
      ]),
      'example.com',
      NOW,
    );
    expect(result).toMatchObject({
      ok: true,
      registeredAt: Date.UTC(2026, 9, 1),
      basis: 'reregistration',
    });
  });

  it('accepts offsets, fractions and a trailing dot in ldhName', () => {
    const result = parseRdapDomain(
      domainObject([{ eventAction: 'Registration', eventDate: '2020-01-01T10:00:00.5+02:00' }], {
        ldhName: 'example.com.',
      }),
      'example.com',
      NOW,
    );
    expect(result).toMatchObject({ ok: true, registeredAt: Date.UTC(2020, 0, 1, 8, 0, 0, 500) });
  });

  it('reports no_registration_date without events or without a creation event', () => {
    expect(parseRdapDomain({ objectClassName: 'domain' }, 'example.com', NOW)).toEqual({
      ok: false,
      reason: 'no_registration_date',
    });
    expect(
      parseRdapDomain(
        domainObject([{ eventAction: 'last changed', eventDate: '2020-01-01T00:00:00Z' }]),
        'example.com',
        NOW,
      ),
    ).toEqual({ ok: false, reason: 'no_registration_date' });
  });

  it.each([
    ['a future date', '2027-06-01T00:00:00Z'],
    ['a date that does not parse', 'yesterday'],
    ['an impossible month', '2020-13-01T00:00:00Z'],
    ['a placeholder epoch', '1970-01-01T00:00:00Z'],
  ])('reports malformed for %s', (_label, eventDate) => {
    expect(
      parseRdapDomain(
        domainObject([{ eventAction: 'registration', eventDate }]),
        'example.com',
        NOW,
      ),
    ).toEqual({ ok: false, reason: 'malformed' });
  });

  it('tolerates a registration a few minutes ahead of the clock (skew)', () => {
    const eventDate = new Date(NOW + 5 * 60 * 1000).toISOString();
    expect(
      parseRdapDomain(
        domainObject([{ eventAction: 'registration', eventDate }]),
        'example.com',
        NOW,
      ),
    ).toMatchObject({ ok: true, registeredAt: NOW + 5 * 60 * 1000 });
  });

  it.each([
    ['an array', []],
    ['a string', 'domain'],
    ['another object class', { objectClassName: 'entity', events: [] }],
    ['another domain name', domainObject([], { ldhName: 'other.com' })],
    ['events that are not a list', domainObject({ registration: '2020-01-01' })],
  ])('reports malformed for %s', (_label, body) => {
    expect(parseRdapDomain(body, 'example.com', NOW)).toEqual({ ok: false, reason: 'malformed' });
  });
});
