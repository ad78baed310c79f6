/**
 * A plain-HTTP server on 127.0.0.1 whose answers a test scripts per request, for clients of
 * external HTTP APIs (RDAP registries, Google Web Risk). Tests reach it through the SSRF-safe client
 * with a resolve override mapping a test host name (`rdap.test.example`) to 127.0.0.1. A handler
 * may return a promise to hold the answer (a stalled server) until the test releases it.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  /** Path without the query. */
  path: string;
  /** Raw query string without `?` (empty when none). */
  query: string;
  headers: IncomingMessage['headers'];
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type ScriptedHandler = (
  request: ScriptedRequest,
) => ScriptedResponse | Promise<ScriptedResponse>;

export interface ScriptedServer {
  port: number;
  /** Every request received, in order. */
  readonly requests: readonly ScriptedRequest[];
  close: () => Promise<void>;
}

/** Start the server on an ephemeral port of 127.0.0.1. */
export async function startScriptedServer(handler: ScriptedHandler): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const request: ScriptedRequest = {
      method: req.method ?? '',
      url,
      path: mark < 0 ? url : url.slice(0, mark),
      query: mark < 0 ? '' : url.slice(mark + 1),
      headers: req.headers,
    };
    requests.push(request);
    void Promise.resolve(handler(request)).then(
      (answer) => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      },
      () => {
        if (!res.destroyed) res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A promise plus its resolver, for handlers that hold an answer until the test says so. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
