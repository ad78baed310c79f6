/**
 * @module observability/logger
 * Structured JSON logs (pino). Privacy rules (README, "Limitations and security
 * considerations"): requests are logged by method, route path, status, latency and request id
 * only — never the submitted URL (it is in the body, which is never logged), query strings,
 * keys, tokens, payment headers, cookies or client addresses. The redaction list is a second
 * line of defence should a header object ever be passed to a log call.
 */
import pino, { type Logger } from 'pino';

/** pino levels, plus `silent`. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Header names that must never appear in a log line. */
export const SECRET_HEADERS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-payment',
  'x-payment-response',
  'payment-signature',
  'payment-required',
  'payment-response',
  'x-402-signature',
  'x-402-nonce',
  'x-402-wallet-sig',
] as const;

interface RequestLike {
  id?: unknown;
  method?: string;
  url?: string;
}

interface ReplyLike {
  statusCode?: number;
}

/**
 * Create the service logger.
 *
 * @param level pino level.
 * @param destination optional stream (tests capture logs to assert on their content).
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'linkguard' },
    redact: {
      paths: SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]),
      censor: '[redacted]',
    },
    serializers: {
      req: (req: RequestLike) => ({
        id: req.id,
        method: req.method,
        // Path only: a query string could carry anything a client put there.
        path: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
      }),
      res: (res: ReplyLike) => ({ statusCode: res.statusCode }),
    },
  };
  if (destination !== undefined) return pino(options, destination);
  // stdout, written asynchronously (pino's default), made explicit to guard it: a failed write
  // (EPIPE when the reader is gone, EBADF when stdout was closed) must never crash the service.
  // pino already stops writing on EPIPE; any other error would be re-emitted unhandled.
  const stdout = pino.destination({ dest: 1, sync: false });
  stdout.on('error', () => undefined);
  return pino(options, stdout);
}

/** What {@link releaseLogs} needs of pino's destination (sonic-boom). */
interface FlushableStream {
  flushSync?: () => void;
}

/**
 * Give the log destination up to `timeoutMs` to write what is buffered, then stop it from ever
 * blocking the exit. Call before `process.exit()`.
 *
 * Why: pino flushes its stdout stream synchronously on `exit`, and sonic-boom's `flushSync()`
 * (4.x) retries a failed write for ever — EAGAIN while a pipe's reader does not read, and any
 * other error (EPIPE once the reader has gone) too, since only EAGAIN is given up on. A process
 * whose log pipe stalled or closed during shutdown then never exits (issue 14, finding 8).
 * After this call lines still buffered are dropped.
 *
 * @param logger a logger from {@link createLogger}.
 * @param timeoutMs how long to wait for the buffered lines, ms.
 */
export async function releaseLogs(logger: Logger, timeoutMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    try {
      logger.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
  const stream = (logger as unknown as Record<symbol, FlushableStream | undefined>)[
    pino.symbols.streamSym
  ];
  if (stream !== undefined && typeof stream.flushSync === 'function') {
    stream.flushSync = () => undefined;
  }
}
