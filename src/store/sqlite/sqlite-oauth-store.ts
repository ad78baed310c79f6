/**
 * @module store/sqlite/sqlite-oauth-store
 * {@link OAuthStore} on better-sqlite3. The two exactly-once steps are single conditional
 * statements: a code is spent by `UPDATE … WHERE used_at IS NULL RETURNING`, a refresh token is
 * rotated by `UPDATE … WHERE rotated_at IS NULL` inside an IMMEDIATE transaction that also
 * stores its successors, so two concurrent exchanges of one code or one refresh token (in this
 * or another process) never both succeed. A per-source cap is a count and an insert in one
 * IMMEDIATE transaction, so concurrent requests of this and other processes cannot pass it.
 */

import type Database from 'better-sqlite3';

import type {
  AuthorizationCodeRecord,
  CappedInsert,
  ClientAuthMethod,
  CodeRedemption,
  IssuedTokenHashes,
  OAuthClientRecord,
  OAuthGrantRecord,
  OAuthStore,
  OAuthSubject,
  OAuthTokenRecord,
  PendingAuthorizationRecord,
  RefreshRotation,
  SourceCap,
} from '../ports/oauth-store.js';
import {
  ABANDONED_REGISTRATION_TTL_MS,
  CODE_RETENTION_MS,
  REGISTRATION_SOURCE_WINDOW_MS,
  requireInteger,
} from '../store-values.js';
import { asPromise } from './as-promise.js';

interface ClientRow {
  id: string;
  secretHash: Buffer | null;
  authMethod: ClientAuthMethod;
  redirectUris: string;
  grantTypes: string;
  name: string | null;
  metadata: string;
  createdAt: number;
}

interface PendingRow {
  hash: Buffer;
  clientId: string;
  redirectUri: string;
  redirectUriGiven: number;
  codeChallenge: string;
  state: string | null;
  resource: string;
  scope: string;
  csrfHash: Buffer;
  expiresAt: number;
  failedAttempts: number;
}

interface CodeRow {
  hash: Buffer;
  clientId: string;
  redirectUri: string;
  redirectUriGiven: number;
  codeChallenge: string;
  resource: string;
  scope: string;
  subjectKind: OAuthSubject['kind'];
  subjectId: string;
  expiresAt: number;
  usedAt: number | null;
  grantId: string | null;
}

interface GrantRow {
  id: string;
  clientId: string;
  subjectKind: OAuthSubject['kind'];
  subjectId: string;
  resource: string;
  scope: string;
  createdAt: number;
  revokedAt: number | null;
}

interface TokenRow extends GrantRow {
  kind: 'access' | 'refresh';
  expiresAt: number;
  rotatedAt: number | null;
}

const SELECT_CLIENT = `SELECT id, secret_hash AS secretHash, auth_method AS authMethod,
  redirect_uris AS redirectUris, grant_types AS grantTypes, name, metadata,
  created_at AS createdAt FROM oauth_clients`;

const PENDING_COLUMNS = `hash, client_id AS clientId, redirect_uri AS redirectUri,
  redirect_uri_given AS redirectUriGiven, code_challenge AS codeChallenge, state, resource,
  scope, csrf_hash AS csrfHash, expires_at AS expiresAt, failed_attempts AS failedAttempts`;

const CODE_COLUMNS = `hash, client_id AS clientId, redirect_uri AS redirectUri,
  redirect_uri_given AS redirectUriGiven, code_challenge AS codeChallenge, resource, scope,
  subject_kind AS subjectKind, subject_id AS subjectId, expires_at AS expiresAt,
  used_at AS usedAt, grant_id AS grantId`;

const SELECT_TOKEN = `SELECT t.kind, t.expires_at AS expiresAt, t.rotated_at AS rotatedAt,
  g.id, g.client_id AS clientId, g.subject_kind AS subjectKind, g.subject_id AS subjectId,
  g.resource, g.scope, g.created_at AS createdAt, g.revoked_at AS revokedAt
  FROM oauth_tokens AS t JOIN oauth_grants AS g ON g.id = t.grant_id WHERE t.hash = ?`;

function toClient(row: ClientRow): OAuthClientRecord {
  return {
    id: row.id,
    secretHash: row.secretHash,
    authMethod: row.authMethod,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    grantTypes: JSON.parse(row.grantTypes) as string[],
    name: row.name,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.createdAt,
  };
}

/** The insert parameters of a client row. */
function clientRow(client: OAuthClientRecord, sourceHash: Buffer | null): Record<string, unknown> {
  return {
    id: client.id,
    secretHash: client.secretHash,
    authMethod: client.authMethod,
    redirectUris: JSON.stringify(client.redirectUris),
    grantTypes: JSON.stringify(client.grantTypes),
    name: client.name,
    metadata: JSON.stringify(client.metadata),
    createdAt: client.createdAt,
    sourceHash,
  };
}

function toPending(row: PendingRow): PendingAuthorizationRecord {
  return { ...row, redirectUriGiven: row.redirectUriGiven === 1 };
}

function toCode(row: CodeRow): AuthorizationCodeRecord {
  return {
    hash: row.hash,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    redirectUriGiven: row.redirectUriGiven === 1,
    codeChallenge: row.codeChallenge,
    resource: row.resource,
    scope: row.scope,
    subject: { kind: row.subjectKind, id: row.subjectId },
    expiresAt: row.expiresAt,
  };
}

function toGrant(row: GrantRow): OAuthGrantRecord {
  return {
    id: row.id,
    clientId: row.clientId,
    subject: { kind: row.subjectKind, id: row.subjectId },
    resource: row.resource,
    scope: row.scope,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

export class SqliteOAuthStore implements OAuthStore {
  readonly #insertClient: Database.Statement<[Record<string, unknown>]>;
  readonly #client: Database.Statement<[string], ClientRow>;
  readonly #insertPending: Database.Statement<[Record<string, unknown>]>;
  readonly #registerCapped: Database.Transaction<
    (client: OAuthClientRecord, cap: SourceCap, now: number) => CappedInsert
  >;
  readonly #savePending: Database.Transaction<
    (pending: PendingAuthorizationRecord, now: number, cap: SourceCap | undefined) => CappedInsert
  >;
  readonly #pending: Database.Statement<[Buffer], PendingRow>;
  readonly #failedAttempt: Database.Statement<[Buffer], number>;
  readonly #takePending: Database.Statement<[Buffer], PendingRow>;
  readonly #insertCode: Database.Statement<[Record<string, unknown>]>;
  readonly #spendCode: Database.Statement<[{ hash: Buffer; at: number }], CodeRow>;
  readonly #code: Database.Statement<[Buffer], CodeRow>;
  readonly #token: Database.Statement<[Buffer], TokenRow>;
  readonly #prune: Database.Transaction<(now: number) => void>;
  readonly #createGrant: Database.Transaction<
    (grant: OAuthGrantRecord, tokens: IssuedTokenHashes, codeHash: Buffer) => boolean
  >;
  readonly #markReused: Database.Statement<[{ hash: Buffer; at: number }]>;
  readonly #rotate: Database.Transaction<
    (hash: Buffer, at: number, tokens: IssuedTokenHashes) => RefreshRotation
  >;
  readonly #revokeGrant: Database.Transaction<(grantId: string, at: number) => void>;

  constructor(db: Database.Database) {
    this.#insertClient = db.prepare(`INSERT INTO oauth_clients (id, secret_hash, auth_method,
      redirect_uris, grant_types, name, metadata, created_at, source_hash) VALUES (@id,
      @secretHash, @authMethod, @redirectUris, @grantTypes, @name, @metadata, @createdAt,
      @sourceHash)`);
    this.#client = db.prepare(`${SELECT_CLIENT} WHERE id = ?`);
    this.#insertPending = db.prepare(`INSERT INTO oauth_pending (hash, client_id, redirect_uri,
      redirect_uri_given, code_challenge, state, resource, scope, csrf_hash, expires_at,
      failed_attempts, source_hash) VALUES (@hash, @clientId, @redirectUri, @redirectUriGiven,
      @codeChallenge, @state, @resource, @scope, @csrfHash, @expiresAt, @failedAttempts,
      @sourceHash)`);
    this.#pending = db.prepare(`SELECT ${PENDING_COLUMNS} FROM oauth_pending WHERE hash = ?`);
    this.#failedAttempt = db
      .prepare<[Buffer], number>(
        `UPDATE oauth_pending SET failed_attempts = failed_attempts + 1 WHERE hash = ?
        RETURNING failed_attempts`,
      )
      .pluck();
    this.#takePending = db.prepare(
      `DELETE FROM oauth_pending WHERE hash = ? RETURNING ${PENDING_COLUMNS}`,
    );
    this.#insertCode = db.prepare(`INSERT INTO oauth_codes (hash, client_id, redirect_uri,
      redirect_uri_given, code_challenge, resource, scope, subject_kind, subject_id, expires_at)
      VALUES (@hash, @clientId, @redirectUri, @redirectUriGiven, @codeChallenge, @resource,
      @scope, @subjectKind, @subjectId, @expiresAt)`);
    this.#spendCode = db.prepare(`UPDATE oauth_codes SET used_at = @at
      WHERE hash = @hash AND used_at IS NULL RETURNING ${CODE_COLUMNS}`);
    this.#code = db.prepare(`SELECT ${CODE_COLUMNS} FROM oauth_codes WHERE hash = ?`);
    this.#token = db.prepare(SELECT_TOKEN);

    const prunePending = db.prepare('DELETE FROM oauth_pending WHERE expires_at <= ?');
    const pruneCodes = db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?');
    const pruneTokens = db.prepare('DELETE FROM oauth_tokens WHERE expires_at <= ?');
    const forgetSources = db.prepare(`UPDATE oauth_clients SET source_hash = NULL
      WHERE source_hash IS NOT NULL AND created_at <= ?`);
    // Never authorized, nothing pending or issued: abandoned (the indexes of migration 006).
    const pruneClients = db.prepare(`DELETE FROM oauth_clients AS c
      WHERE c.authorized_at IS NULL AND c.created_at <= ?
        AND NOT EXISTS (SELECT 1 FROM oauth_pending AS p WHERE p.client_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM oauth_codes AS o WHERE o.client_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM oauth_grants AS g WHERE g.client_id = c.id)`);
    this.#prune = db.transaction((now: number) => {
      prunePending.run(now);
      pruneCodes.run(now - CODE_RETENTION_MS);
      pruneTokens.run(now);
      forgetSources.run(now - REGISTRATION_SOURCE_WINDOW_MS);
      pruneClients.run(now - ABANDONED_REGISTRATION_TTL_MS);
    });

    const recentRegistrations = db.prepare<
      [Buffer, number],
      { live: number; oldest: number | null }
    >(`SELECT count(*) AS live, min(created_at) AS oldest FROM oauth_clients
      WHERE source_hash = ? AND created_at > ?`);
    this.#registerCapped = db.transaction((client, cap, now): CappedInsert => {
      this.#prune(now);
      const windowStart = now - REGISTRATION_SOURCE_WINDOW_MS;
      const seen = recentRegistrations.get(cap.sourceHash, windowStart);
      if (seen !== undefined && seen.live >= cap.max) {
        return { ok: false, retryAt: (seen.oldest ?? now) + REGISTRATION_SOURCE_WINDOW_MS };
      }
      this.#insertClient.run(clientRow(client, cap.sourceHash));
      return { ok: true };
    });
    const livePending = db.prepare<[Buffer, number], { live: number; first: number | null }>(
      `SELECT count(*) AS live, min(expires_at) AS first FROM oauth_pending
        WHERE source_hash = ? AND expires_at > ?`,
    );
    this.#savePending = db.transaction((pending, now, cap): CappedInsert => {
      this.#prune(now);
      if (cap !== undefined) {
        const seen = livePending.get(cap.sourceHash, now);
        if (seen !== undefined && seen.live >= cap.max) {
          return { ok: false, retryAt: seen.first ?? now };
        }
      }
      this.#insertPending.run({
        ...pending,
        redirectUriGiven: pending.redirectUriGiven ? 1 : 0,
        sourceHash: cap?.sourceHash ?? null,
      });
      return { ok: true };
    });

    const insertGrant = db.prepare(`INSERT INTO oauth_grants (id, client_id, subject_kind,
      subject_id, resource, scope, created_at, revoked_at) VALUES (@id, @clientId, @subjectKind,
      @subjectId, @resource, @scope, @createdAt, @revokedAt)`);
    const insertToken = db.prepare<[Record<string, unknown>]>(`INSERT INTO oauth_tokens (hash,
      kind, grant_id, created_at, expires_at, rotated_at)
      VALUES (@hash, @kind, @grantId, @createdAt, @expiresAt, NULL)`);
    const insertTokens = (grantId: string, at: number, tokens: IssuedTokenHashes) => {
      insertToken.run({ kind: 'access', grantId, createdAt: at, ...tokens.access });
      if (tokens.refresh !== null) {
        insertToken.run({ kind: 'refresh', grantId, createdAt: at, ...tokens.refresh });
      }
    };
    const reusedAtOf = db
      .prepare<[Buffer], number | null>('SELECT reused_at FROM oauth_codes WHERE hash = ?')
      .pluck();
    const linkCode = db.prepare('UPDATE oauth_codes SET grant_id = ? WHERE hash = ?');
    const markAuthorized = db.prepare(`UPDATE oauth_clients
      SET authorized_at = coalesce(authorized_at, ?) WHERE id = ?`);
    this.#markReused = db.prepare(`UPDATE oauth_codes SET reused_at = coalesce(reused_at, @at)
      WHERE hash = @hash`);
    this.#createGrant = db.transaction((grant, tokens, codeHash): boolean => {
      // The code's reuse may have been seen between its redemption and now: the grant is then
      // recorded revoked and gets no tokens (RFC 6749 §4.1.2).
      const revokedAt = reusedAtOf.get(codeHash) ?? null;
      insertGrant.run({
        id: grant.id,
        clientId: grant.clientId,
        subjectKind: grant.subject.kind,
        subjectId: grant.subject.id,
        resource: grant.resource,
        scope: grant.scope,
        createdAt: grant.createdAt,
        revokedAt,
      });
      linkCode.run(grant.id, codeHash);
      markAuthorized.run(grant.createdAt, grant.clientId);
      if (revokedAt !== null) return false;
      insertTokens(grant.id, grant.createdAt, tokens);
      return true;
    });

    const markRotated = db.prepare(`UPDATE oauth_tokens SET rotated_at = @at
      WHERE hash = @hash AND kind = 'refresh' AND rotated_at IS NULL AND expires_at > @at`);
    this.#rotate = db.transaction((hash, at, tokens): RefreshRotation => {
      const row = this.#token.get(hash);
      if (row?.kind !== 'refresh') return { status: 'invalid' };
      if (row.rotatedAt !== null) return { status: 'reused', grantId: row.id };
      if (row.revokedAt !== null || markRotated.run({ hash, at }).changes !== 1) {
        return { status: 'invalid' };
      }
      insertTokens(row.id, at, tokens);
      return { status: 'rotated', grant: toGrant(row) };
    });

    const revoke = db.prepare(
      'UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    );
    // A revoked grant's tokens are useless; deleting them keeps look-ups and the file small.
    const dropTokens = db.prepare('DELETE FROM oauth_tokens WHERE grant_id = ?');
    this.#revokeGrant = db.transaction((grantId: string, at: number) => {
      revoke.run(at, grantId);
      dropTokens.run(grantId);
    });
  }

  registerClient(client: OAuthClientRecord): Promise<void> {
    return asPromise(() => {
      this.#insertClient.run(clientRow(client, null));
    });
  }

  registerClientFromSource(
    client: OAuthClientRecord,
    cap: SourceCap,
    now: number,
  ): Promise<CappedInsert> {
    return asPromise(() => {
      requireInteger('cap.max', cap.max, 1);
      return this.#registerCapped.immediate(client, cap, now);
    });
  }

  findClient(id: string): Promise<OAuthClientRecord | null> {
    return asPromise(() => {
      const row = this.#client.get(id);
      return row === undefined ? null : toClient(row);
    });
  }

  savePendingAuthorization(
    pending: PendingAuthorizationRecord,
    now: number,
    cap?: SourceCap,
  ): Promise<CappedInsert> {
    return asPromise(() => {
      if (cap !== undefined) requireInteger('cap.max', cap.max, 1);
      return this.#savePending.immediate(pending, now, cap);
    });
  }

  findPendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null> {
    return asPromise(() => {
      const row = this.#pending.get(hash);
      return row === undefined ? null : toPending(row);
    });
  }

  countFailedAttempt(hash: Buffer): Promise<number> {
    return asPromise(() => this.#failedAttempt.get(hash) ?? 0);
  }

  takePendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null> {
    return asPromise(() => {
      const row = this.#takePending.get(hash);
      return row === undefined ? null : toPending(row);
    });
  }

  saveCode(code: AuthorizationCodeRecord): Promise<void> {
    return asPromise(() => {
      this.#insertCode.run({
        hash: code.hash,
        clientId: code.clientId,
        redirectUri: code.redirectUri,
        redirectUriGiven: code.redirectUriGiven ? 1 : 0,
        codeChallenge: code.codeChallenge,
        resource: code.resource,
        scope: code.scope,
        subjectKind: code.subject.kind,
        subjectId: code.subject.id,
        expiresAt: code.expiresAt,
      });
    });
  }

  redeemCode(hash: Buffer, at: number): Promise<CodeRedemption> {
    return asPromise(() => {
      const spent = this.#spendCode.get({ hash, at });
      if (spent !== undefined) return { status: 'first_use', code: toCode(spent) };
      const row = this.#code.get(hash);
      if (row === undefined) return { status: 'unknown' };
      this.#markReused.run({ hash, at });
      return { status: 'reused', grantId: row.grantId };
    });
  }

  createGrant(
    grant: OAuthGrantRecord,
    tokens: IssuedTokenHashes,
    codeHash: Buffer,
  ): Promise<boolean> {
    return asPromise(() => this.#createGrant.immediate(grant, tokens, codeHash));
  }

  findToken(hash: Buffer): Promise<OAuthTokenRecord | null> {
    return asPromise(() => {
      const row = this.#token.get(hash);
      if (row === undefined) return null;
      return {
        kind: row.kind,
        expiresAt: row.expiresAt,
        rotatedAt: row.rotatedAt,
        grant: toGrant(row),
      };
    });
  }

  rotateRefreshToken(
    hash: Buffer,
    at: number,
    tokens: IssuedTokenHashes,
  ): Promise<RefreshRotation> {
    return asPromise(() => this.#rotate.immediate(hash, at, tokens));
  }

  revokeGrant(grantId: string, at: number): Promise<void> {
    return asPromise(() => {
      this.#revokeGrant.immediate(grantId, at);
    });
  }
}
