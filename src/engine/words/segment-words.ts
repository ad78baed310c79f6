/**
 * @module engine/words/segment-words
 * Splits a run-together host label into known words: `paypalsecurelogin` → paypal · secure · login.
 * Phishers glue brand and lure words without hyphens, and short brand names (`dhl`, `ups`) are
 * only trustworthy when the rest of the label is made of real words — `webayurveda` must not read
 * as `ebay`.
 *
 * Dynamic programming over the label: each dictionary word costs 1, each character no word covers
 * costs {@link UNKNOWN_CHAR_COST}, and the cheapest split wins, so longer real words beat fragments.
 * The dictionary is a trie in typed arrays, so the inner loop walks characters without cutting
 * strings and stops as soon as the text under it cannot begin any word.
 */

/** A word found in a label, with its offset. */
export interface FoundWord {
  word: string;
  start: number;
}

/** Result of {@link segmentWords}. */
export interface Segmentation {
  words: FoundWord[];
  /** Characters of the input not covered by any word. */
  unknownChars: number;
}

/** Words and their trie, built once by {@link createDictionary}. */
export interface WordDictionary {
  readonly words: ReadonlySet<string>;
  /**
   * Trie in child-list form: the children of `node` are `childNode[k]` for `k` in
   * `childStart[node] … childStart[node + 1] - 1`, reached by the character `childCode[k]`.
   * Node 0 is the root. Typed arrays scanned linearly beat a hash map here: most nodes have
   * one or two children, and the segmenter takes ~100 transitions per label.
   */
  readonly childStart: Int32Array;
  readonly childCode: Uint8Array;
  readonly childNode: Int32Array;
  /** The root's children by character code (−1 for none): every start position asks it. */
  readonly rootChild: Int32Array;
  /** `terminal[node] === 1` when the path to `node` spells a word. */
  readonly terminal: Uint8Array;
}

/** Transition key space per node: char codes below 128 (labels are ASCII after IDNA). */
const ALPHABET = 128;

/** Cost of leaving one character unexplained; > 1 so that one word beats two fragments. */
const UNKNOWN_CHAR_COST = 1.6;

/**
 * Build a dictionary for {@link segmentWords}. Words shorter than 2 characters are ignored.
 *
 * @param words lowercase words.
 */
export function createDictionary(words: Iterable<string>): WordDictionary {
  const set = new Set<string>();
  const edges = new Map<number, number>();
  const terminals: number[] = [];
  let nodes = 1;
  for (const word of words) {
    if (word.length < 2 || set.has(word) || !isAscii(word)) continue;
    set.add(word);
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const key = node * ALPHABET + word.charCodeAt(i);
      let next = edges.get(key);
      if (next === undefined) {
        next = nodes++;
        edges.set(key, next);
      }
      node = next;
    }
    terminals.push(node);
  }
  const terminal = new Uint8Array(nodes);
  for (const node of terminals) terminal[node] = 1;
  return { words: set, terminal, ...childLists(edges, nodes) };
}

/** Lay the trie's `parent * ALPHABET + code → child` map out as child lists (CSR). */
function childLists(
  edges: ReadonlyMap<number, number>,
  nodes: number,
): Pick<WordDictionary, 'childStart' | 'childCode' | 'childNode' | 'rootChild'> {
  const childStart = new Int32Array(nodes + 1);
  // Typed-array reads below stay in bounds by construction; `?? 0` only satisfies the checker.
  for (const key of edges.keys()) {
    const slot = Math.floor(key / ALPHABET) + 1;
    childStart[slot] = (childStart[slot] ?? 0) + 1;
  }
  for (let node = 0; node < nodes; node++) {
    childStart[node + 1] = (childStart[node + 1] ?? 0) + (childStart[node] ?? 0);
  }
  const fill = childStart.slice(0, nodes);
  const childCode = new Uint8Array(edges.size);
  const childNode = new Int32Array(edges.size);
  const rootChild = new Int32Array(ALPHABET).fill(-1);
  for (const [key, child] of edges) {
    const parent = Math.floor(key / ALPHABET);
    const at = fill[parent] ?? 0;
    fill[parent] = at + 1;
    childCode[at] = key % ALPHABET;
    childNode[at] = child;
    if (parent === 0) rootChild[key % ALPHABET] = child;
  }
  return { childStart, childCode, childNode, rootChild };
}

/** The child of `node` reached by `code`, or −1. */
function childOf(dictionary: WordDictionary, node: number, code: number): number {
  if (code >= ALPHABET) return -1;
  if (node === 0) return dictionary.rootChild[code] ?? -1;
  const { childStart, childCode, childNode } = dictionary;
  for (let k = childStart[node] ?? 0, end = childStart[node + 1] ?? 0; k < end; k++) {
    if (childCode[k] === code) return childNode[k] ?? -1;
  }
  return -1;
}

/**
 * Segment `text` (lowercase ASCII letters/digits) into dictionary words.
 *
 * @param text one hyphen-free part of a host label.
 * @param dictionary words and prefixes from {@link createDictionary}.
 */
export function segmentWords(text: string, dictionary: WordDictionary): Segmentation {
  const n = text.length;
  if (dictionary.words.has(text)) return { words: [{ word: text, start: 0 }], unknownChars: 0 };
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1).fill(-1);
  const isWord = new Uint8Array(n + 1);
  cost[0] = 0;
  for (let start = 0; start < n; start++) {
    const base = cost[start] ?? Number.POSITIVE_INFINITY;
    // An unexplained character.
    if (base + UNKNOWN_CHAR_COST < (cost[start + 1] ?? 0)) {
      cost[start + 1] = base + UNKNOWN_CHAR_COST;
      from[start + 1] = start;
      isWord[start + 1] = 0;
    }
    let node = 0;
    for (let end = start + 1; end <= n; end++) {
      const next = childOf(dictionary, node, text.charCodeAt(end - 1));
      if (next < 0) break;
      node = next;
      if (end - start >= 2 && dictionary.terminal[node] === 1 && base + 1 < (cost[end] ?? 0)) {
        cost[end] = base + 1;
        from[end] = start;
        isWord[end] = 1;
      }
    }
  }
  const words: FoundWord[] = [];
  let unknownChars = 0;
  for (let end = n; end > 0;) {
    const start = from[end] ?? end - 1;
    if (isWord[end] === 1) words.push({ word: text.slice(start, end), start });
    else unknownChars += end - start;
    end = start;
  }
  words.reverse();
  return { words, unknownChars };
}

/** True when every character is ASCII (the trie's alphabet). */
function isAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) >= ALPHABET) return false;
  return true;
}
