/**
 * A temporary directory for the tests of the calling `describe` (or file): made in `beforeAll`,
 * removed with its contents in `afterAll`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll } from 'vitest';

/** Register the hooks; the returned function gives the directory's path inside a test. */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error(`${prefix} directory used outside its tests`);
    return dir;
  };
}
