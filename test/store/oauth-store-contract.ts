/**
 * The behaviour every {@link OAuthStore} adapter must have, with two stores opened on one
 * database standing for two processes: clients round-trip with every field (and the schema
 * refuses a public client with a secret); pending authorizations are found, counted and taken at
 * most once; a code is spent exactly once (also under 50 concurrent redemptions across both
 * stores) and its reuse names the grant it issued; a refresh token rotates exactly once (also
 * under concurrent rotations), then reads as reused, and an expired one is invalid; revoking a
 * grant deletes its tokens, idempotently; saving a pending request prunes what has expired while
 * keeping a recently expired code so its reuse still revokes; per-source caps of registrations
 * and pending requests hold (also under concurrent inserts across both stores), and clients that
 * never completed a sign-in are pruned a day after registering. `oauth-store.test.ts` runs it on
 * SQLite, `postgres-store.test.ts` on PostgreSQL.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  CODE_TTL_MS,
  generateClientId,
  generateGrantId,
  generateNonce,
  generateSecret,
  PENDING_AUTHORIZATION_TTL_MS,
} from '../../src/oauth/oauth-secrets.js';
import { sourceCap } from '../../src/oauth/oauth-source.js';
import type {
  AuthorizationCodeRecord,
  IssuedTokenHashes,
  OAuthClientRecord,
  OAuthGrantRecord,
  PendingAuthorizationRecord,
} from '../../src/store/ports/oauth-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { pkcePair } from '../helpers/oauth-http.js';
import { T0 } from '../helpers/test-app.js';

const RESOURCE = 'https://linkguard.example.com/mcp';
const REDIRECT_URI = 'https://client.example.com/callback';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function newClient(overrides: Partial<OAuthClientRecord> = {}): OAuthClientRecord {
  return {
    id: generateClientId(),
    secretHash: null,
    authMethod: 'none',
    redirectUris: [REDIRECT_URI],
    grantTypes: ['authorization_code', 'refresh_token'],
    name: 'Test client',
    metadata: { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
    createdAt: T0,
    ...overrides,
  };
}

function newPending(
  clientId: string,
  overrides: Partial<PendingAuthorizationRecord> = {},
): PendingAuthorizationRecord {
  return {
    hash: generateNonce().hash,
    clientId,
    redirectUri: REDIRECT_URI,
    redirectUriGiven: true,
    codeChallenge: pkcePair().challenge,
    state: 'xyz',
    resource: RESOURCE,
    scope: 'mcp',
    csrfHash: generateNonce().hash,
    expiresAt: T0 + PENDING_AUTHORIZATION_TTL_MS,
    failedAttempts: 0,
    ...overrides,
  };
}

function newCode(
  clientId: string,
  overrides: Partial<AuthorizationCodeRecord> = {},
): AuthorizationCodeRecord {
  return {
    hash: generateSecret('code').hash,
    clientId,
    redirectUri: REDIRECT_URI,
    redirectUriGiven: false,
    codeChallenge: pkcePair().challenge,
    resource: RESOURCE,
    scope: 'mcp',
    subject: { kind: 'license', id: 'lk_000000000001' },
    expiresAt: T0 + CODE_TTL_MS,
    ...overrides,
  };
}

function newGrant(clientId: string, overrides: Partial<OAuthGrantRecord> = {}): OAuthGrantRecord {
  return {
    id: generateGrantId(),
    clientId,
    subject: { kind: 'enterprise', id: 'key_000000000001' },
    resource: RESOURCE,
    scope: 'mcp',
    createdAt: T0,
    revokedAt: null,
    ...overrides,
  };
}

/** Fresh token hashes expiring at `accessExpiresAt` / `refreshExpiresAt` (null: no refresh). */
function newTokens(
  accessExpiresAt: number = T0 + 30 * DAY,
  refreshExpiresAt: number | null = T0 + 90 * DAY,
): IssuedTokenHashes {
  return {
    access: { hash: generateSecret('accessToken').hash, expiresAt: accessExpiresAt },
    refresh:
      refreshExpiresAt === null
        ? null
        : { hash: generateSecret('refreshToken').hash, expiresAt: refreshExpiresAt },
  };
}

/** The refresh token of an issuance (the tests always issue one). */
function refreshOf(tokens: IssuedTokenHashes): Buffer {
  if (tokens.refresh === null) throw new Error('no refresh token issued');
  return tokens.refresh.hash;
}

/** Two stores on one database standing for two processes, and a direct read of a grant's row. */
interface StorePair {
  a: Store;
  b: Store;
  /** `revoked_at` of a grant as stored, read past the port (null when unset). */
  revokedAtOf(grantId: string): Promise<number | null>;
  close(): Promise<void>;
}

/** Register the OAuth store tests for one adapter; `openPair` makes a fresh, empty database. */
export function describeOAuthStore(name: string, openPair: () => Promise<StorePair>): void {
  describe(`${name} OAuth store, two connections on one database`, () => {
    let pair: StorePair;
    let a: Store;
    let b: Store;

    beforeEach(async () => {
      pair = await openPair();
      ({ a, b } = pair);
    });

    afterEach(async () => {
      await pair.close();
    });

    /** A registered client (pending rows, codes and grants reference one). */
    async function client(): Promise<OAuthClientRecord> {
      const record = newClient();
      await a.oauth.registerClient(record);
      return record;
    }

    /** A grant with its first tokens, created from a spent code as the token endpoint does. */
    async function grantWithTokens(
      clientId: string,
      tokens: IssuedTokenHashes = newTokens(),
    ): Promise<{ grant: OAuthGrantRecord; tokens: IssuedTokenHashes; codeHash: Buffer }> {
      const code = newCode(clientId);
      await a.oauth.saveCode(code);
      expect((await a.oauth.redeemCode(code.hash, T0)).status).toBe('first_use');
      const grant = newGrant(clientId);
      await a.oauth.createGrant(grant, tokens, code.hash);
      return { grant, tokens, codeHash: code.hash };
    }

    describe('clients', () => {
      it('round-trips a confidential client with every field, seen from the other connection', async () => {
        const confidential = newClient({
          secretHash: generateSecret('clientSecret').hash,
          authMethod: 'client_secret_basic',
          redirectUris: ['https://client.example.com/cb', 'http://127.0.0.1:7777/cb?x=1'],
          grantTypes: ['authorization_code'],
          name: 'Ünïcode “client” <b>',
          metadata: {
            redirect_uris: ['https://client.example.com/cb', 'http://127.0.0.1:7777/cb?x=1'],
            token_endpoint_auth_method: 'client_secret_basic',
            contacts: ['a@example.com'],
            nested: { list: [1, 'two', null], flag: true },
          },
          createdAt: T0 + 123,
        });
        await a.oauth.registerClient(confidential);
        const found = await b.oauth.findClient(confidential.id);
        expect(found).toEqual(confidential);
        expect(found?.secretHash).toBeInstanceOf(Buffer);
        expect(found?.secretHash?.equals(confidential.secretHash ?? Buffer.alloc(0))).toBe(true);
      });

      it('round-trips a public client with a null secret and a null name', async () => {
        const pub = newClient({ name: null });
        await b.oauth.registerClient(pub);
        const found = await a.oauth.findClient(pub.id);
        expect(found).toEqual(pub);
        expect(found?.secretHash).toBeNull();
        expect(found?.name).toBeNull();
        expect(await a.oauth.findClient('mcpc_000000000000')).toBeNull();
      });

      it('refuses a duplicate client id', async () => {
        const first = await client();
        await expect(b.oauth.registerClient(newClient({ id: first.id }))).rejects.toThrow(
          /UNIQUE constraint failed|violates unique constraint/,
        );
      });

      it('the schema CHECK refuses a public client with a secret hash, and a confidential one without', async () => {
        const publicWithSecret = newClient({
          authMethod: 'none',
          secretHash: generateSecret('clientSecret').hash,
        });
        await expect(a.oauth.registerClient(publicWithSecret)).rejects.toThrow(
          /CHECK constraint failed|violates check constraint/,
        );
        const confidentialWithout = newClient({
          authMethod: 'client_secret_post',
          secretHash: null,
        });
        await expect(a.oauth.registerClient(confidentialWithout)).rejects.toThrow(
          /CHECK constraint failed|violates check constraint/,
        );
        expect(await b.oauth.findClient(publicWithSecret.id)).toBeNull();
        expect(await b.oauth.findClient(confidentialWithout.id)).toBeNull();
      });
    });

    describe('pending authorizations', () => {
      it('saves, finds, counts failed attempts and is taken exactly once', async () => {
        const { id } = await client();
        const pending = newPending(id, { state: null, redirectUriGiven: false });
        await a.oauth.savePendingAuthorization(pending, T0);
        expect(await b.oauth.findPendingAuthorization(pending.hash)).toEqual(pending);

        expect(await a.oauth.countFailedAttempt(pending.hash)).toBe(1);
        expect(await b.oauth.countFailedAttempt(pending.hash)).toBe(2);
        expect(await a.oauth.findPendingAuthorization(pending.hash)).toEqual({
          ...pending,
          failedAttempts: 2,
        });
        expect(await a.oauth.countFailedAttempt(generateNonce().hash)).toBe(0);

        expect(await b.oauth.takePendingAuthorization(pending.hash)).toEqual({
          ...pending,
          failedAttempts: 2,
        });
        expect(await a.oauth.takePendingAuthorization(pending.hash)).toBeNull();
        expect(await b.oauth.takePendingAuthorization(pending.hash)).toBeNull();
        expect(await a.oauth.findPendingAuthorization(pending.hash)).toBeNull();
        expect(await a.oauth.countFailedAttempt(pending.hash)).toBe(0);
      });

      it('keeps state and redirectUriGiven as given', async () => {
        const { id } = await client();
        const pending = newPending(id, { state: 'a b&c=ü', redirectUriGiven: true });
        await a.oauth.savePendingAuthorization(pending, T0);
        const found = await b.oauth.findPendingAuthorization(pending.hash);
        expect(found?.state).toBe('a b&c=ü');
        expect(found?.redirectUriGiven).toBe(true);
      });
    });

    describe('authorization codes', () => {
      it('first redemption is first_use; later ones are reused, naming the grant once it exists', async () => {
        const { id } = await client();
        const code = newCode(id, { redirectUriGiven: true });
        await a.oauth.saveCode(code);

        expect(await a.oauth.redeemCode(code.hash, T0 + 1)).toEqual({ status: 'first_use', code });
        expect(await b.oauth.redeemCode(code.hash, T0 + 2)).toEqual({
          status: 'reused',
          grantId: null,
        });

        // The reuse came between redemption and grant creation: the grant is stored revoked and
        // gets no tokens (RFC 6749 §4.1.2).
        const grant = newGrant(id, { subject: code.subject });
        const tokens = newTokens();
        expect(await b.oauth.createGrant(grant, tokens, code.hash)).toBe(false);
        expect(await a.oauth.findToken(tokens.access.hash)).toBeNull();
        expect(await a.oauth.redeemCode(code.hash, T0 + 3)).toEqual({
          status: 'reused',
          grantId: grant.id,
        });
        expect(await b.oauth.redeemCode(code.hash, T0 + 4)).toEqual({
          status: 'reused',
          grantId: grant.id,
        });
        expect(await a.oauth.redeemCode(generateSecret('code').hash, T0)).toEqual({
          status: 'unknown',
        });
      });

      it('a grant created before any reuse keeps its tokens until the reuse revokes it', async () => {
        const { id } = await client();
        const code = newCode(id);
        await a.oauth.saveCode(code);
        expect((await a.oauth.redeemCode(code.hash, T0 + 1)).status).toBe('first_use');
        const grant = newGrant(id, { subject: code.subject });
        const tokens = newTokens();
        expect(await b.oauth.createGrant(grant, tokens, code.hash)).toBe(true);
        expect((await a.oauth.findToken(tokens.access.hash))?.grant.revokedAt).toBeNull();
        expect(await a.oauth.redeemCode(code.hash, T0 + 2)).toEqual({
          status: 'reused',
          grantId: grant.id,
        });
      });

      it('50 concurrent redemptions across two connections: exactly one first_use', async () => {
        const { id } = await client();
        const code = newCode(id);
        await a.oauth.saveCode(code);
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            (i % 2 === 0 ? a : b).oauth.redeemCode(code.hash, T0 + i),
          ),
        );
        const first = outcomes.filter((o) => o.status === 'first_use');
        expect(first).toHaveLength(1);
        expect(first[0]).toEqual({ status: 'first_use', code });
        expect(outcomes.filter((o) => o.status === 'reused')).toHaveLength(49);
        for (const o of outcomes) {
          if (o.status === 'reused') expect(o.grantId).toBeNull();
        }
      });
    });

    describe('refresh tokens', () => {
      it('rotates once, storing the successors; a second rotation is reused with the grant id', async () => {
        const { id } = await client();
        const { grant, tokens } = await grantWithTokens(id);
        const next = newTokens(T0 + HOUR + 30 * DAY, T0 + HOUR + 90 * DAY);

        expect(await a.oauth.rotateRefreshToken(refreshOf(tokens), T0 + HOUR, next)).toEqual({
          status: 'rotated',
          grant,
        });
        expect(await b.oauth.findToken(refreshOf(tokens))).toEqual({
          kind: 'refresh',
          expiresAt: T0 + 90 * DAY,
          rotatedAt: T0 + HOUR,
          grant,
        });
        expect(await b.oauth.findToken(next.access.hash)).toEqual({
          kind: 'access',
          expiresAt: T0 + HOUR + 30 * DAY,
          rotatedAt: null,
          grant,
        });
        expect(await b.oauth.findToken(refreshOf(next))).toEqual({
          kind: 'refresh',
          expiresAt: T0 + HOUR + 90 * DAY,
          rotatedAt: null,
          grant,
        });

        const again = newTokens();
        expect(await b.oauth.rotateRefreshToken(refreshOf(tokens), T0 + 2 * HOUR, again)).toEqual({
          status: 'reused',
          grantId: grant.id,
        });
        expect(await a.oauth.findToken(again.access.hash)).toBeNull();
        expect(await a.oauth.findToken(refreshOf(again))).toBeNull();
      });

      it('an access token, an unknown hash or an expired refresh token does not rotate', async () => {
        const { id } = await client();
        const expiresAt = T0 + DAY;
        const { tokens } = await grantWithTokens(id, newTokens(T0 + DAY, expiresAt));
        const next = newTokens();

        expect(await a.oauth.rotateRefreshToken(tokens.access.hash, T0, next)).toEqual({
          status: 'invalid',
        });
        expect(
          await a.oauth.rotateRefreshToken(generateSecret('refreshToken').hash, T0, next),
        ).toEqual({ status: 'invalid' });
        // At its expiry instant the token is already expired.
        expect(await b.oauth.rotateRefreshToken(refreshOf(tokens), expiresAt, next)).toEqual({
          status: 'invalid',
        });
        expect(await a.oauth.rotateRefreshToken(refreshOf(tokens), expiresAt + HOUR, next)).toEqual(
          {
            status: 'invalid',
          },
        );
        expect((await a.oauth.findToken(refreshOf(tokens)))?.rotatedAt).toBeNull();
        expect(await a.oauth.findToken(next.access.hash)).toBeNull();
      });

      it('concurrent rotations of one refresh token across two connections: exactly one rotated', async () => {
        const { id } = await client();
        const { grant, tokens } = await grantWithTokens(id);
        const successors = Array.from({ length: 20 }, () => newTokens());
        const outcomes = await Promise.all(
          successors.map((next, i) =>
            (i % 2 === 0 ? a : b).oauth.rotateRefreshToken(refreshOf(tokens), T0 + i + 1, next),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'rotated')).toEqual([
          { status: 'rotated', grant },
        ]);
        expect(outcomes.filter((o) => o.status === 'reused')).toHaveLength(19);
        for (const o of outcomes) {
          if (o.status === 'reused') expect(o.grantId).toBe(grant.id);
        }
        // Only the winner's successors were stored.
        const stored = [];
        for (const next of successors) {
          for (const hash of [next.access.hash, refreshOf(next)]) {
            if ((await a.oauth.findToken(hash)) !== null) stored.push(hash);
          }
        }
        expect(stored).toHaveLength(2);
      });
    });

    describe('revocation', () => {
      it("revokeGrant deletes the grant's tokens, leaves other grants alone, and is idempotent", async () => {
        const { id } = await client();
        const first = await grantWithTokens(id);
        const other = await grantWithTokens(id);
        expect(await b.oauth.findToken(first.tokens.access.hash)).not.toBeNull();

        await a.oauth.revokeGrant(first.grant.id, T0 + HOUR);
        expect(await b.oauth.findToken(first.tokens.access.hash)).toBeNull();
        expect(await b.oauth.findToken(refreshOf(first.tokens))).toBeNull();
        expect(await b.oauth.findToken(other.tokens.access.hash)).toEqual({
          kind: 'access',
          expiresAt: other.tokens.access.expiresAt,
          rotatedAt: null,
          grant: other.grant,
        });
        // The revoked grant's refresh token cannot rotate any more.
        expect(
          await b.oauth.rotateRefreshToken(refreshOf(first.tokens), T0 + HOUR, newTokens()),
        ).toEqual({ status: 'invalid' });
        // Its code's reuse still names it (the caller's revokeGrant is then a no-op).
        expect(await a.oauth.redeemCode(first.codeHash, T0 + HOUR)).toEqual({
          status: 'reused',
          grantId: first.grant.id,
        });

        await b.oauth.revokeGrant(first.grant.id, T0 + 2 * HOUR);
        await a.oauth.revokeGrant('grt_000000000000', T0 + 2 * HOUR);
        // The first revocation's time stays.
        expect(await pair.revokedAtOf(first.grant.id)).toBe(T0 + HOUR);
        expect(await pair.revokedAtOf(other.grant.id)).toBeNull();
      });
    });

    describe('pruning on savePendingAuthorization', () => {
      it('deletes expired pending rows and tokens, and codes expired over a day ago only', async () => {
        const { id } = await client();
        const now = T0 + 3 * DAY;

        const expiredPending = newPending(id, { expiresAt: now });
        const livePending = newPending(id, { expiresAt: now + 1 });
        await a.oauth.savePendingAuthorization(expiredPending, T0);
        await a.oauth.savePendingAuthorization(livePending, T0);

        // Codes: one expired just over a day ago, one an hour ago (both spent, with grants), one live.
        const oldCode = newCode(id, { expiresAt: now - DAY });
        const recentCode = newCode(id, { expiresAt: now - HOUR });
        const liveCode = newCode(id, { expiresAt: now + CODE_TTL_MS });
        for (const code of [oldCode, recentCode, liveCode]) await a.oauth.saveCode(code);
        const oldGrant = newGrant(id);
        const recentGrant = newGrant(id);
        expect((await a.oauth.redeemCode(oldCode.hash, T0)).status).toBe('first_use');
        expect((await a.oauth.redeemCode(recentCode.hash, T0)).status).toBe('first_use');
        // Tokens: expired at `now` exactly, and live.
        const expiredTokens = newTokens(now, now);
        const liveTokens = newTokens(now + 1, now + DAY);
        await a.oauth.createGrant(oldGrant, expiredTokens, oldCode.hash);
        await a.oauth.createGrant(recentGrant, liveTokens, recentCode.hash);

        const trigger = newPending(id, { expiresAt: now + PENDING_AUTHORIZATION_TTL_MS });
        await b.oauth.savePendingAuthorization(trigger, now);

        expect(await a.oauth.findPendingAuthorization(expiredPending.hash)).toBeNull();
        expect(await a.oauth.findPendingAuthorization(livePending.hash)).toEqual(livePending);
        expect(await a.oauth.findPendingAuthorization(trigger.hash)).toEqual(trigger);

        expect(await a.oauth.findToken(expiredTokens.access.hash)).toBeNull();
        expect(await a.oauth.findToken(refreshOf(expiredTokens))).toBeNull();
        expect((await a.oauth.findToken(liveTokens.access.hash))?.grant).toEqual(recentGrant);
        expect((await a.oauth.findToken(refreshOf(liveTokens)))?.grant).toEqual(recentGrant);

        expect(await a.oauth.redeemCode(oldCode.hash, now)).toEqual({ status: 'unknown' });
        // Expired an hour ago but kept: its reuse still names the grant to revoke.
        expect(await a.oauth.redeemCode(recentCode.hash, now)).toEqual({
          status: 'reused',
          grantId: recentGrant.id,
        });
        expect(await a.oauth.redeemCode(liveCode.hash, now)).toEqual({
          status: 'first_use',
          code: liveCode,
        });
      });
    });

    describe('per-source caps (issue 14)', () => {
      it('a source registers at most max clients an hour; others and later ones are unaffected', async () => {
        const source = sourceCap('203.0.113.1', 3);
        for (let i = 0; i < 3; i += 1) {
          const store = i % 2 === 0 ? a : b;
          expect(
            await store.oauth.registerClientFromSource(
              newClient({ createdAt: T0 + i }),
              source,
              T0 + i,
            ),
          ).toEqual({ ok: true });
        }
        const refused = newClient({ createdAt: T0 + 10 });
        expect(await b.oauth.registerClientFromSource(refused, source, T0 + 10)).toEqual({
          ok: false,
          retryAt: T0 + HOUR,
        });
        expect(await a.oauth.findClient(refused.id)).toBeNull();
        expect(
          await a.oauth.registerClientFromSource(
            newClient({ createdAt: T0 + 10 }),
            sourceCap('203.0.113.2', 3),
            T0 + 10,
          ),
        ).toEqual({ ok: true });
        // The first registration has left the hour: one slot is free again.
        expect(
          await a.oauth.registerClientFromSource(
            newClient({ createdAt: T0 + HOUR }),
            source,
            T0 + HOUR,
          ),
        ).toEqual({ ok: true });
        expect(
          (
            await b.oauth.registerClientFromSource(
              newClient({ createdAt: T0 + HOUR }),
              source,
              T0 + HOUR,
            )
          ).ok,
        ).toBe(false);
      });

      it('20 concurrent registrations of one source across two connections: exactly max succeed', async () => {
        const source = sourceCap('2001:db8:5::1', 5);
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? a : b).oauth.registerClientFromSource(
              newClient({ createdAt: T0 }),
              // Another address of the same /64 is the same source.
              i % 3 === 0 ? sourceCap(`2001:db8:5::${String(i + 2)}`, 5) : source,
              T0,
            ),
          ),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
      });

      it('a source holds at most max pending requests until one expires', async () => {
        const { id } = await client();
        const source = sourceCap('198.51.100.7', 2);
        const first = newPending(id, { expiresAt: T0 + 10 * 60_000 });
        const second = newPending(id, { expiresAt: T0 + 11 * 60_000 });
        expect(await a.oauth.savePendingAuthorization(first, T0, source)).toEqual({ ok: true });
        expect(await b.oauth.savePendingAuthorization(second, T0 + 60_000, source)).toEqual({
          ok: true,
        });
        const third = newPending(id, { expiresAt: T0 + 12 * 60_000 });
        expect(await a.oauth.savePendingAuthorization(third, T0 + 2 * 60_000, source)).toEqual({
          ok: false,
          retryAt: first.expiresAt,
        });
        expect(await a.oauth.findPendingAuthorization(third.hash)).toBeNull();
        // Without a cap, and from another source, requests are still held.
        expect((await b.oauth.savePendingAuthorization(newPending(id), T0)).ok).toBe(true);
        expect(
          (await b.oauth.savePendingAuthorization(newPending(id), T0, sourceCap('198.51.100.8', 2)))
            .ok,
        ).toBe(true);
        // Taking one (a finished sign-in) frees its slot; so does an expiry.
        await b.oauth.takePendingAuthorization(second.hash);
        expect((await a.oauth.savePendingAuthorization(third, T0 + 2 * 60_000, source)).ok).toBe(
          true,
        );
        const fourth = newPending(id, { expiresAt: T0 + 30 * 60_000 });
        expect((await a.oauth.savePendingAuthorization(fourth, first.expiresAt, source)).ok).toBe(
          true,
        );
      });
    });

    describe('pruning abandoned registrations (issue 14)', () => {
      it('a client with no sign-in is pruned a day after registering; a used or busy one is kept', async () => {
        const abandoned = await client();
        const authorized = await client();
        await grantWithTokens(authorized.id);
        const pendingOnly = await client();
        const recent = newClient({ createdAt: T0 + DAY - 1 });
        await b.oauth.registerClient(recent);

        // A day later its sign-in page is still open (a long-lived pending row, for the test).
        const later = T0 + DAY;
        await a.oauth.savePendingAuthorization(
          newPending(pendingOnly.id, { expiresAt: later + HOUR }),
          T0,
        );
        const trigger = newClient({ createdAt: later });
        await a.oauth.registerClient(trigger);
        await b.oauth.savePendingAuthorization(
          newPending(trigger.id, { expiresAt: later + 1 }),
          later,
        );

        expect(await a.oauth.findClient(abandoned.id)).toBeNull();
        expect(await a.oauth.findClient(authorized.id)).toEqual(authorized);
        expect(await a.oauth.findClient(pendingOnly.id)).toEqual(pendingOnly);
        expect(await a.oauth.findClient(recent.id)).toEqual(recent);

        // A grant revoked long ago still marks its client as having completed a sign-in.
        const older = later + 2 * DAY;
        await b.oauth.registerClientFromSource(
          newClient({ createdAt: older }),
          sourceCap('192.0.2.50', 20),
          older,
        );
        expect(await a.oauth.findClient(authorized.id)).toEqual(authorized);
        expect(await a.oauth.findClient(pendingOnly.id)).toBeNull();
        expect(await a.oauth.findClient(recent.id)).toBeNull();
      });
    });
  });
}
