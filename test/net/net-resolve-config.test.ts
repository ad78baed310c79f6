/** NET_RESOLVE in loadConfig: off by default, parsed and validated, errors name the variable. */
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('NET_RESOLVE', () => {
  it('is empty by default', () => {
    expect(loadConfig({}).netResolve).toEqual([]);
    expect(loadConfig({ NET_RESOLVE: '' }).netResolve).toEqual([]);
  });

  it('parses host:port:address entries into a frozen list', () => {
    const config = loadConfig({
      NET_RESOLVE: 'feeds.test.example:8080:127.0.0.1,rdap.test.example:443:[::1]',
    });
    expect(config.netResolve).toEqual([
      { host: 'feeds.test.example', port: 8080, address: '127.0.0.1' },
      { host: 'rdap.test.example', port: 443, address: '::1' },
    ]);
    expect(Object.isFrozen(config.netResolve)).toBe(true);
    expect(Object.isFrozen(config.netResolve[0])).toBe(true);
  });

  it.each([
    'feeds.test.example:8080',
    'feeds.test.example:99999:127.0.0.1',
    'feeds.test.example:80:nope',
  ])('refuses %j with a ConfigError naming NET_RESOLVE', (value) => {
    expect(() => loadConfig({ NET_RESOLVE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ NET_RESOLVE: value })).toThrow(/NET_RESOLVE/);
  });
});
