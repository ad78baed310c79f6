/** RDAP_ENABLED, RDAP_TIMEOUT_MS, WEB_RISK_API_KEY and WEB_RISK_URL in loadConfig. */
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('RDAP and Web Risk configuration', () => {
  it('defaults: RDAP on with 800 ms, no Web Risk key, the Google endpoint', () => {
    const config = loadConfig({});
    expect(config.rdapEnabled).toBe(true);
    expect(config.rdapTimeoutMs).toBe(800);
    expect(config.webRiskApiKey).toBeNull();
    expect(config.webRiskUrl).toBe('https://webrisk.googleapis.com');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      RDAP_ENABLED: 'false',
      RDAP_TIMEOUT_MS: '50',
      WEB_RISK_API_KEY: 'AIzaSyTEST-key_0123456789',
      WEB_RISK_URL: 'http://webrisk.test.example:8081/',
    });
    expect(config.rdapEnabled).toBe(false);
    expect(config.rdapTimeoutMs).toBe(50);
    expect(config.webRiskApiKey).toBe('AIzaSyTEST-key_0123456789');
    expect(config.webRiskUrl).toBe('http://webrisk.test.example:8081');
  });

  it.each([
    ['RDAP_TIMEOUT_MS', '801'],
    ['RDAP_TIMEOUT_MS', '49'],
    ['RDAP_ENABLED', 'yes'],
    ['WEB_RISK_URL', 'ftp://webrisk.example'],
    ['WEB_RISK_URL', 'https://webrisk.example/?key=1'],
    ['WEB_RISK_API_KEY', 'short'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('never repeats the API key in a configuration error', () => {
    const key = 'AIzaSy secret with spaces';
    let message = '';
    try {
      loadConfig({ WEB_RISK_API_KEY: key });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toContain('WEB_RISK_API_KEY');
    expect(message).not.toContain('secret');
  });
});

describe('catalog feed keys', () => {
  it('are absent by default and read from PHISHTANK_APP_KEY and URLHAUS_AUTH_KEY', () => {
    expect(loadConfig({}).feedKeys).toEqual({});
    expect(
      loadConfig({ PHISHTANK_APP_KEY: 'pt-key-0123456789', URLHAUS_AUTH_KEY: 'uh-key-0123456789' })
        .feedKeys,
    ).toEqual({ PHISHTANK_APP_KEY: 'pt-key-0123456789', URLHAUS_AUTH_KEY: 'uh-key-0123456789' });
  });

  it('refuses a malformed key without repeating it', () => {
    const bad = 'has space in it';
    expect(() => loadConfig({ URLHAUS_AUTH_KEY: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ URLHAUS_AUTH_KEY: bad })).toThrow(/URLHAUS_AUTH_KEY/);
    expect(() => loadConfig({ URLHAUS_AUTH_KEY: bad })).not.toThrow(/has space/);
  });
});
