/**
 * @module observability/logger
 * Structured JSON logs (pino). Privacy rules of DESIGN §8: requests are logged by method, route
 * path, status, latency and request id only — never the submitted URL (it is in the body, which is
 * never logged), query strings, keys, tokens, payment headers, cookies or client addresses. The
 * redaction list is a second line of defence should a header object ever be passed to a log call.
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
  return destination === undefined ? pino(options) : pino(options, destination);
}
