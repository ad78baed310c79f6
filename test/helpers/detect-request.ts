/**
 * Small helpers for `POST /v1/detect` through `app.inject()`.
 */
import type { LightMyRequestResponse } from 'fastify';

import type { TestApp } from './test-app.js';

export interface DetectOptions {
  /** Extra request headers (Authorization, X-PAYMENT, …). */
  headers?: Record<string, string>;
  /** Client address as the server sees it (default: light-my-request's 127.0.0.1). */
  remoteAddress?: string;
}

/** POST a JSON body `{url}` (or any value given as `body`) to /v1/detect. */
export function detect(
  app: TestApp,
  body: unknown,
  options: DetectOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/v1/detect',
    headers: { 'content-type': 'application/json', ...options.headers },
    payload: JSON.stringify(body),
    ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
  });
}

/** POST `payload` to /v1/detect exactly as given (malformed bodies, other media types). */
export function detectRaw(
  app: TestApp,
  payload: string,
  contentType = 'application/json',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/v1/detect',
    headers: { 'content-type': contentType },
    payload,
  });
}

/** `{url}` with an enterprise key. */
export function detectWithKey(
  app: TestApp,
  url: string,
  bearer: string,
  options: DetectOptions = {},
): Promise<LightMyRequestResponse> {
  return detect(
    app,
    { url },
    { ...options, headers: { authorization: bearer, ...options.headers } },
  );
}

/** The three `RateLimit-*` headers as numbers (NaN when absent). */
export function rateLimitHeaders(response: LightMyRequestResponse): {
  limit: number;
  remaining: number;
  reset: number;
} {
  const num = (name: string): number => Number(response.headers[name] ?? Number.NaN);
  return {
    limit: num('ratelimit-limit'),
    remaining: num('ratelimit-remaining'),
    reset: num('ratelimit-reset'),
  };
}

/** Parsed JSON body as a plain record. */
export function jsonBody(response: LightMyRequestResponse): Record<string, unknown> {
  return response.json<Record<string, unknown>>();
}
