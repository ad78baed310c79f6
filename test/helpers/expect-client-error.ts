/** Assert that a call of the paying client (src/client/) fails with a given PaymentClientError. */
import { expect } from 'vitest';

import { PaymentClientError, type PaymentClientErrorCode } from '../../src/client/index.js';

/** Expect `promise` to reject with a PaymentClientError of `code`; returns that error. */
export async function expectClientError(
  promise: Promise<unknown>,
  code: PaymentClientErrorCode,
): Promise<PaymentClientError> {
  const error: unknown = await promise.then(
    () => new Error('expected a PaymentClientError'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaymentClientError);
  expect((error as PaymentClientError).code).toBe(code);
  return error as PaymentClientError;
}
