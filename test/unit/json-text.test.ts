/**
 * The scanner of names given twice in one object (functions/domain/json-text.ts): which name, and where. The
 * evaluation body's 400 only asks whether there is one (test/unit/http.test.ts, with a property test over
 * random bodies); the policy files' and seed files' errors name it (store/policy-json.ts).
 *
 * Run: npx jest test/unit/json-text
 */
import { repeatedName } from '../../functions/domain/json-text';
import { repeatedNameProblem } from '../../store/policy-json';

describe('repeatedName: the first name an object gives twice, decoded, and the path of that object', () => {
  it.each([
    ['the top-level object', '{"BannedWords":["Harmless"],"BannedWords":["Acme"]}', { name: 'BannedWords', path: [] }],
    ['an element of a top-level array', '[{"a":1},{"MinLength":12,"MinLength":4}]', { name: 'MinLength', path: [1] }],
    ['a member of a member', '{"collection":"strength","versions":{"2":1,"2":3}}', { name: '2', path: ['versions'] }],
    [
      'an object inside arrays inside objects',
      '{"a":[1,[2,{"b":{"c":0,"c":1}}]]}',
      { name: 'c', path: ['a', 1, 1, 'b'] },
    ],
    ['a name written once with an escape', '{"Password":"a","Pass\\u0077ord":"b"}', { name: 'Password', path: [] }],
    ['after a nested object closed', '{"a":{"b":1},"c":2,"a":3}', { name: 'a', path: [] }],
    ['the first in the text of two', '[{"x":1,"y":{"z":1,"z":2}},{"x":1,"x":2}]', { name: 'z', path: [0, 'y'] }],
    [
      'strings that look like names, and commas in strings, are values',
      '{"a":"\\"b\\":1,","c":["a,","a"],"d":{"a":1},"a":2}',
      { name: 'a', path: [] },
    ],
    ['the empty name', '[[],{"":1,"":2}]', { name: '', path: [1] }],
  ])('%s', (_what, text, expected) => {
    expect(repeatedName(text)).toEqual(expected);
  });

  it.each([
    ['one name in two objects', '{"a":1,"b":{"a":2}}'],
    ['one name in sibling objects of an array', '[{"BannedWords":[]},{"BannedWords":[]}]'],
    ['names that differ in case or by a space', '{"Password":"a","password":"b","Password ":"c"}'],
    ['not an object at all', '["a","a"]'],
  ])('undefined for %s', (_what, text) => {
    expect(repeatedName(text)).toBeUndefined();
  });
});

describe('repeatedNameProblem: the phrase a file error says, after the file name', () => {
  it.each([
    [
      '{"BannedWords":["Harmless"],"BannedWords":["Acme"]}',
      '"BannedWords" is given twice in one object (at $); give it once (a JSON reader keeps only the last)',
    ],
    [
      '[{"a":1},{"MinLength":12,"MinLength":4}]',
      '"MinLength" is given twice in one object (at $[1]); give it once (a JSON reader keeps only the last)',
    ],
    [
      '{"versions":{"2":1,"2":3}}',
      '"2" is given twice in one object (at $.versions); give it once (a JSON reader keeps only the last)',
    ],
    // A name that is not an identifier is quoted in the path; a character a terminal must not be handed raw is escaped.
    [
      '{"a b":[{"x\\u202e":1,"x\\u202e":2}]}',
      '"x\\u{202E}" is given twice in one object (at $["a b"][0]); give it once (a JSON reader keeps only the last)',
    ],
  ])('%s', (text, problem) => {
    expect(repeatedNameProblem(text)).toBe(problem);
  });

  it('undefined when no object gives a name twice', () => {
    expect(repeatedNameProblem('{"a":{"a":{"a":1}}}')).toBeUndefined();
  });
});
