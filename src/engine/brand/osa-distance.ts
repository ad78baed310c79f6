/**
 * @module engine/brand/osa-distance
 * Optimal string alignment distance (restricted Damerau-Levenshtein): insertions, deletions,
 * substitutions and transpositions of adjacent characters each cost 1. Transpositions matter for
 * typosquats (`paypla`); plain Levenshtein would count them as 2. The guide measured the
 * `damerau-levenshtein` package at 30× the cost of a small hand-written OSA (stack.md §4), and the
 * bound lets us stop early, since we only ask "is it ≤ 1 or 2?".
 */

/**
 * OSA distance between `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`.
 *
 * @param a first string (compared by UTF-16 code unit; callers pass ASCII labels or skeletons).
 * @param b second string.
 * @param limit largest distance of interest (≥ 0).
 * @returns the distance when ≤ `limit`, else `limit + 1`.
 */
export function osaDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  // Three rolling rows: two back (for transpositions), previous and current.
  let back2 = new Array<number>(width).fill(0);
  let prev = Array.from({ length: width }, (_, j) => j);
  let curr = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, (back2[j - 2] ?? 0) + 1);
      }
      curr[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    [back2, prev, curr] = [prev, curr, back2];
  }
  const result = prev[b.length] ?? limit + 1;
  return result > limit ? limit + 1 : result;
}
