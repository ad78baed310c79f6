/**
 * @module net/read-capped-body
 * Reads a response body into memory with a hard byte cap.
 */
import type { Readable } from 'node:stream';

import { NetError } from './net-error.js';

/**
 * Read `body` to the end, failing as soon as more than `maxBytes` bytes have arrived. The bytes
 * counted are the bytes on the wire after de-chunking (the client asks for `identity` encoding and
 * never decompresses, so no expansion happens after the cap).
 *
 * @param declaredLength the response's `Content-Length` header, if any: a value above the cap
 * fails before a single body byte is read.
 * @throws {NetError} `too_large`; the body stream is destroyed, which closes the connection.
 */
export async function readCappedBody(
  body: Readable,
  maxBytes: number,
  declaredLength: string | undefined,
  url: string,
): Promise<Buffer> {
  const declared = declaredLength === undefined ? Number.NaN : Number(declaredLength);
  if (declared > maxBytes) {
    body.destroy();
    throw new NetError('too_large', `Content-Length ${declared} exceeds ${maxBytes} bytes`, url);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new NetError('too_large', `body exceeds ${maxBytes} bytes`, url);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
