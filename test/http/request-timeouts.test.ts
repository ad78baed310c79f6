/**
 * Slow clients are bounded (issue 14, finding 7): a real server on loopback, raw TCP sockets.
 * Headers then silence, a body trickled byte by byte, headers trickled line by line, and an idle
 * keep-alive connection are each ended at the configured bound (408 when a request was under
 * way), and 600 slow clients at once do not keep the server from answering others. The bounds
 * are configured small so the tests are quick; each wait is capped far above them.
 */
import { connect, type Socket } from 'node:net';

import { request } from 'undici';
import { describe, expect, it } from 'vitest';

import { useTestApp } from '../helpers/test-app.js';

/** How a raw exchange ended. */
interface Ending {
  /** Everything the server sent. */
  received: string;
  /** True when the server closed the connection before the cap. */
  closedByServer: boolean;
}

/** Far above every configured bound here: reaching it means the server did not close. */
const CAP_MS = 8000;

/**
 * Open a socket, let `talk` write to it, and wait until the server closes it (or the cap).
 */
function exchange(
  port: number,
  talk: (socket: Socket, stop: () => boolean) => void,
): Promise<Ending> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let done = false;
    const cap = setTimeout(() => {
      done = true;
      socket.destroy();
      resolve({ received, closedByServer: false });
    }, CAP_MS);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (done) return;
      done = true;
      clearTimeout(cap);
      resolve({ received, closedByServer: true });
    });
    socket.on('connect', () => {
      talk(socket, () => done);
    });
  });
}

/** Write `piece` every `everyMs` until the exchange ends. */
function drip(socket: Socket, stop: () => boolean, piece: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (stop() || socket.destroyed) clearInterval(timer);
    else socket.write(piece);
  }, everyMs);
}

const POST_HEAD =
  'POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n';

describe('request timeouts', { timeout: 30_000 }, () => {
  const start = useTestApp({
    env: {
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '600',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    },
  });

  async function listening(env: Record<string, string> = {}): Promise<number> {
    const { app } = await start({ env });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  it('headers, then silence: 408 and the connection is closed', async () => {
    const port = await listening();
    const ending = await exchange(port, (socket) => socket.write(POST_HEAD));
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a body trickled one byte at a time: 408 and closed at the request bound', async () => {
    const port = await listening();
    const ending = await exchange(port, (socket, stop) => {
      socket.write(POST_HEAD);
      drip(socket, stop, ' ', 100);
    });
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('headers trickled line by line: closed at the headers bound', async () => {
    const port = await listening();
    const ending = await exchange(port, (socket, stop) => {
      socket.write('GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      drip(socket, stop, 'X-Slow: 1\r\n', 50);
    });
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('a connection that never sends a byte is closed', async () => {
    const port = await listening();
    const ending = await exchange(port, () => undefined);
    expect(ending.closedByServer).toBe(true);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const port = await listening();
    const ending = await exchange(port, (socket) =>
      socket.write('GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    );
    expect(ending.closedByServer).toBe(true);
    expect(ending.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(ending.received).toMatch(/keep-alive/i);
  });

  it('600 slow clients: others are still served, and every slow one is closed', async () => {
    const port = await listening({
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
    });
    let connected = 0;
    const slow = Array.from({ length: 600 }, () =>
      exchange(port, (socket) => {
        connected += 1;
        socket.write(POST_HEAD);
      }),
    );
    await expect.poll(() => connected, { timeout: CAP_MS }).toBe(600);
    for (let i = 0; i < 20; i += 1) {
      const response = await request(`http://127.0.0.1:${port}/v1/status`, {
        signal: AbortSignal.timeout(CAP_MS),
      });
      expect(response.statusCode).toBe(200);
      await response.body.arrayBuffer();
    }
    const endings = await Promise.all(slow);
    expect(endings.filter((e) => e.closedByServer)).toHaveLength(600);
    expect(endings.filter((e) => e.received.startsWith('HTTP/1.1 408 '))).toHaveLength(600);
  });
});
