/**
 * @module cli/print-table
 * Plain aligned tables for the terminal (ANSI colour codes are not counted as width).
 */

// eslint-disable-next-line no-control-regex -- matching ANSI escape sequences is the point
const ANSI = /\u001b\[[0-9;]*m/g;
const width = (text: string): number => text.replace(ANSI, '').length;

/** Print `rows` under `headers`, columns padded to their widest cell. */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = headers.map((header, i) =>
    Math.max(width(header), ...rows.map((row) => width(row[i] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - width(cell))))
      .join('  ')
      .trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  if (rows.length === 0) console.log('(none)');
}
