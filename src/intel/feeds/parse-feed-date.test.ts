import { describe, expect, it } from 'vitest';

import { createFeedDateReader, parseFeedDate } from './parse-feed-date.js';

describe('parseFeedDate', () => {
  it.each<[string, number]>([
    ['2024-01-06', Date.UTC(2024, 0, 6)],
    ['2022-03-29T22:37:38+00:00', Date.UTC(2022, 2, 29, 22, 37, 38)],
    ['2024-12-03T11:44:52.120+00:00', Date.UTC(2024, 11, 3, 11, 44, 52, 120)],
    ['2024-12-03T11:44:52.1204Z', Date.UTC(2024, 11, 3, 11, 44, 52, 120)],
    ['2026-04-29 13:05:00', Date.UTC(2026, 3, 29, 13, 5)],
    ['2026-04-29 13:05:00 UTC', Date.UTC(2026, 3, 29, 13, 5)],
    ['2026-04-29T13:05', Date.UTC(2026, 3, 29, 13, 5)],
    ['2024-01-01T05:30:00+05:30', Date.UTC(2024, 0, 1)],
    ['2023-12-31T16:00:00-0800', Date.UTC(2024, 0, 1)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    [' 2024-01-06 ', Date.UTC(2024, 0, 6)],
  ])('%j', (text, expected) => {
    expect(parseFeedDate(text)).toBe(expected);
  });

  it.each([
    '',
    '29/04/2026',
    '2024-13-01',
    '2023-02-29',
    '2024-04-31',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:60Z',
    '2024-01-01T10:00:00+25:00',
    '0099-01-01',
    '2024-1-6',
    'yesterday',
    '1704499200',
  ])('refuses %j', (text) => {
    expect(parseFeedDate(text)).toBeNull();
  });

  it('reads the same dates through the memoising reader', () => {
    const read = createFeedDateReader();
    expect(read('2024-01-06')).toBe(Date.UTC(2024, 0, 6));
    expect(read('2024-01-06')).toBe(Date.UTC(2024, 0, 6));
    expect(read('bad')).toBeNull();
    expect(read('bad')).toBeNull();
  });
});
