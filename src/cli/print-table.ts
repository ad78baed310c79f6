/**
 * @module cli/print-table
 * Plain aligned tables for the terminal (ANSI colour codes are not counted as width), optionally
 * fitted to a terminal width by shortening the columns that may shrink.
 */

// eslint-disable-next-line no-control-regex -- matching ANSI escape sequences is the point
const ANSI = /\u001b\[[0-9;]*m/g;
/** Characters as a reader counts them (grapheme clusters), so a cut never splits one. */
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string): string[] =>
  Array.from(segmenter.segment(text), (part) => part.segment);
const width = (text: string): number => graphemes(text.replace(ANSI, '')).length;
/** Columns are separated by two spaces. */
const GAP = 2;

/** `text` cut to `max` characters, the last one an ellipsis when it was cut (plain text only). */
function cut(text: string, max: number): string {
  const chars = graphemes(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** The terminal width of stdout: its columns when it is a terminal, else `COLUMNS`, else none. */
export function outputColumns(stream: NodeJS.WriteStream = process.stdout): number | undefined {
  if (stream.isTTY && stream.columns > 0) return stream.columns;
  const env = Number(process.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : undefined;
}

/**
 * Print `rows` under `headers`, columns padded to their widest cell.
 *
 * @param fit `maxWidth` (characters) and `shrink`, the columns that may be cut to fit it, in
 *   order, each down to its `min` width (a column may come back later with a lower `min`); cut
 *   cells end with `…`. Shrinkable columns must hold plain text (no colour codes). A table that
 *   cannot fit stays as wide as the last `min` widths allow.
 */
export function printTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  fit?: { maxWidth: number | undefined; shrink: readonly { column: number; min: number }[] },
): void {
  const widths = headers.map((header, i) =>
    Math.max(width(header), ...rows.map((row) => width(row[i] ?? ''))),
  );
  if (fit?.maxWidth !== undefined) {
    let excess = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - fit.maxWidth;
    for (const { column, min } of fit.shrink) {
      const current = widths[column] ?? 0;
      const take = Math.min(Math.max(0, excess), Math.max(0, current - min));
      widths[column] = current - take;
      excess -= take;
    }
  }
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const target = widths[i] ?? 0;
        const text = fit?.shrink.some((s) => s.column === i) === true ? cut(cell, target) : cell;
        return text + ' '.repeat(Math.max(0, target - width(text)));
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join(' '.repeat(GAP)));
  for (const row of rows) console.log(line(row));
  if (rows.length === 0) console.log('(none)');
}
