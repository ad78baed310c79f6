/**
 * REDIS_URL and REDIS_KEY_PREFIX: unset keeps everything in process; a bad value stops start-up
 * with a message that names the variable and never repeats the URL (it may carry a password).
 */
import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('REDIS_URL', () => {
  it('is unset by default: no Redis, default key prefix', () => {
    const config = loadConfig({});
    expect(config.redisUrl).toBeNull();
    expect(config.redisKeyPrefix).toBe('linkguard:');
  });

  it('accepts redis:// and rediss:// with credentials and a database number', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://user:pw-123@cache.internal:6380/2']) {
      expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
    }
    expect(loadConfig({ REDIS_KEY_PREFIX: 'staging:lg:' }).redisKeyPrefix).toBe('staging:lg:');
  });

  it('rejects other schemes and bad prefixes without echoing the URL', () => {
    const secret = 'hunter2-secret';
    for (const url of [`http://:${secret}@cache.internal:6379`, `not a url ${secret}`]) {
      let caught: unknown;
      try {
        loadConfig({ REDIS_URL: url });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toMatch(/^REDIS_URL /);
      expect((caught as Error).message).not.toContain(secret);
    }
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
