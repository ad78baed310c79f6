/**
 * `linkguard serve` shuts down within a bound whatever happens to its log destination, and
 * still drains requests in flight (issue 14, finding 8). The real built server is spawned
 * (`npm run build` first: bin/linkguard.js imports dist/) with stdout on a pipe.
 *
 * The stalled pipe: the test stops reading stdout, makes the server log more than a pipe holds
 * (one line per request), sends SIGTERM, then closes its reading end. Before the fix pino's
 * exit flush retried the failed write for ever and the process never exited.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

import { afterEach, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT } from '../helpers/run-cli.js';

type Server = ChildProcessByStdio<null, Readable, Readable>;

/** Far above the shutdown deadline (8 s) plus the log flush (0.5 s). */
const EXIT_CAP_MS = 20_000;

const running: Server[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Spawn `node bin/linkguard.js serve` on a random port; resolves once it listens. A port another
 * test's server took meanwhile makes serve exit 3 (address in use): then another port is tried,
 * up to three times.
 */
async function serve(): Promise<{ child: Server; port: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await serveOnce();
    } catch (error) {
      if (attempt === 3 || !(error instanceof ServeExit) || error.code !== 3) throw error;
    }
  }
}

/** serve exited before listening, with its exit code. */
class ServeExit extends Error {
  constructor(
    readonly code: number | null,
    output: string,
  ) {
    super(`server exited with ${String(code)} before listening: ${output}`);
  }
}

async function serveOnce(): Promise<{ child: Server; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-serve-'));
  dirs.push(dir);
  const port = 20_000 + Math.floor(Math.random() * 30_000);
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'linkguard.js'), 'serve'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
      PAGE_ANALYSIS: 'off',
      RDAP_ENABLED: 'false',
    },
  });
  running.push(child);
  child.stderr.resume();
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.includes('linkguard listening')) {
        child.stdout.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      reject(new ServeExit(code, seen));
    });
  });
  return { child, port };
}

/** Resolves with the exit code, or 'running' when the process is still alive at the cap. */
function exitOf(child: Server): Promise<number | string> {
  return new Promise((resolve) => {
    const cap = setTimeout(() => {
      resolve('running');
    }, EXIT_CAP_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(cap);
      resolve(code ?? String(signal));
    });
  });
}

function get(port: number, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path: '/v1/status', agent }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('linkguard serve: shutdown', { timeout: 60_000 }, () => {
  it('exits within the bound when its stdout pipe stalls and then closes during shutdown', async () => {
    const { child, port } = await serve();
    child.stdout.pause();
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    // ~300 bytes of request log per request: far more than a 64 KiB pipe holds.
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 80 }, () => get(port, agent)));
    }
    agent.destroy();
    const exited = exitOf(child);
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.stdout.destroy();
    expect(await exited).not.toBe('running');
  });

  it('SIGTERM lets a request in flight finish, then exits 0', async () => {
    const { child, port } = await serve();
    child.stdout.resume();
    const body = JSON.stringify({ url: 'https://example.com/' });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers and half the body: the request is in flight when the signal arrives.
    socket.write(
      `POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = exitOf(child);
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(body.slice(10));
    await closed;
    // No payment: the payment challenge, answered in full.
    expect(answer).toMatch(/^HTTP\/1\.1 402 /);
    expect(await exited).toBe(0);
  });
});
