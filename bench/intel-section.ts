/**
 * @module bench/intel-section
 * Markers of the docs/bench.md section written by `npm run bench:intel`; `npm run bench`
 * rewrites the rest of the file and keeps what lies between them. (A module of its own so that
 * importing the markers does not run the intel benchmark.)
 */
export const SECTION_START = '<!-- intel:start -->';
export const SECTION_END = '<!-- intel:end -->';
