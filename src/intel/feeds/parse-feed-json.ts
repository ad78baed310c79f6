/**
 * @module intel/feeds/parse-feed-json
 * `JSON.parse` for the JSON feed formats: plain data only (JSON cannot carry code), and a syntax
 * error means the file is not the format at all.
 */
import { FeedFormatError } from './feed-format-error.js';
import type { FeedFormat } from './raw-feed-entry.js';

/**
 * The parsed JSON value of a feed text.
 *
 * @throws FeedFormatError when the text is not JSON.
 */
export function parseFeedJson(format: FeedFormat, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new FeedFormatError(format, `not JSON (${detail})`, { cause: error });
  }
}
