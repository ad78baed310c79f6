/**
 * Deterministic PRNG for property tests: mulberry32 (Tommy Ettinger's public-domain generator),
 * so a failing sample can be reproduced from its seed.
 *
 * @param seed any 32-bit integer.
 * @returns a function giving numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
