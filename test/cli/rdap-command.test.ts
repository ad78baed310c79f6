/**
 * `linkguard rdap update-bootstrap` and `linkguard rdap lookup`, run in process (the lead registers
 * the command in main.ts) against a loopback server reached through NET_RESOLVE, the way an
 * operator's test setup would. The bootstrap is always written to a temp copy, never to data/.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { rdapCommand, type RdapCommandOptions } from '../../src/cli/commands/rdap-command.js';
import { createRdapBootstrap, rdapDataDirectory } from '../../src/intel/rdap/rdap-bootstrap.js';
import {
  type ScriptedResponse,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-http-server.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 24 * 60 * 60 * 1000;
const REAL_BOOTSTRAP = readFileSync(join(rdapDataDirectory(), 'dns.json'), 'utf8');
/** The shipped registry with a newer publication date: what IANA would serve next. */
const NEWER_BOOTSTRAP = REAL_BOOTSTRAP.replace(
  '"publication": "2026-06-26T18:00:02Z"',
  '"publication": "2026-11-19T20:00:01Z"',
);

const FILES: Record<string, ScriptedResponse> = {
  '/rdap/dns.json': {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: NEWER_BOOTSTRAP,
  },
  '/rdap/not-json': { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' },
  '/rdap/truncated': {
    status: 200,
    body: JSON.stringify({ publication: 'x', services: [[['com'], ['https://r.example/']]] }),
  },
  '/rdap/error': { status: 500, body: 'oops' },
  '/domain/fresh.example': {
    status: 200,
    headers: { 'content-type': 'application/rdap+json' },
    body: JSON.stringify({
      objectClassName: 'domain',
      ldhName: 'fresh.example',
      events: [{ eventAction: 'registration', eventDate: new Date(NOW - 4 * DAY).toISOString() }],
    }),
  },
};

let server: ScriptedServer;
let base: string;
let dir: string;
let out: string;
let stdout: string[];
let stderr: string[];

beforeAll(async () => {
  server = await startScriptedServer((r) => FILES[r.path] ?? { status: 404, body: '' });
  base = `http://rdap.test.example:${server.port}`;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-rdap-'));
  out = join(dir, 'dns.json');
  copyFileSync(join(rdapDataDirectory(), 'dns.json'), out);
  stdout = [];
  stderr = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    stdout.push(args.join(' '));
  });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    stderr.push(args.join(' '));
  });
  vi.stubEnv('NET_RESOLVE', `rdap.test.example:${server.port}:127.0.0.1`);
  vi.stubEnv('NO_COLOR', '1');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[], options: RdapCommandOptions = {}): Promise<number> {
  process.exitCode = undefined;
  await rdapCommand({ clock: { now: () => NOW }, ...options })
    .exitOverride()
    .parseAsync(args, { from: 'user' });
  return exitCode();
}

/** Read outside `run` so the compiler does not narrow it to the `undefined` set before. */
function exitCode(): number {
  return Number(process.exitCode ?? 0);
}

describe('rdap update-bootstrap', { timeout: 15_000 }, () => {
  it('replaces the file with a valid download, byte for byte', async () => {
    const code = await run(['update-bootstrap', '--url', `${base}/rdap/dns.json`, '--out', out]);
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(NEWER_BOOTSTRAP);
    expect(stdout.join('\n')).toContain(
      'publication 2026-11-19T20:00:01Z (was 2026-06-26T18:00:02Z), 1199 TLDs',
    );
    expect(readdirSync(dir)).toEqual(['dns.json']); // no temp file left behind
  });

  it.each([
    ['a body that is not JSON', '/rdap/not-json', 'not JSON'],
    ['a truncated registry', '/rdap/truncated', 'only 1 TLDs'],
    ['an HTTP error', '/rdap/error', 'HTTP 500'],
  ])('keeps the old file and exits 1 on %s', async (_label, path, message) => {
    const code = await run(['update-bootstrap', '--url', `${base}${path}`, '--out', out]);
    expect(code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe(REAL_BOOTSTRAP);
    expect(stderr.join('\n')).toContain(message);
    expect(stderr.join('\n')).toContain('unchanged');
    expect(readdirSync(dir)).toEqual(['dns.json']);
  });

  it('refuses a URL the SSRF-safe client blocks (loopback without an override)', async () => {
    const code = await run([
      'update-bootstrap',
      '--url',
      `http://127.0.0.1:${server.port}/rdap/dns.json`,
      '--out',
      out,
    ]);
    expect(code).toBe(1);
    expect(stderr.join('\n')).toContain('blocked_address');
    expect(readFileSync(out, 'utf8')).toBe(REAL_BOOTSTRAP);
  });
});

describe('rdap lookup', { timeout: 15_000 }, () => {
  const loopbackBootstrap = () =>
    createRdapBootstrap({
      publication: '2026-11-01T00:00:00Z',
      services: [[['example'], [`${base}/`]]],
    });

  it('prints the registration date and age', async () => {
    const code = await run(['lookup', 'fresh.example'], { loadBootstrap: loopbackBootstrap });
    expect(code).toBe(0);
    expect(stdout.join('\n')).toContain('fresh.example: registration 2026-11-16, 4 days ago');
  });

  it('prints JSON with --json', async () => {
    const code = await run(['lookup', 'fresh.example', '--json'], {
      loadBootstrap: loopbackBootstrap,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout.join('\n'))).toEqual({
      domain: 'fresh.example',
      server: `${base}/`,
      status: 'known',
      registeredAt: NOW - 4 * DAY,
      ageDays: 4,
      basis: 'registration',
    });
  });

  it('exits 1 for a TLD without an RDAP server (shipped bootstrap, no request)', async () => {
    const before = server.requests.length;
    expect(await run(['lookup', 'example.jp'])).toBe(1);
    expect(stdout.join('\n')).toContain('example.jp: age unknown (no_rdap_server)');
    expect(server.requests.length).toBe(before);
  });

  it('reports .gov as old by policy', async () => {
    expect(await run(['lookup', 'whitehouse.gov'])).toBe(0);
    expect(stdout.join('\n')).toContain('old by policy');
  });

  it('makes no request when RDAP_ENABLED=false', async () => {
    vi.stubEnv('RDAP_ENABLED', 'false');
    const before = server.requests.length;
    const code = await run(['lookup', 'fresh.example'], { loadBootstrap: loopbackBootstrap });
    expect(code).toBe(1);
    expect(stdout.join('\n')).toContain('age unknown (disabled)');
    expect(server.requests.length).toBe(before);
  });
});
