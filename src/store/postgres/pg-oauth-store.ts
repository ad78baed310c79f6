/**
 * @module store/postgres/pg-oauth-store
 * {@link OAuthStore} on PostgreSQL. The exactly-once steps are conditional statements whose row
 * lock decides at READ COMMITTED: a code is spent by `UPDATE … WHERE used_at IS NULL RETURNING`;
 * a refresh token is rotated by `UPDATE … WHERE rotated_at IS NULL RETURNING` in the transaction
 * that stores its successors; a grant is created while holding its code's row lock, so a reuse of
 * the code either comes first (the grant is stored revoked) or waits and then sees the grant
 * (and the caller revokes it). A per-source cap counts and inserts in one transaction holding a
 * transaction-level advisory lock of the source, so concurrent requests on every instance cannot
 * pass it.
 */

import type pg from 'pg';

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
import { type PgDatabase, Rollback } from './pg-database.js';

interface ClientRow {
  id: string;
  secretHash: Buffer | null;
  authMethod: ClientAuthMethod;
  redirectUris: string[];
  grantTypes: string[];
  name: string | null;
  metadata: Record<string, unknown>;
  createdAt: number;
}

interface CodeRow {
  hash: Buffer;
  clientId: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  resource: string;
  scope: string;
  subjectKind: OAuthSubject['kind'];
  subjectId: string;
  expiresAt: number;
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

const PENDING_COLUMNS = `hash, client_id AS "clientId", redirect_uri AS "redirectUri",
  redirect_uri_given AS "redirectUriGiven", code_challenge AS "codeChallenge", state, resource,
  scope, csrf_hash AS "csrfHash", expires_at AS "expiresAt", failed_attempts AS "failedAttempts"`;

const CODE_COLUMNS = `hash, client_id AS "clientId", redirect_uri AS "redirectUri",
  redirect_uri_given AS "redirectUriGiven", code_challenge AS "codeChallenge", resource, scope,
  subject_kind AS "subjectKind", subject_id AS "subjectId", expires_at AS "expiresAt"`;

const GRANT_COLUMNS = `g.id, g.client_id AS "clientId", g.subject_kind AS "subjectKind",
  g.subject_id AS "subjectId", g.resource, g.scope, g.created_at AS "createdAt",
  g.revoked_at AS "revokedAt"`;

const SELECT_TOKEN = `SELECT t.kind, t.expires_at AS "expiresAt", t.rotated_at AS "rotatedAt",
  ${GRANT_COLUMNS} FROM oauth_tokens AS t JOIN oauth_grants AS g ON g.id = t.grant_id
  WHERE t.hash = $1`;

const INSERT_CLIENT = `INSERT INTO oauth_clients (id, secret_hash, auth_method, redirect_uris,
  grant_types, name, metadata, created_at, source_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

function clientParams(client: OAuthClientRecord, sourceHash: Buffer | null): unknown[] {
  return [
    client.id,
    client.secretHash,
    client.authMethod,
    JSON.stringify(client.redirectUris),
    JSON.stringify(client.grantTypes),
    client.name,
    JSON.stringify(client.metadata),
    client.createdAt,
    sourceHash,
  ];
}

function toPending(row: PendingAuthorizationRecord): PendingAuthorizationRecord {
  return {
    hash: row.hash,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    redirectUriGiven: row.redirectUriGiven,
    codeChallenge: row.codeChallenge,
    state: row.state,
    resource: row.resource,
    scope: row.scope,
    csrfHash: row.csrfHash,
    expiresAt: row.expiresAt,
    failedAttempts: row.failedAttempts,
  };
}

function toCode(row: CodeRow): AuthorizationCodeRecord {
  return {
    hash: row.hash,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    redirectUriGiven: row.redirectUriGiven,
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

async function insertTokens(
  client: pg.PoolClient,
  grantId: string,
  at: number,
  tokens: IssuedTokenHashes,
): Promise<void> {
  const issued = tokens.refresh === null ? [tokens.access] : [tokens.access, tokens.refresh];
  await client.query(
    `INSERT INTO oauth_tokens (hash, kind, grant_id, created_at, expires_at)
      SELECT h, k, $3, $4, e FROM unnest($1::bytea[], $2::text[], $5::bigint[]) AS t (h, k, e)`,
    [
      issued.map((t) => t.hash),
      issued.map((_, i) => (i === 0 ? 'access' : 'refresh')),
      grantId,
      at,
      issued.map((t) => t.expiresAt),
    ],
  );
}

/**
 * First key of the advisory locks of per-source caps (the two-key form, a key space apart from
 * the migration lock's single bigint): an arbitrary constant of this application.
 */
const SOURCE_LOCK_CLASS = 0x6c67_6f61; // "lgoa"

/** Serialize the capped inserts of one source until the transaction ends. */
async function lockSource(client: pg.PoolClient, sourceHash: Buffer): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [
    SOURCE_LOCK_CLASS,
    sourceHash.readInt32BE(0),
  ]);
}

/** What {@link OAuthStore.savePendingAuthorization} prunes, in the caller's transaction. */
async function prune(client: pg.PoolClient, now: number): Promise<void> {
  await client.query('DELETE FROM oauth_pending WHERE expires_at <= $1', [now]);
  await client.query('DELETE FROM oauth_codes WHERE expires_at <= $1', [now - CODE_RETENTION_MS]);
  await client.query('DELETE FROM oauth_tokens WHERE expires_at <= $1', [now]);
  await client.query(
    `UPDATE oauth_clients SET source_hash = NULL
      WHERE source_hash IS NOT NULL AND created_at <= $1`,
    [now - REGISTRATION_SOURCE_WINDOW_MS],
  );
  // Never authorized, nothing pending or issued: abandoned (the indexes of migration 003).
  await client.query(
    `DELETE FROM oauth_clients AS c
      WHERE c.authorized_at IS NULL AND c.created_at <= $1
        AND NOT EXISTS (SELECT 1 FROM oauth_pending AS p WHERE p.client_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM oauth_codes AS o WHERE o.client_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM oauth_grants AS g WHERE g.client_id = c.id)`,
    [now - ABANDONED_REGISTRATION_TTL_MS],
  );
}

export class PgOAuthStore implements OAuthStore {
  constructor(private readonly db: PgDatabase) {}

  async registerClient(client: OAuthClientRecord): Promise<void> {
    await this.db.query(INSERT_CLIENT, clientParams(client, null));
  }

  async registerClientFromSource(
    client: OAuthClientRecord,
    cap: SourceCap,
    now: number,
  ): Promise<CappedInsert> {
    requireInteger('cap.max', cap.max, 1);
    return this.db.transaction(async (tx) => {
      await lockSource(tx, cap.sourceHash);
      await prune(tx, now);
      const { rows } = await tx.query<{ live: string; oldest: string | null }>(
        `SELECT count(*) AS live, min(created_at) AS oldest FROM oauth_clients
          WHERE source_hash = $1 AND created_at > $2`,
        [cap.sourceHash, now - REGISTRATION_SOURCE_WINDOW_MS],
      );
      const seen = rows[0];
      if (seen !== undefined && Number(seen.live) >= cap.max) {
        const oldest = seen.oldest === null ? now : Number(seen.oldest);
        return { ok: false, retryAt: oldest + REGISTRATION_SOURCE_WINDOW_MS } as const;
      }
      await tx.query(INSERT_CLIENT, clientParams(client, cap.sourceHash));
      return { ok: true } as const;
    });
  }

  async findClient(id: string): Promise<OAuthClientRecord | null> {
    const { rows } = await this.db.query<ClientRow>(
      `SELECT id, secret_hash AS "secretHash", auth_method AS "authMethod",
        redirect_uris AS "redirectUris", grant_types AS "grantTypes", name, metadata,
        created_at AS "createdAt" FROM oauth_clients WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return null;
    return {
      id: row.id,
      secretHash: row.secretHash,
      authMethod: row.authMethod,
      redirectUris: row.redirectUris,
      grantTypes: row.grantTypes,
      name: row.name,
      metadata: row.metadata,
      createdAt: row.createdAt,
    };
  }

  async savePendingAuthorization(
    pending: PendingAuthorizationRecord,
    now: number,
    cap?: SourceCap,
  ): Promise<CappedInsert> {
    if (cap !== undefined) requireInteger('cap.max', cap.max, 1);
    return this.db.transaction(async (client) => {
      if (cap !== undefined) await lockSource(client, cap.sourceHash);
      await prune(client, now);
      if (cap !== undefined) {
        const { rows } = await client.query<{ live: string; first: string | null }>(
          `SELECT count(*) AS live, min(expires_at) AS first FROM oauth_pending
            WHERE source_hash = $1 AND expires_at > $2`,
          [cap.sourceHash, now],
        );
        const seen = rows[0];
        if (seen !== undefined && Number(seen.live) >= cap.max) {
          return { ok: false, retryAt: seen.first === null ? now : Number(seen.first) } as const;
        }
      }
      await client.query(
        `INSERT INTO oauth_pending (hash, client_id, redirect_uri, redirect_uri_given,
          code_challenge, state, resource, scope, csrf_hash, expires_at, failed_attempts,
          source_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          pending.hash,
          pending.clientId,
          pending.redirectUri,
          pending.redirectUriGiven,
          pending.codeChallenge,
          pending.state,
          pending.resource,
          pending.scope,
          pending.csrfHash,
          pending.expiresAt,
          pending.failedAttempts,
          cap?.sourceHash ?? null,
        ],
      );
      return { ok: true } as const;
    });
  }

  async findPendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null> {
    const { rows } = await this.db.query<PendingAuthorizationRecord>(
      `SELECT ${PENDING_COLUMNS} FROM oauth_pending WHERE hash = $1`,
      [hash],
    );
    return rows[0] === undefined ? null : toPending(rows[0]);
  }

  async countFailedAttempt(hash: Buffer): Promise<number> {
    const { rows } = await this.db.query<{ failedAttempts: number }>(
      `UPDATE oauth_pending SET failed_attempts = failed_attempts + 1 WHERE hash = $1
        RETURNING failed_attempts AS "failedAttempts"`,
      [hash],
    );
    return rows[0]?.failedAttempts ?? 0;
  }

  async takePendingAuthorization(hash: Buffer): Promise<PendingAuthorizationRecord | null> {
    const { rows } = await this.db.query<PendingAuthorizationRecord>(
      `DELETE FROM oauth_pending WHERE hash = $1 RETURNING ${PENDING_COLUMNS}`,
      [hash],
    );
    return rows[0] === undefined ? null : toPending(rows[0]);
  }

  async saveCode(code: AuthorizationCodeRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO oauth_codes (hash, client_id, redirect_uri, redirect_uri_given,
        code_challenge, resource, scope, subject_kind, subject_id, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        code.hash,
        code.clientId,
        code.redirectUri,
        code.redirectUriGiven,
        code.codeChallenge,
        code.resource,
        code.scope,
        code.subject.kind,
        code.subject.id,
        code.expiresAt,
      ],
    );
  }

  async redeemCode(hash: Buffer, at: number): Promise<CodeRedemption> {
    const spent = await this.db.query<CodeRow>(
      `UPDATE oauth_codes SET used_at = $2 WHERE hash = $1 AND used_at IS NULL
        RETURNING ${CODE_COLUMNS}`,
      [hash, at],
    );
    if (spent.rows[0] !== undefined) return { status: 'first_use', code: toCode(spent.rows[0]) };
    // Spent before: mark the reuse. If a grant is being created from the code right now, this
    // waits for its row lock and then returns the grant's id, which the caller revokes.
    const reused = await this.db.query<{ grantId: string | null }>(
      `UPDATE oauth_codes SET reused_at = coalesce(reused_at, $2) WHERE hash = $1
        RETURNING grant_id AS "grantId"`,
      [hash, at],
    );
    const row = reused.rows[0];
    return row === undefined ? { status: 'unknown' } : { status: 'reused', grantId: row.grantId };
  }

  createGrant(
    grant: OAuthGrantRecord,
    tokens: IssuedTokenHashes,
    codeHash: Buffer,
  ): Promise<boolean> {
    return this.db.transaction(async (client) => {
      // Lock the code's row first: a concurrent reuse either committed before (then reused_at is
      // set and the grant is stored revoked, RFC 6749 §4.1.2) or waits until this commits.
      const code = await client.query<{ reusedAt: number | null }>(
        `SELECT reused_at AS "reusedAt" FROM oauth_codes WHERE hash = $1 FOR UPDATE`,
        [codeHash],
      );
      const revokedAt = code.rows[0]?.reusedAt ?? null;
      await client.query(
        `INSERT INTO oauth_grants (id, client_id, subject_kind, subject_id, resource, scope,
          created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          grant.id,
          grant.clientId,
          grant.subject.kind,
          grant.subject.id,
          grant.resource,
          grant.scope,
          grant.createdAt,
          revokedAt,
        ],
      );
      await client.query('UPDATE oauth_codes SET grant_id = $1 WHERE hash = $2', [
        grant.id,
        codeHash,
      ]);
      await client.query(
        'UPDATE oauth_clients SET authorized_at = coalesce(authorized_at, $1) WHERE id = $2',
        [grant.createdAt, grant.clientId],
      );
      if (revokedAt !== null) return false;
      await insertTokens(client, grant.id, grant.createdAt, tokens);
      return true;
    });
  }

  async findToken(hash: Buffer): Promise<OAuthTokenRecord | null> {
    const { rows } = await this.db.query<TokenRow>(SELECT_TOKEN, [hash]);
    const row = rows[0];
    if (row === undefined) return null;
    return {
      kind: row.kind,
      expiresAt: row.expiresAt,
      rotatedAt: row.rotatedAt,
      grant: toGrant(row),
    };
  }

  rotateRefreshToken(
    hash: Buffer,
    at: number,
    tokens: IssuedTokenHashes,
  ): Promise<RefreshRotation> {
    return this.db.transaction(async (client) => {
      const rotated = await client.query<GrantRow>(
        `UPDATE oauth_tokens AS t SET rotated_at = $2 FROM oauth_grants AS g
          WHERE t.hash = $1 AND t.kind = 'refresh' AND t.rotated_at IS NULL AND t.expires_at > $2
            AND g.id = t.grant_id AND g.revoked_at IS NULL
          RETURNING ${GRANT_COLUMNS}`,
        [hash, at],
      );
      const grant = rotated.rows[0];
      if (grant !== undefined) {
        await insertTokens(client, grant.id, at, tokens);
        return { status: 'rotated', grant: toGrant(grant) } satisfies RefreshRotation;
      }
      // Nothing rotated; this read only tells a reuse (the caller revokes the grant) from junk.
      const { rows } = await client.query<TokenRow>(SELECT_TOKEN, [hash]);
      const row = rows[0];
      if (row?.kind === 'refresh' && row.rotatedAt !== null) {
        return new Rollback<RefreshRotation>({ status: 'reused', grantId: row.id });
      }
      return new Rollback<RefreshRotation>({ status: 'invalid' });
    });
  }

  async revokeGrant(grantId: string, at: number): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query(
        'UPDATE oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
        [grantId, at],
      );
      // A revoked grant's tokens are useless; deleting them keeps look-ups and the table small.
      await client.query('DELETE FROM oauth_tokens WHERE grant_id = $1', [grantId]);
    });
  }
}
