/**
 * @module bench/page-section
 * Markers of the docs/bench.md section written by `npm run bench:pages`; `npm run bench`
 * rewrites the rest of the file and keeps what lies between them.
 */
export const SECTION_START = '<!-- pages:start -->';
export const SECTION_END = '<!-- pages:end -->';
