import { describe, expect, it } from 'vitest';

import { splitCsvLine } from './split-csv-line.js';
import { splitFeedLines } from './split-feed-lines.js';

describe('splitCsvLine', () => {
  it.each<[string, string[]]>([
    ['a,b,c', ['a', 'b', 'c']],
    ['a,,', ['a', '', '']],
    ['', ['']],
    ['"a,b","c"', ['a,b', 'c']],
    ['"say ""hi""",x', ['say "hi"', 'x']],
    ['"",""', ['', '']],
    ['1,"http://x/?a=1,b=2",yes', ['1', 'http://x/?a=1,b=2', 'yes']],
    ['a,b"c,d', ['a', 'b"c', 'd']],
    ['"a",', ['a', '']],
  ])('%j', (line, fields) => {
    expect(splitCsvLine(line)).toEqual(fields);
  });

  it.each(['"unclosed,x', '"a"b,c', 'x,"a""'])('refuses broken quoting %j', (line) => {
    expect(splitCsvLine(line)).toBeNull();
  });
});

describe('splitFeedLines', () => {
  it('splits on LF and CRLF without a trailing empty line', () => {
    expect(splitFeedLines('a\r\nb\nc\n')).toEqual(['a', 'b', 'c']);
    expect(splitFeedLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitFeedLines('')).toEqual([]);
  });
});
