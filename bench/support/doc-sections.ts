/**
 * @module bench/support/doc-sections
 * Sections of docs/bench.md written by separate benchmarks (`bench:payments`, the intel index
 * bench) between HTML-comment markers, so each bench rewrites only its own part and
 * `npm run bench` keeps the others when it rewrites the file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** A section's start and end markers. */
export interface SectionMarkers {
  start: string;
  end: string;
}

/** The section of `text` between `markers` (markers included), or null when it has none. */
export function findSection(text: string, markers: SectionMarkers): string | null {
  const from = text.indexOf(markers.start);
  const to = text.indexOf(markers.end);
  return from !== -1 && to > from ? text.slice(from, to + markers.end.length) : null;
}

/** Replace the section of `file` (or append it when the file has none) with `section`. */
export function writeSection(file: string, markers: SectionMarkers, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const current = findSection(text, markers);
  writeFileSync(
    file,
    current === null ? `${text.trimEnd()}\n\n${section}\n` : text.replace(current, () => section),
  );
}
