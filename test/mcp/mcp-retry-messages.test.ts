/**
 * Error messages that tell when to retry are sentences (docs/decisions.md, decision 135): the
 * reason ends with a full stop, then `Retry in N s.`, never "…is spent Retry in 60 s.", and a
 * message that already says when to retry is not told twice. Over `/mcp` with a real store.
 */
import { describe, expect, it } from 'vitest';

import { withRetryHint } from '../../src/errors.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { useTestApp } from '../helpers/test-app.js';

const start = useTestApp();

interface BatchResult {
  url: string;
  error?: { code: string; message: string };
}

describe('Retry in N s.', () => {
  it('a batch over a key’s rate limit reports a sentence, then the retry time', async () => {
    const { app, store } = await start();
    const key = await createEnterpriseKey(store, { rateLimitPerMinute: 1 });
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: key.bearer,
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'check_urls_batch',
          arguments: { urls: ['https://paypal.com/', 'https://example.com/'] },
        },
      }),
    });
    expect(response.statusCode).toBe(200);
    const { result } = response.json<{
      result: { structuredContent: { results: BatchResult[] }; content: { text: string }[] };
    }>();
    const refused = result.structuredContent.results[1];
    expect(refused?.error?.code).toBe('rate_limited');
    expect(refused?.error?.message).toMatch(
      /^The rate limit of this key is spent\. Retry in \d+ s\.$/,
    );
    expect(result.content[0]?.text).toMatch(/is spent\. Retry in \d+ s\.$/m);
  });

  it.each([
    [
      'The rate limit of this key is spent',
      12,
      'The rate limit of this key is spent. Retry in 12 s.',
    ],
    [
      'Too many requests; back off and retry.',
      3,
      'Too many requests; back off and retry. Retry in 3 s.',
    ],
    [
      'The store is unavailable; nothing was recorded. Retry in 5 s.',
      5,
      'The store is unavailable; nothing was recorded. Retry in 5 s.',
    ],
    ['URL is longer than 2048 characters', undefined, 'URL is longer than 2048 characters.'],
    ['Is it?', undefined, 'Is it?'],
  ])('withRetryHint(%j, %j) → %j', (message, retryAfter, expected) => {
    expect(withRetryHint(message, retryAfter)).toBe(expected);
  });
});
