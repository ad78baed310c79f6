/**
 * @module oauth/oauth-subject
 * The credential behind an authorization: a Premium license or an enterprise key, entered on the
 * authorization page (spec §5: OAuth "is activated with a Premium license or an Enterprise key").
 * It is looked up again at every use of a token, so revoking the license or key ends every token
 * issued from it at once.
 */

import { hashesEqual } from '../access/api-key.js';
import { authenticateKey, isKeyLive } from '../access/authenticate-key.js';
import { hashLicense, isWellFormedLicense } from '../access/license.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ApiKeyRecord } from '../store/ports/key-store.js';
import type { LicenseRecord } from '../store/ports/license-store.js';
import type { OAuthSubject } from '../store/ports/oauth-store.js';
import type { Store } from '../store/ports/store.js';

/** A live credential behind a grant. */
export type ResolvedSubject =
  { kind: 'license'; license: LicenseRecord } | { kind: 'enterprise'; key: ApiKeyRecord };

/**
 * The subject for a credential typed on the authorization page, or null when it is not a live
 * license or key (malformed, unknown, expired or revoked: one answer for all).
 *
 * @param raw the text entered, surrounding white space ignored.
 */
export async function subjectForCredential(
  store: Store,
  clock: Clock,
  raw: string,
): Promise<OAuthSubject | null> {
  const credential = raw.trim();
  if (isWellFormedLicense(credential)) {
    const hash = hashLicense(credential);
    const license = await store.licenses.findLicenseByHash(hash);
    if (license === null || !hashesEqual(license.hash, hash) || license.revokedAt !== null) {
      return null;
    }
    return { kind: 'license', id: license.id };
  }
  try {
    const key = await authenticateKey(store.keys, credential, clock);
    return { kind: 'enterprise', id: key.id };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The live license or key of a subject, or null when it was revoked, expired or deleted since.
 */
export async function resolveSubject(
  store: Store,
  clock: Clock,
  subject: OAuthSubject,
): Promise<ResolvedSubject | null> {
  if (subject.kind === 'license') {
    const license = await store.licenses.findLicenseById(subject.id);
    return license?.revokedAt === null ? { kind: 'license', license } : null;
  }
  const key = await store.keys.findKeyById(subject.id);
  return key !== null && isKeyLive(key, clock.now()) ? { kind: 'enterprise', key } : null;
}
