import { describe, expect, it } from 'vitest';

import {
  isMixedScript,
  isWholeScriptConfusable,
  type LetterScript,
  letterScripts,
} from './mixed-script.js';

const APPLE_CYRILLIC = '\u0430\u0440\u0440\u04cf\u0435'; // аррӏе
const OVO_GREEK = '\u03bf\u03bd\u03bf'; // ονο

describe('letterScripts', () => {
  it.each<[string, string, LetterScript[]]>([
    ['paypal', 'ASCII Latin', ['latin']],
    ['PayPal-123', 'Latin with digits and hyphen', ['latin']],
    ['m\u00fcnchen', 'Latin with a precomposed diacritic', ['latin']],
    ['e\u0301', 'Latin with a combining mark', ['latin']],
    ['p\u0430ypal', 'Latin + Cyrillic а', ['latin', 'cyrillic']],
    ['p\u03b1ypal', 'Latin + Greek α', ['latin', 'greek']],
    [APPLE_CYRILLIC, 'Cyrillic only', ['cyrillic']],
    ['\u0430\u03b1', 'Cyrillic + Greek', ['cyrillic', 'greek']],
    [OVO_GREEK, 'Greek only', ['greek']],
    ['shop\u4e2d\u6587', 'Latin + Han', ['latin', 'other']],
    ['\u4e2d\u6587', 'Han only', ['other']],
    ['\u05e9\u05dc\u05d5\u05dd', 'Hebrew', ['other']],
    ['123-456', 'digits and hyphen', []],
    ['', 'empty', []],
  ])('%s (%s)', (label, _name, expected) => {
    expect([...letterScripts(label)].sort()).toEqual([...expected].sort());
  });
});

describe('isMixedScript', () => {
  it.each<[string, boolean]>([
    ['p\u0430ypal', true], // Latin + Cyrillic
    ['p\u03b1ypal', true], // Latin + Greek
    ['\u0430\u03b1', true], // Cyrillic + Greek
    ['p\u0430\u03b1', true], // all three
    ['paypal', false],
    ['shop\u4e2d\u6587', false], // Latin + Han
    ['\u0430\u4e2d', false], // Cyrillic + Han: only Latin/Cyrillic/Greek pairs count
    [APPLE_CYRILLIC, false], // pure Cyrillic
    [OVO_GREEK, false], // pure Greek
    ['123', false],
  ])('%s → %s', (label, expected) => {
    expect(isMixedScript(letterScripts(label))).toBe(expected);
  });
});

describe('isWholeScriptConfusable', () => {
  it.each<[string, string, string, boolean]>([
    [APPLE_CYRILLIC, 'apple', 'com', true],
    [APPLE_CYRILLIC, 'apple', 'xyz', true],
    [APPLE_CYRILLIC, 'apple', 'ru', false],
    [APPLE_CYRILLIC, 'apple', 'xn--p1ai', false], // рф
    [APPLE_CYRILLIC, 'apple', 'ua', false],
    [APPLE_CYRILLIC, 'apple', 'bg', false],
    [APPLE_CYRILLIC, 'apple', 'gr', true], // a Greek TLD does not excuse Cyrillic
    [OVO_GREEK, 'ovo', 'com', true],
    [OVO_GREEK, 'ovo', 'gr', false],
    [OVO_GREEK, 'ovo', 'xn--qxam', false], // ελ
    [OVO_GREEK, 'ovo', 'cy', false],
    [OVO_GREEK, 'ovo', 'ru', true],
    // A skeleton that is not plain ASCII: the label does not pass for a Latin one.
    ['\u044f\u043d\u0434\u0435\u043a\u0441', '\u044f\u043d\u0434\u0435\u043a\u0441', 'com', false],
    // Mixed scripts are the other detector's job.
    ['\u0430pple', 'apple', 'com', false],
    // Pure Latin is never a whole-script confusable.
    ['apple', 'apple', 'com', false],
    ['\u4e2d\u6587', 'abc', 'com', false],
  ])('%s (skeleton %s) under .%s → %s', (label, skeleton, tld, expected) => {
    expect(isWholeScriptConfusable(letterScripts(label), skeleton, tld)).toBe(expected);
  });
});
