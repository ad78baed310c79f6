import { expect } from 'vitest';

import { NetError, type NetErrorCode } from '../../src/net/index.js';

/** Await a fetch that must fail with `code`; returns the error for further checks. */
export async function expectNetError(
  promise: Promise<unknown>,
  code: NetErrorCode,
): Promise<NetError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NetError);
  expect(error).toMatchObject({ code });
  return error as NetError;
}
