/**
 * @module bench/payments-section
 * Markers of the docs/bench.md section written by `npm run bench:payments`; `npm run bench`
 * rewrites the rest of the file and keeps what lies between them. (A module of its own so that
 * importing the markers does not run the payments benchmark.)
 */
export const SECTION_START = '<!-- payments:start -->';
export const SECTION_END = '<!-- payments:end -->';
