/**
 * @module intel/feeds/split-feed-lines
 * Feed text to lines, for the line-oriented formats (plain lists, OpenPhish, CSV).
 */

/**
 * The lines of a feed text without their `\n` / `\r\n` terminators; line N of the file is at
 * index N − 1. A final terminator does not add an empty last line.
 */
export function splitFeedLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.endsWith('\r')) lines[index] = line.slice(0, -1);
  }
  return lines;
}
