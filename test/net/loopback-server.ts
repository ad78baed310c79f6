/**
 * A test HTTP(S) server on 127.0.0.1 (and ::1 on the same port, for HTTP) with the routes the
 * outbound-client tests need. It counts TCP connections on both addresses, so a test can assert
 * that a refused URL never reached it, and records every request.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';

import type { TestCertificate } from './self-signed-cert.js';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** TLS server name (SNI) the client sent; undefined over plain HTTP. */
  servername: string | undefined;
}

/** What `/stream-large` managed to send before the client went away. */
export interface StreamRecord {
  written: number;
  finished: boolean;
  /** Resolves when the response is closed (finished, or the client disconnected). */
  closed: Promise<void>;
}

export interface LoopbackServer {
  port: number;
  /** True when the same port is also served on ::1. */
  ipv6: boolean;
  /** TCP connections accepted so far, both addresses. */
  readonly connections: number;
  readonly requests: readonly RecordedRequest[];
  /** One record per `/stream-large` request. */
  readonly streams: readonly StreamRecord[];
  /** Resolves when a response of `/announced-large` has been closed by the client. */
  announcedClosed: () => Promise<void>;
  close: () => Promise<void>;
}

/** Bytes `/stream-large` would send if never stopped (64 MiB). */
export const STREAM_TOTAL_BYTES = 64 * 1024 * 1024;
/** `Content-Length` announced by `/announced-large` (10 MB; no byte of it is ever sent). */
export const ANNOUNCED_BYTES = 10_000_000;

/**
 * Routes: `/ok` (200 "hello", `X-Test: Yes`); `/redirect?to=URL&status=302`; `/loop` (302 to
 * itself); `/echo` (200 JSON of method and body); `/see-other` (303 → /echo); `/temporary`
 * (307 → /echo); `/announced-large` (Content-Length 10 MB, then silence); `/stream-large`
 * (chunked, up to 64 MiB, following backpressure); `/stall` (never answers); `/stall-body`
 * (headers and 10 of 100 bytes, then silence); `/hangup` (closes the socket without answering);
 * `/short-body` (10 of 100 announced bytes, then closes); `/huge-header` (a 64 KiB header); `/gzip` (a gzip-encoded body, sent whatever the
 * request's Accept-Encoding says).
 */
export async function startLoopbackServer(
  options: { tls?: TestCertificate } = {},
): Promise<LoopbackServer> {
  let connections = 0;
  const requests: RecordedRequest[] = [];
  const streams: StreamRecord[] = [];
  const announced: Promise<void>[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        servername: servernameOf(req.socket),
      });
      route(req, res, Buffer.concat(chunks).toString(), streams, announced);
    });
  };

  const servers: (HttpServer | HttpsServer)[] = [];
  const primary =
    options.tls === undefined ? createHttpServer(handler) : createHttpsServer(options.tls, handler);
  servers.push(primary);
  await listen(primary, 0, '127.0.0.1');
  const port = (primary.address() as AddressInfo).port;

  let ipv6 = false;
  if (options.tls === undefined) {
    const secondary = createHttpServer(handler);
    try {
      await listen(secondary, port, '::1');
      servers.push(secondary);
      ipv6 = true;
    } catch {
      // No IPv6 loopback here: the [::1] cases still run (they must be refused before connecting).
    }
  }
  for (const server of servers) {
    // TCP connections, so a TLS handshake the client aborts counts too.
    server.on('connection', () => {
      connections += 1;
    });
  }

  return {
    port,
    ipv6,
    get connections() {
      return connections;
    },
    requests,
    streams,
    announcedClosed: async () => {
      await Promise.all(announced);
    },
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => {
                resolve();
              });
            }),
        ),
      );
    },
  };
}

function servernameOf(socket: Socket): string | undefined {
  if (!(socket instanceof TLSSocket)) return undefined;
  const name: unknown = socket.servername;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  streams: StreamRecord[],
  announced: Promise<void>[],
): void {
  const url = new URL(req.url ?? '/', 'http://loopback.invalid');
  switch (url.pathname) {
    case '/ok':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Test': 'Yes' }).end('hello');
      return;
    case '/redirect':
      res
        .writeHead(Number(url.searchParams.get('status') ?? '302'), {
          Location: url.searchParams.get('to') ?? '/ok',
        })
        .end();
      return;
    case '/loop':
      res.writeHead(302, { Location: '/loop' }).end();
      return;
    case '/echo':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, body }));
      return;
    case '/see-other':
      res.writeHead(303, { Location: '/echo' }).end('see other');
      return;
    case '/temporary':
      res.writeHead(307, { Location: '/echo' }).end();
      return;
    case '/announced-large':
      res.writeHead(200, { 'Content-Length': String(ANNOUNCED_BYTES) });
      res.flushHeaders();
      announced.push(new Promise((resolve) => res.once('close', resolve)));
      return;
    case '/stream-large':
      streams.push(streamLarge(res));
      return;
    case '/stall':
      return;
    case '/stall-body':
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('0123456789');
      return;
    case '/hangup':
      req.socket.destroy();
      return;
    case '/short-body':
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('0123456789', () => req.socket.destroy());
      return;
    case '/huge-header':
      res.writeHead(200, { 'X-Huge': 'h'.repeat(64 * 1024) }).end();
      return;
    case '/gzip':
      res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync('hello'));
      return;
    default:
      res.writeHead(404).end('not found');
  }
}

function streamLarge(res: ServerResponse): StreamRecord {
  const chunk = Buffer.alloc(16 * 1024, 'x');
  let closedResolve: () => void = () => undefined;
  const record: StreamRecord = {
    written: 0,
    finished: false,
    closed: new Promise((resolve) => (closedResolve = resolve)),
  };
  res.once('close', () => {
    closedResolve();
  });
  res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
  const pump = (): void => {
    while (!res.destroyed && record.written < STREAM_TOTAL_BYTES) {
      record.written += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) {
      record.finished = true;
      res.end();
    }
  };
  pump();
  return record;
}
