/**
 * @module bench/overrides-section
 * Markers of the section `npm run bench:overrides` writes into docs/bench.md. (A module of its
 * own, so importing the markers does not run the benchmark.)
 */
export const SECTION_START = '<!-- overrides:start -->';
export const SECTION_END = '<!-- overrides:end -->';
