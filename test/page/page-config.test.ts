/** PAGE_*, VERDICT_TTL_* and LLM_* in loadConfig. */
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('page analysis, verdict cache and LLM configuration', () => {
  it('defaults: page analysis on, 4 s, 2 MiB, 5 redirects, 32 fetches; TTLs; no LLM', () => {
    const config = loadConfig({});
    expect(config.page).toEqual({
      enabled: true,
      budgetMs: 4000,
      maxBytes: 2 * 1024 * 1024,
      maxRedirects: 5,
      concurrency: 32,
    });
    expect(config.verdictTtl).toEqual({
      safeSeconds: 600,
      cautionSeconds: 600,
      dangerSeconds: 3600,
      incompleteSeconds: 60,
    });
    expect(config.llm).toBeNull();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PAGE_ANALYSIS: 'off',
      PAGE_BUDGET_MS: '1500',
      PAGE_MAX_BYTES: '1048576',
      PAGE_MAX_REDIRECTS: '2',
      PAGE_FETCH_CONCURRENCY: '4',
      VERDICT_TTL_SAFE_SECONDS: '60',
      VERDICT_TTL_CAUTION_SECONDS: '120',
      VERDICT_TTL_DANGER_SECONDS: '0',
      VERDICT_TTL_INCOMPLETE_SECONDS: '10',
      LLM_BASE_URL: 'https://llm.example.com/v1/',
      LLM_MODEL: 'small-judge-1',
      LLM_API_KEY: 'sk-test-0123456789',
      LLM_TIMEOUT_MS: '900',
    });
    expect(config.page).toEqual({
      enabled: false,
      budgetMs: 1500,
      maxBytes: 1048576,
      maxRedirects: 2,
      concurrency: 4,
    });
    expect(config.verdictTtl).toEqual({
      safeSeconds: 60,
      cautionSeconds: 120,
      dangerSeconds: 0,
      incompleteSeconds: 10,
    });
    expect(config.llm).toEqual({
      baseUrl: 'https://llm.example.com/v1',
      model: 'small-judge-1',
      apiKey: 'sk-test-0123456789',
      timeoutMs: 900,
    });
  });

  it.each([
    ['PAGE_ANALYSIS', 'yes'],
    ['PAGE_BUDGET_MS', '100'],
    ['PAGE_MAX_BYTES', '1000'],
    ['PAGE_MAX_REDIRECTS', '11'],
    ['PAGE_FETCH_CONCURRENCY', '0'],
    ['VERDICT_TTL_DANGER_SECONDS', '-1'],
    ['LLM_TIMEOUT_MS', '50'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('LLM_BASE_URL and LLM_MODEL come together, as an http(s) URL without query', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'https://llm.example.com/v1' })).toThrow(/together/);
    expect(() => loadConfig({ LLM_MODEL: 'm' })).toThrow(/together/);
    expect(() => loadConfig({ LLM_BASE_URL: 'ftp://llm.example.com', LLM_MODEL: 'm' })).toThrow(
      'LLM_BASE_URL',
    );
    expect(() =>
      loadConfig({ LLM_BASE_URL: 'https://llm.example.com/v1?key=1', LLM_MODEL: 'm' }),
    ).toThrow('LLM_BASE_URL');
  });

  it('never repeats the LLM key in a configuration error', () => {
    let message = '';
    try {
      loadConfig({
        LLM_BASE_URL: 'https://llm.example.com',
        LLM_MODEL: 'm',
        LLM_API_KEY: 'a b secret',
      });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toContain('LLM_API_KEY');
    expect(message).not.toContain('secret');
  });
});
