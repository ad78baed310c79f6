/**
 * The SQLite {@link OAuthStore}: the OAuth store contract on a real file with two connections
 * (`oauth-store-contract.ts`), and, after a whole HTTP flow, neither the database file nor its
 * WAL holds any raw secret: token, code, client secret, license, CSRF token or request id.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

import { hashSecret } from '../../src/access/api-key.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { createPremiumLicense, startListeningApp } from '../helpers/oauth-app.js';
import { pkcePair } from '../helpers/oauth-http.js';
import { openAuthorizationPage, submitAuthorizationForm } from '../helpers/scripted-browser.js';
import { useTestApp } from '../helpers/test-app.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { describeOAuthStore } from './oauth-store-contract.js';
const sqliteFiles = useTempDir('linkguard-oauth-store-');
let sqliteFileCount = 0;

describeOAuthStore('SQLite', () => {
  sqliteFileCount += 1;
  const path = join(sqliteFiles(), `oauth-${String(sqliteFileCount)}.db`);
  const a = openSqliteStore(path);
  const b = openSqliteStore(path);
  return Promise.resolve({
    a,
    b,
    revokedAtOf: (grantId: string) => {
      const db = new Database(path, { readonly: true });
      try {
        const row = db
          .prepare<[string], number | null>('SELECT revoked_at FROM oauth_grants WHERE id = ?')
          .pluck()
          .get(grantId);
        return Promise.resolve(row ?? null);
      } finally {
        db.close();
      }
    },
    close: async () => {
      await a.close();
      await b.close();
    },
  });
});

describe('no raw secret reaches the SQLite file or its WAL', { timeout: 20_000 }, () => {
  const start = useTestApp();
  const CALLBACK = 'http://127.0.0.1:6276/oauth/callback';

  it('after registration, sign-in, code exchange and refresh, only hashes are stored', async () => {
    const { ctx, base } = await startListeningApp(start);
    const license = await createPremiumLicense(ctx.store, ctx.clock.now());

    const registration = await request(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        client_name: 'confidential test client',
      }),
    });
    expect(registration.statusCode).toBe(201);
    const registered = (await registration.body.json()) as {
      client_id: string;
      client_secret: string;
      token_endpoint_auth_method: string;
    };
    expect(registered.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(registered.client_secret).toMatch(/^mcp_cs_[0-9A-Za-z]{43}$/);

    const pkce = pkcePair();
    const form = await openAuthorizationPage(
      `${base}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: registered.client_id,
        redirect_uri: CALLBACK,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        state: 'state-1',
      }).toString()}`,
    );
    const requestId = form.fields.request_id ?? '';
    const csrf = form.fields.csrf_token ?? '';
    expect(requestId).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(csrf).toMatch(/^[0-9A-Za-z]{43}$/);
    const submitted = await submitAuthorizationForm(form, license.raw);
    expect(submitted.status).toBe(303);
    const code = new URL(submitted.location ?? '').searchParams.get('code') ?? '';
    expect(code).toMatch(/^mcp_ac_[0-9A-Za-z]{43}$/);

    const basic = Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString(
      'base64',
    );
    const exchange = await request(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: pkce.verifier,
      }).toString(),
    });
    expect(exchange.statusCode).toBe(200);
    const first = (await exchange.body.json()) as { access_token: string; refresh_token: string };

    const refreshed = await request(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: registered.client_id,
        client_secret: registered.client_secret,
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    const second = (await refreshed.body.json()) as { access_token: string; refresh_token: string };

    const wal = `${ctx.dbPath}-wal`;
    expect(existsSync(wal)).toBe(true);
    const bytes = Buffer.concat([readFileSync(ctx.dbPath), readFileSync(wal)]);

    const secrets: Record<string, string> = {
      'first access token': first.access_token,
      'first refresh token': first.refresh_token,
      'second access token': second.access_token,
      'second refresh token': second.refresh_token,
      'authorization code': code,
      'client secret': registered.client_secret,
      license: license.raw,
      'CSRF token': csrf,
      'request id': requestId,
      'PKCE verifier': pkce.verifier,
    };
    const leaked = Object.entries(secrets)
      .filter(([, raw]) => bytes.includes(raw))
      .map(([name]) => name);
    expect(leaked).toEqual([]);

    // The files were read while they hold the flow: the public client id and the hashes of the
    // live secrets are there, so the check above looked at the right bytes.
    expect(bytes.includes(registered.client_id)).toBe(true);
    for (const raw of [
      second.access_token,
      second.refresh_token,
      code,
      registered.client_secret,
      license.raw,
    ]) {
      expect(bytes.includes(hashSecret(raw))).toBe(true);
    }
  });
});
