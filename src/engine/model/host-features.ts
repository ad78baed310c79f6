/**
 * @module engine/model/host-features
 * The features of the learned lexical URL model: what a host name looks like, hashed into a fixed
 * number of buckets (the "hashing trick", Weinberger et al., ICML 2009) so the model is a plain
 * weight array. Training (`scripts/train-url-model.ts`) and scoring use this one function, so
 * they can never disagree.
 *
 * Features of `www.`-less host `h` (ASCII, punycode for IDNs):
 * - character 3-, 4- and 5-grams of `^n$`, where `n` is the host left of its public suffix (the
 *   anchors mark where the name starts and ends), each weighted 1/√(number of n-grams) so long
 *   names do not score by length alone;
 * - each label of `n`, each hyphen-separated part of them, and the public suffix itself, as
 *   whole tokens;
 * - buckets of length, label count, digits, hyphens, depth and punycode.
 * Hashing is 32-bit FNV-1a (Fowler–Noll–Vo, IETF draft-eastlake-fnv) with a distinct seed per
 * feature kind, reduced to {@link HASH_BITS} bits.
 */

/** log2 of the number of weight buckets. */
export const HASH_BITS = 20;
const MASK = (1 << HASH_BITS) - 1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** N-gram lengths: 3–5 characters carry brand fragments, lure words and TLD shapes. */
const NGRAM_MIN = 3;
const NGRAM_MAX = 5;
/** Most features one host yields (253 characters × 3 n-gram lengths + tokens + buckets). */
export const MAX_FEATURES = 1024;

/** The feature kinds, each hashed with its own seed. */
const KIND = { ngram: 1, label: 2, part: 3, suffix: 4, shape: 5 } as const;

/**
 * A host's hashed features: `indices[i]` with value `values[i]`, for `i < count`. The first
 * `ngrams` of them are character n-grams of `anchored`, the i-th starting at `starts[i]` with
 * length `lengths[i]` (kept so an explanation need not hash them again).
 */
export interface HostFeatures {
  indices: Uint32Array;
  values: Float32Array;
  count: number;
  ngrams: number;
  starts: Uint16Array;
  lengths: Uint8Array;
  /** `^name$` the n-grams were cut from. */
  anchored: string;
}

/** Reusable buffers: one scoring call allocates nothing. */
export function createFeatureBuffer(): HostFeatures {
  return {
    indices: new Uint32Array(MAX_FEATURES),
    values: new Float32Array(MAX_FEATURES),
    count: 0,
    ngrams: 0,
    starts: new Uint16Array(MAX_FEATURES),
    lengths: new Uint8Array(MAX_FEATURES),
    anchored: '',
  };
}

/** FNV-1a over `text[start, end)` with a kind seed; characters above 0xff fold to their low byte. */
function hashRange(kind: number, text: string, start: number, end: number): number {
  let h = Math.imul(FNV_OFFSET ^ kind, FNV_PRIME);
  for (let i = start; i < end; i++) h = Math.imul(h ^ (text.charCodeAt(i) & 0xff), FNV_PRIME);
  return (h >>> 0) & MASK;
}

function hashText(kind: number, text: string): number {
  return hashRange(kind, text, 0, text.length);
}

/**
 * The model's name for a host: lower-case, no trailing dot, no leading `www.` labels (they carry
 * no information and would dilute the n-grams).
 */
export function modelHost(hostname: string): string {
  let host = hostname.toLowerCase().replace(/\.$/, '');
  while (host.startsWith('www.') && host.length > 4) host = host.slice(4);
  return host;
}

/**
 * Hash the features of a host into `out` (overwritten).
 *
 * @param host output of {@link modelHost}.
 * @param suffix the host's public suffix (`co.uk`, `pages.dev`; PSL with private entries), or ''
 *   when unknown (IP hosts): labels left of it are the name's own.
 * @param out buffer from {@link createFeatureBuffer}.
 */
export function hostFeatures(host: string, suffix: string, out: HostFeatures): void {
  const name =
    suffix !== '' && host.endsWith(`.${suffix}`) ? host.slice(0, -suffix.length - 1) : host;
  // N-grams read the name left of the public suffix; the suffix is one token of its own, so a
  // platform (`pages.dev`, `blob.core.windows.net`) weighs once and the tenant's name decides.
  const anchored = `^${name.slice(0, 253)}$`;
  let count = 0;
  const push = (index: number, value: number): void => {
    if (count < MAX_FEATURES) {
      out.indices[count] = index;
      out.values[count] = value;
      count++;
    }
  };

  let grams = 0;
  for (let n = NGRAM_MIN; n <= NGRAM_MAX; n++) grams += Math.max(0, anchored.length - n + 1);
  const weight = grams > 0 ? 1 / Math.sqrt(grams) : 0;
  for (let n = NGRAM_MIN; n <= NGRAM_MAX; n++) {
    for (let start = 0; start + n <= anchored.length; start++) {
      if (count < MAX_FEATURES) {
        out.starts[count] = start;
        out.lengths[count] = n;
      }
      push(hashRange(KIND.ngram * 16 + n, anchored, start, start + n), weight);
    }
  }
  out.ngrams = count;
  out.anchored = anchored;

  const labels = name === '' ? [] : name.split('.');
  for (const label of labels) {
    push(hashText(KIND.label, label), 0.5);
    if (label.includes('-')) {
      for (const part of label.split('-')) if (part !== '') push(hashText(KIND.part, part), 0.5);
    }
  }
  if (suffix !== '') push(hashText(KIND.suffix, suffix), 1);

  let digits = 0;
  let hyphens = 0;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 45) hyphens++;
  }
  const longest = labels.reduce((max, label) => Math.max(max, label.length), 0);
  const shape = [
    `len:${bucket(host.length, [8, 12, 16, 20, 25, 30, 40, 60])}`,
    `labels:${Math.min(labels.length, 5)}`,
    `digits:${bucket(digits, [0, 1, 2, 4, 6, 10])}`,
    `hyphens:${Math.min(hyphens, 4)}`,
    `longest:${bucket(longest, [6, 10, 15, 20, 30])}`,
    `idn:${host.includes('xn--') ? 1 : 0}`,
  ];
  for (const feature of shape) push(hashText(KIND.shape, feature), 1);
  out.count = count;
}

/** Index of the first bound `value` does not exceed (or the number of bounds). */
function bucket(value: number, bounds: readonly number[]): number {
  for (let i = 0; i < bounds.length; i++) if (value <= (bounds[i] ?? 0)) return i;
  return bounds.length;
}

/**
 * The `count` n-grams of already hashed features with the largest positive `weightOf(index)`,
 * strongest first, as text (anchors `^`/`$` kept): what explains a score. Only the winners are
 * cut out of the string. Token and shape features are not listed: they explain less than the
 * n-grams they overlap.
 */
export function topNgrams(
  features: HostFeatures,
  count: number,
  weightOf: (index: number) => number,
): string[] {
  const best: { weight: number; index: number; at: number }[] = [];
  for (let i = 0; i < features.ngrams; i++) {
    const index = features.indices[i] ?? 0;
    const weight = weightOf(index);
    if (weight <= 0 || best.some((b) => b.index === index)) continue;
    if (best.length === count && weight <= (best[count - 1]?.weight ?? 0)) continue;
    best.push({ weight, index, at: i });
    best.sort((x, y) => y.weight - x.weight);
    if (best.length > count) best.pop();
  }
  return best.map(({ at }) => {
    const start = features.starts[at] ?? 0;
    return features.anchored.slice(start, start + (features.lengths[at] ?? 0));
  });
}

/**
 * The human-readable feature behind each n-gram of a host: the hashed index and the n-gram text
 * (anchors `^`/`$` kept), for tests and tools.
 */
export function hostNgrams(host: string, suffix: string): { index: number; text: string }[] {
  const name =
    suffix !== '' && host.endsWith(`.${suffix}`) ? host.slice(0, -suffix.length - 1) : host;
  const anchored = `^${name.slice(0, 253)}$`;
  const out: { index: number; text: string }[] = [];
  for (let n = NGRAM_MIN; n <= NGRAM_MAX; n++) {
    for (let start = 0; start + n <= anchored.length; start++) {
      out.push({
        index: hashRange(KIND.ngram * 16 + n, anchored, start, start + n),
        text: anchored.slice(start, start + n),
      });
    }
  }
  return out;
}
