/**
 * @module engine/brand/skeleton
 * UTS #39 confusable skeletons. Two strings that look alike have the same skeleton:
 * `skeleton('pаypal')` (Cyrillic а) = `skeleton('paypal')`. linkguard compares hostname labels with
 * brand tokens by skeleton to catch homoglyph domains.
 *
 * Algorithm (UTS #39 §4 "Confusable Detection", Unicode 17): NFD → remove
 * Default_Ignorable_Code_Point characters → replace every code point by its prototype from
 * `confusables.txt` → NFD again. We then lowercase, because host names are case-insensitive and
 * some prototypes are capitals (`0` → `O`); the brand side is computed the same way, so both sides
 * stay comparable (guide: detection.md §1.3, stack.md §4 "Confusables").
 *
 * No maintained npm implementation of the current table exists (stack.md §4), so the table is data
 * (`data/unicode/confusables.txt`) parsed by {@link parseConfusables}.
 */

/** Prototype string per source code point, from `confusables.txt`. */
export type ConfusableTable = ReadonlyMap<number, string>;

const DATA_LINE = /^([0-9A-F]{4,6}) ;\t([0-9A-F ]+?) ;\tMA$/;
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Parse the (reduced) `confusables.txt`: lines `SRC ;<TAB>TARGET… ;<TAB>MA`, `#` comments.
 *
 * @param text file content.
 * @returns code point → prototype string.
 * @throws {Error} on a line that is neither a comment, blank, nor a data line: a corrupt data file
 *   must stop start-up rather than silently weaken homoglyph detection.
 */
export function parseConfusables(text: string): ConfusableTable {
  const table = new Map<number, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = DATA_LINE.exec(line);
    if (match === null) throw new Error(`confusables.txt: unexpected line "${line.slice(0, 60)}"`);
    const source = Number.parseInt(match[1] ?? '', 16);
    const target = (match[2] ?? '')
      .split(' ')
      .map((hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
      .join('');
    table.set(source, target);
  }
  return table;
}

/**
 * A skeleton function bound to a table, with a fast path for ASCII input (most host labels):
 * the handful of ASCII code points that have prototypes (`0`, `1`, `m` → `rn`, …) are mapped from a
 * precomputed array without normalization.
 *
 * @param table parsed confusables.
 * @returns `skeleton(text)`: lowercase skeleton string.
 */
export function createSkeleton(table: ConfusableTable): (text: string) => string {
  const ascii: string[] = [];
  for (let code = 0; code < 128; code++) {
    ascii.push(mapCodePoints(String.fromCharCode(code), table).normalize('NFD').toLowerCase());
  }
  return (text: string): string => {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 128) return fullSkeleton(text, table);
      out += ascii[code] ?? '';
    }
    return out;
  };
}

function fullSkeleton(text: string, table: ConfusableTable): string {
  const decomposed = text.normalize('NFD').replace(DEFAULT_IGNORABLE, '');
  return mapCodePoints(decomposed, table).normalize('NFD').toLowerCase();
}

function mapCodePoints(text: string, table: ConfusableTable): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += table.get(code) ?? char;
  }
  return out;
}
