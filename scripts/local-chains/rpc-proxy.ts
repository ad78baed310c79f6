import { createConnection, createServer, type Socket } from 'node:net';

/**
 * - `up`: forward both directions.
 * - `down`: refuse service: accept, then reset the connection at once; existing connections are
 *   reset too.
 * - `hang`: accept and read but never answer; existing connections stop forwarding for good (their
 *   upstream side is closed), so an in-flight request hangs until the client gives up.
 */
export type ProxyMode = 'up' | 'down' | 'hang';

/** A TCP proxy on 127.0.0.1 in front of a local chain's RPC, for outage and latency tests. */
export interface RpcProxy {
  /** `http://127.0.0.1:<port>` (`ws://` for a ws target) plus the target's path and query, if any. */
  url: string;
  /** Applies to new connections and to existing ones (see {@link ProxyMode}). */
  setMode(mode: ProxyMode): void;
  /** One-way delay added to every chunk in each direction (so one HTTP round trip costs ~2×delayMs). */
  setDelay(ms: number): void;
  /** Total accepted connections, in any mode (for assertions). */
  connections(): number;
  /** Destroys all sockets and closes the listener. Idempotent. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Forwards `from` to `to`, holding each chunk for the current delay. A per-direction FIFO keeps
 * chunk order even when the delay shrinks while chunks are queued.
 */
class DelayedPipe {
  private readonly queue: { chunk: Buffer; due: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  private disposed = false;
  private readonly onData = (chunk: Buffer): void => {
    this.queue.push({ chunk, due: performance.now() + this.delayMs() });
    this.flush();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.flush();
  };
  // Backpressure: `from` is paused while `to` has a full buffer.
  private readonly onDrain = (): void => {
    this.from.resume();
  };

  constructor(
    private readonly from: Socket,
    private readonly to: Socket,
    private readonly delayMs: () => number,
  ) {
    from.on('data', this.onData);
    from.once('end', this.onEnd);
    to.on('drain', this.onDrain);
  }

  private flush(): void {
    if (this.disposed || this.timer !== undefined || this.to.destroyed) return;
    const now = performance.now();
    for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
      if (head.due > now) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.flush();
        }, head.due - now);
        return;
      }
      this.queue.shift();
      if (!this.to.write(head.chunk)) this.from.pause();
    }
    // Half-close is forwarded only after every queued chunk, so a delayed reply is not cut off.
    if (this.ended) this.to.end();
  }

  /** Stops forwarding: drops queued chunks and detaches from both sockets. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.from.off('data', this.onData);
    this.from.off('end', this.onEnd);
    this.to.off('drain', this.onDrain);
  }
}

/** One accepted client connection and, while it forwards, its upstream connection. */
class ProxiedConnection {
  private upstream: Socket | undefined;
  private pipes: DelayedPipe[] = [];
  private hung = false;
  private closed = false;

  constructor(
    private readonly client: Socket,
    private readonly onClose: () => void,
  ) {
    // The connection ends when the client's socket closes. A graceful upstream close is not an
    // end: its FIN is forwarded through the pipe after any delayed chunks.
    client.once('close', () => {
      this.destroy();
    });
    client.on('error', () => {
      this.destroy();
    });
  }

  /** Connects upstream and forwards both directions, each chunk held for `delayMs()`. */
  forward(target: { host: string; port: number }, delayMs: () => number): void {
    const upstream = createConnection({ ...target, allowHalfOpen: true, noDelay: true });
    this.upstream = upstream;
    // A failed upstream (e.g. the chain was stopped) reaches the client as a reset.
    upstream.on('error', () => {
      this.reset();
    });
    this.pipes = [
      new DelayedPipe(this.client, upstream, delayMs),
      new DelayedPipe(upstream, this.client, delayMs),
    ];
  }

  /** Stops forwarding for good: the upstream is closed, the client is read and never answered. */
  hang(): void {
    if (this.hung || this.closed) return;
    this.hung = true;
    this.dropUpstream();
    // Flowing with no 'data' listener: the client's bytes are read and discarded.
    this.client.resume();
  }

  /** Sends a TCP RST to the client (ECONNRESET on its side) and drops the upstream. */
  reset(): void {
    if (this.closed) return;
    this.finish();
    if (!this.client.destroyed) this.client.resetAndDestroy();
  }

  destroy(): void {
    if (this.closed) return;
    this.finish();
    this.client.destroy();
  }

  private finish(): void {
    this.closed = true;
    this.dropUpstream();
    this.onClose();
  }

  private dropUpstream(): void {
    for (const pipe of this.pipes) pipe.dispose();
    this.upstream?.destroy();
    this.upstream = undefined;
  }
}

/**
 * Starts a TCP proxy on 127.0.0.1 at a free port in front of `targetUrl`, a local chain's RPC.
 * It works at the TCP level, so HTTP keep-alive and WebSocket traffic pass through unchanged; the
 * modes act on TCP connections, not on individual requests.
 *
 * @param targetUrl `http://` or `ws://` on a loopback host, e.g. `http://127.0.0.1:8545`; the
 *   proxy's `url` keeps its scheme, path and query.
 * @param options.delayMs initial one-way delay per chunk in milliseconds (default 0).
 * @throws TypeError for another scheme or a non-loopback host (tests must not reach the network);
 *   RangeError for a negative or non-finite delay.
 */
export async function startRpcProxy(
  targetUrl: string,
  options?: { delayMs?: number },
): Promise<RpcProxy> {
  const target = new URL(targetUrl);
  // No https/wss: a TCP proxy would pass TLS through, and the certificate would not match
  // 127.0.0.1. Local chains speak plain HTTP and WebSocket anyway.
  if (target.protocol !== 'http:' && target.protocol !== 'ws:') {
    throw new TypeError(`unsupported target protocol: ${target.protocol}`);
  }
  if (!LOOPBACK_HOSTS.has(target.hostname)) {
    throw new TypeError(`target must be on a loopback host, got ${target.hostname}`);
  }
  const upstream = {
    host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: target.port === '' ? 80 : Number(target.port),
  };

  let mode: ProxyMode = 'up';
  let delayMs = 0;
  let accepted = 0;
  const live = new Set<ProxiedConnection>();
  const setDelay = (ms: number): void => {
    if (!(Number.isFinite(ms) && ms >= 0)) {
      throw new RangeError(`delay must be a finite number >= 0, got ${ms}`);
    }
    delayMs = ms;
  };
  setDelay(options?.delayMs ?? 0);

  // allowHalfOpen: a client that half-closes after its request must still get the reply.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    accepted += 1;
    if (mode === 'down') {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const connection = new ProxiedConnection(client, () => live.delete(connection));
    live.add(connection);
    if (mode === 'hang') connection.hang();
    else connection.forward(upstream, () => delayMs);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
  const path = target.pathname === '/' ? '' : target.pathname;

  let closing: Promise<void> | undefined;
  return {
    url: `${target.protocol}//127.0.0.1:${address.port}${path}${target.search}`,
    setMode(next) {
      mode = next;
      if (next === 'up') return;
      for (const connection of [...live]) {
        if (next === 'down') connection.reset();
        else connection.hang();
      }
    },
    setDelay,
    connections: () => accepted,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const connection of [...live]) connection.destroy();
        server.close(() => {
          resolve();
        });
      });
      return closing;
    },
  };
}
