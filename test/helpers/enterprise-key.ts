/**
 * Create an enterprise key the way `linkguard keys create` does: `generateApiKey()` then
 * `store.keys.createKey`. Returns the raw key (for the Authorization header) and its id.
 */
import { generateApiKey, type GeneratedApiKey } from '../../src/access/api-key.js';
import type { NewApiKey } from '../../src/store/ports/key-store.js';
import type { Store } from '../../src/store/ports/store.js';

export interface CreatedKey {
  raw: string;
  id: string;
  /** `Authorization` header value. */
  bearer: string;
}

/**
 * A new key record as `linkguard keys create` would store it, from `generated` (fresh by default);
 * `overrides` replace any field.
 */
export function newKey(
  overrides: Partial<NewApiKey> = {},
  generated: GeneratedApiKey = generateApiKey(),
): NewApiKey {
  return {
    id: generated.id,
    name: 'test key',
    prefix: generated.prefix,
    hash: generated.hash,
    createdAt: Date.UTC(2026, 0, 1),
    expiresAt: null,
    rateLimitPerMinute: null,
    monthlyAllowance: null,
    hardCap: false,
    ...overrides,
  };
}

export async function createEnterpriseKey(
  store: Store,
  overrides: Partial<Omit<NewApiKey, 'id' | 'prefix' | 'hash'>> = {},
): Promise<CreatedKey> {
  const generated = generateApiKey();
  await store.keys.createKey(newKey(overrides, generated));
  return { raw: generated.raw, id: generated.id, bearer: `Bearer ${generated.raw}` };
}
