/**
 * @module intel/rdap/parse-rdap-domain
 * Reads the registration date out of an RFC 9083 domain object. Pure: the body arrives parsed.
 *
 * Which event counts (detection guide §5.1, §5.3):
 * - `registration` is the creation date (RFC 9083 §4.5, RFC 8056 event actions).
 * - `reregistration` counts too, and the later of the two wins: a domain that was dropped and
 *   registered again may have a new owner, so its old creation date is no reassurance (Unit 42
 *   treats a recent ownership change as newly registered).
 * - `transfer` does not count: registrar transfers are routine for established domains and say
 *   nothing about who owns the name.
 * - `expiration` only bounds how long the answer may be cached.
 */

export type RdapDomainParse =
  | {
      ok: true;
      /** Epoch ms of the chosen event. */
      registeredAt: number;
      basis: 'registration' | 'reregistration';
      /** Epoch ms of the `expiration` event, when present and valid. */
      expiresAt: number | null;
    }
  | { ok: false; reason: 'malformed' | 'no_registration_date' };

/**
 * Earliest plausible registration: the first .com was registered on 1985-03-15; anything older is
 * a placeholder (`0001-01-01`, `1970-01-01`) rather than a date.
 */
const EARLIEST_REGISTRATION = Date.UTC(1985, 0, 1);
/** Clock skew tolerated for a registration "in the future" before the date is refused. */
const FUTURE_TOLERANCE_MS = 60 * 60 * 1000;
/** RFC 3339 date-time as RDAP servers write it (fraction and offset optional, date-only allowed). */
const RFC3339 =
  /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Extract the registration date of `domain` from a parsed RDAP response body.
 *
 * @param body the JSON value of a 2xx answer.
 * @param domain the queried registrable domain (lowercase ASCII); a different `ldhName` in the
 * answer makes it `malformed` (some servers answer 200 with a placeholder for unknown names).
 * @param now epoch ms; a registration date more than an hour ahead of it is `malformed`.
 * @returns `no_registration_date` when the object has no `registration`/`reregistration` event;
 * `malformed` when the body is not a domain object or the relevant dates are unusable.
 */
export function parseRdapDomain(body: unknown, domain: string, now: number): RdapDomainParse {
  if (!isRecord(body)) return { ok: false, reason: 'malformed' };
  if (body.objectClassName !== undefined && body.objectClassName !== 'domain') {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof body.ldhName === 'string' && normalizeName(body.ldhName) !== normalizeName(domain)) {
    return { ok: false, reason: 'malformed' };
  }
  if (body.events === undefined) return { ok: false, reason: 'no_registration_date' };
  if (!Array.isArray(body.events)) return { ok: false, reason: 'malformed' };

  let best: { at: number; basis: 'registration' | 'reregistration' } | null = null;
  let sawCreationEvent = false;
  let expiresAt: number | null = null;
  for (const event of body.events as unknown[]) {
    if (!isRecord(event) || typeof event.eventAction !== 'string') continue;
    const action = event.eventAction.toLowerCase();
    const at = parseEventDate(event.eventDate);
    if (action === 'expiration') {
      if (at !== null) expiresAt = at;
      continue;
    }
    if (action !== 'registration' && action !== 'reregistration') continue;
    sawCreationEvent = true;
    if (at === null || at < EARLIEST_REGISTRATION || at > now + FUTURE_TOLERANCE_MS) continue;
    if (best === null || at > best.at) best = { at, basis: action };
  }
  if (best === null) {
    return { ok: false, reason: sawCreationEvent ? 'malformed' : 'no_registration_date' };
  }
  return { ok: true, registeredAt: best.at, basis: best.basis, expiresAt };
}

function parseEventDate(value: unknown): number | null {
  if (typeof value !== 'string' || !RFC3339.test(value.trim())) return null;
  const at = Date.parse(value.trim());
  return Number.isFinite(at) ? at : null;
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
