/**
 * The request readers every function shares (functions/http.ts), one rule per test: headers, query
 * parameters, whole-number parameters, the JSON body and If-None-Match. The handler tests reach them
 * through real events; these pin the edges those events do not.
 */
import {
  ApiError,
  conditionalJsonResponse,
  headerValues,
  integerParameter,
  readJsonObjectBody,
  readQueryParameters,
  trimOptionalWhitespace,
} from '../../functions/http';
import fc from 'fast-check';
import { proxyEvent } from '../support/entry-points';
import { assertProperty, shown } from '../support/property';

const thrown = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

describe('headerValues: every value of one header, matched in any letter case', () => {
  it('reads every value of the multi-value map, in order, whatever the case of the name', () => {
    expect(headerValues({ multiValueHeaders: { apikey: ['a', 'b'], APIKEY: ['c'], Other: ['x'] } }, 'APIKey')).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('reads the single-value map when the event has no multi-value map', () => {
    expect(headerValues({ headers: { apiKEY: 'a', Other: 'x' } }, 'APIKey')).toEqual(['a']);
    expect(headerValues({ headers: { apikey: 'a' }, multiValueHeaders: null }, 'APIKEY')).toEqual(['a']);
  });

  it('prefers the multi-value map, and skips absent values', () => {
    expect(headerValues({ headers: { APIKey: 'single' }, multiValueHeaders: { APIKey: ['multi'] } }, 'APIKey')).toEqual(
      ['multi'],
    );
    expect(headerValues({ headers: { APIKey: undefined, Other: 'x' } }, 'APIKey')).toStrictEqual([]);
    expect(headerValues({ multiValueHeaders: { APIKey: undefined } }, 'APIKey')).toStrictEqual([]);
    expect(headerValues({}, 'APIKey')).toEqual([]);
  });
});

describe("trimOptionalWhitespace: HTTP's optional whitespace around a header value, and nothing else", () => {
  it('strips spaces and tabs at both ends, and keeps those inside', () => {
    expect(trimOptionalWhitespace(' \t a b \t ')).toBe('a b');
    expect(trimOptionalWhitespace('\t\t')).toBe('');
    expect(trimOptionalWhitespace('')).toBe('');
    expect(trimOptionalWhitespace('key')).toBe('key');
  });

  it.each([
    ['a no-break space', '\u00a0'],
    ['an em space', '\u2003'],
    ['an ideographic space', '\u3000'],
    ['a byte order mark', '\ufeff'],
    ['a line separator', '\u2028'],
    ['a newline', '\n'],
    ['a carriage return', '\r'],
    ['a vertical tab', '\v'],
  ])('keeps %s, which String.prototype.trim would strip', (_, space) => {
    expect(trimOptionalWhitespace(`${space}key${space}`)).toBe(`${space}key${space}`);
    expect(trimOptionalWhitespace(` ${space}key${space}\t`)).toBe(`${space}key${space}`);
  });
});

describe("readQueryParameters: the route's parameters, each at most once, and no other", () => {
  const query = (parameters: Record<string, string[] | undefined> | null) => ({
    multiValueQueryStringParameters: parameters as Record<string, string[]> | null,
  });

  it('reads each allowed parameter given once; a parameter without a value reads as absent', () => {
    expect(
      readQueryParameters(query({ Qty: ['3'], PasswordGeneratorID: ['2'] }), ['PasswordGeneratorID', 'Qty']),
    ).toEqual({ Qty: '3', PasswordGeneratorID: '2' });
    expect(readQueryParameters(query({ search: [] }), ['search']).search).toBeUndefined();
    expect(readQueryParameters(query({ search: undefined }), ['search']).search).toBeUndefined();
    expect(readQueryParameters(query(null), ['search'])).toEqual({});
  });

  it('echoes an unknown name only when it cannot be a key: a pp?_ prefix at its start, or more than 40 characters', () => {
    expect(thrown(() => readQueryParameters(query({ xppg_1: ['1'] }), ['search'])).phrase).toBe(
      'Unknown query parameter "xppg_1"; the only parameter is "search".',
    );
    expect(thrown(() => readQueryParameters(query({ ppg_1: ['1'] }), ['search'])).phrase).toBe(
      'Unknown query parameter (not shown: it looks like a key); the only parameter is "search".',
    );
    expect(thrown(() => readQueryParameters(query({ a: ['1'] }), ['Qty', 'PasswordGeneratorID'])).phrase).toBe(
      'Unknown query parameter "a"; the parameters are "Qty", "PasswordGeneratorID".',
    );
  });
});

describe('integerParameter: a whole number in range, written as decimal digits only', () => {
  it.each(['1e1', '+5', ' 5', '5 ', '5.0', '0x5', '-1', '', '12345678901234567'])('%j is a 400', (value) => {
    expect(thrown(() => integerParameter('Qty', value, 1, 1, 100))).toEqual(
      new ApiError(400, 'Qty must be a whole number from 1 to 100.'),
    );
  });

  it('takes the digits, the bounds inclusive, and the fallback when absent', () => {
    expect(integerParameter('Qty', '100', 1, 1, 100)).toBe(100);
    expect(integerParameter('Qty', '1', 1, 1, 100)).toBe(1);
    expect(integerParameter('Qty', '007', 1, 1, 100)).toBe(7);
    expect(integerParameter('Qty', undefined, 9, 1, 100)).toBe(9);
    expect(thrown(() => integerParameter('Qty', '101', 1, 1, 100)).phrase).toBe(
      'Qty must be a whole number from 1 to 100.',
    );
    expect(thrown(() => integerParameter('ID', '0', 1, 1, Number.MAX_SAFE_INTEGER)).phrase).toBe(
      'ID must be a whole number from 1 to 9007199254740991.',
    );
  });
});

describe('readJsonObjectBody: a JSON object, UTF-8, of bounded size', () => {
  const post = (body: string | null, contentType: string[] = ['application/json'], isBase64Encoded = false) =>
    proxyEvent('POST', '/api/passwordstrength/evaluate', {
      headers: { 'Content-Type': contentType },
      body,
      isBase64Encoded,
    });
  const base64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
  const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];

  it.each([
    'application/json',
    'application/json;',
    'application/json; charset=utf-8',
    'Application/JSON; Charset="UTF-8"',
  ])('accepts Content-Type %j', (type) => {
    expect(readJsonObjectBody(post('{"a":1}', [type]), 4096)).toEqual({ a: 1 });
  });

  const notUtf8 = new ApiError(
    400,
    'The body is not valid UTF-8 (or holds U+FFFD, the replacement character, which stands for bytes that were not); send the JSON as UTF-8.',
  );
  const unsupported = new ApiError(415, 'The body must be JSON: send Content-Type: application/json (UTF-8).');

  it.each([
    'application/json; xcharset=utf-8',
    'application/json; charset=utf-8x',
    'application/json; charset=latin1',
    'text/json',
  ])('refuses Content-Type %j with a 415', (type) => {
    expect(thrown(() => readJsonObjectBody(post('{"a":1}', [type]), 4096))).toEqual(unsupported);
  });

  it('decodes a base64 body as UTF-8, drops a leading byte order mark, and refuses bytes that are not UTF-8', () => {
    expect(readJsonObjectBody(post(base64(utf8('{"a":"é"}')), undefined, true), 4096)).toEqual({ a: 'é' });
    expect(readJsonObjectBody(post(base64([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]), undefined, true), 4096)).toEqual({
      a: 1,
    });
    expect(
      thrown(() => readJsonObjectBody(post(base64([...utf8('{"a":"'), 0xff, ...utf8('"}')]), undefined, true), 4096)),
    ).toEqual(notUtf8);
  });

  it('refuses a text body holding U+FFFD: all that API Gateway leaves of bytes that are not UTF-8', () => {
    // What a text body with the byte 0xFF becomes before the function sees it.
    const replaced = Buffer.from([...utf8('{"Password":"Corr'), 0xff, ...utf8('ect-Horse-7"}')]).toString('utf8');
    expect(replaced).toBe('{"Password":"Corr\uFFFDect-Horse-7"}');
    expect(thrown(() => readJsonObjectBody(post(replaced), 4096))).toEqual(notUtf8);
    expect(thrown(() => readJsonObjectBody(post(base64(utf8(replaced)), undefined, true), 4096))).toEqual(notUtf8);
    // An escape is not a replaced byte: the client wrote it, and it is read as written.
    expect(readJsonObjectBody(post('{"a":"\\uFFFD"}'), 4096)).toEqual({ a: '\uFFFD' });
  });

  const repeated = new ApiError(400, 'The body gives a field twice in one object; send each field once.');

  it.each([
    ['a field given twice', '{"Password":"a","Password":"b"}'],
    ['the same name, once written with an escape', '{"Password":"a","Pass\\u0077ord":"b"}'],
    ['an escaped solidus', '{"a/b":1,"a\\/b":2}'],
    ['a surrogate pair, escaped once', '{"\\ud83d\\ude00":1,"😀":2}'],
    ['__proto__ twice', '{"__proto__":1,"__proto__":2}'],
    ['the empty name twice', '{"":1,"":2}'],
    ['a name given twice in a nested object', '{"PasswordStrengthPolicyID":1,"Password":{"x":1,"y":{"z":1,"z":2}}}'],
    ['a name given twice in an object inside an array', '{"a":[1,{"b":true},{"c":null,"c":null}]}'],
    ['a repeat after a nested object closed', '{"a":{"b":1},"c":2,"a":3}'],
    ['a name given three times', '{"a":1,"a":1,"a":1}'],
  ])('refuses %s, quoting nothing of it', (_, body) => {
    expect(thrown(() => readJsonObjectBody(post(body), 4096))).toEqual(repeated);
  });

  it.each([
    ['one name in two objects', '{"a":1,"b":{"a":2}}'],
    ['one name in sibling objects', '{"a":{"b":1},"c":{"b":2},"d":[{"b":3},{"b":4}]}'],
    ['names that differ in letter case or by a space', '{"Password":"a","password":"b","Password ":"c"}'],
    ['a string value that looks like a member', '{"a":"\\"a\\":1","b":"a","c":["a","a"]}'],
    ['names with escapes that decode differently', '{"\\u0041":1,"\\u0061":2,"\\n":3,"\\\\n":4}'],
  ])('accepts %s', (_, body) => {
    expect(readJsonObjectBody(post(body), 4096)).toEqual(JSON.parse(body));
  });

  it('finds a repeated name exactly when an object of the body has one, at any depth and however each name is escaped (property)', async () => {
    // Few names, so repeats are common; values drawn from the same set, so a string value can look like a name.
    const text = fc.constantFrom('a', 'b', 'Password', 'é', '😀', '"', '\\', '/', '\u0000', 'a b', '{', ',');
    type Node = { object: [string, Node][] } | { array: Node[] } | { leaf: unknown };
    const tree = fc.letrec<{ node: Node; object: Node }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.record({ leaf: fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)) }),
        tie('object'),
        fc.record({ array: fc.array(tie('node'), { maxLength: 4 }) }),
      ),
      object: fc.record({ object: fc.array(fc.tuple(text, tie('node')), { maxLength: 5 }) }),
    })).object;
    // Each name written plainly or with every UTF-16 unit escaped (\u0050\u0061...), as a client may.
    const escaped = (name: string) =>
      `"${[...Array(name.length).keys()].map((i) => `\\u${name.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;
    const write = (node: Node, escapes: () => boolean): string =>
      'leaf' in node
        ? JSON.stringify(node.leaf)
        : 'array' in node
          ? `[${node.array.map((n) => write(n, escapes)).join(',')}]`
          : `{${node.object.map(([name, value]) => `${escapes() ? escaped(name) : JSON.stringify(name)}:${write(value, escapes)}`).join(',')}}`;
    const repeats = (node: Node): boolean =>
      'leaf' in node
        ? false
        : 'array' in node
          ? node.array.some(repeats)
          : new Set(node.object.map(([name]) => name)).size < node.object.length ||
            node.object.some(([, value]) => repeats(value));
    const bodies = fc.tuple(tree, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 })).map(([root, choices]) => {
      let next = 0;
      const body = write(root, () => choices[next++ % choices.length]!);
      return shown({ body, repeated: repeats(root) }, body);
    });
    await assertProperty(
      'repeated names',
      fc.property(bodies, ({ body, repeated }) => {
        if (repeated)
          expect(thrown(() => readJsonObjectBody(post(body), 1 << 20))).toEqual(
            new ApiError(400, 'The body gives a field twice in one object; send each field once.'),
          );
        else expect(readJsonObjectBody(post(body), 1 << 20)).toEqual(JSON.parse(body));
      }),
      // Each run scans one body of at most a few hundred bytes: 2,000 take well under a second.
      2000,
    );
  });

  it.each(['[]', 'null', '"text"', '1', 'true'])('refuses %s: the body must be a JSON object', (body) => {
    expect(thrown(() => readJsonObjectBody(post(body), 4096))).toEqual(
      new ApiError(400, 'The body must be a JSON object.'),
    );
  });

  it('refuses what is not JSON, without quoting it', () => {
    expect(thrown(() => readJsonObjectBody(post('{"Password": secret}'), 4096))).toEqual(
      new ApiError(400, 'The body is not valid JSON (UTF-8); send a JSON object.'),
    );
  });

  it('refuses a missing or repeated Content-Type with a 415', () => {
    const untyped = proxyEvent('POST', '/api/passwordstrength/evaluate', { body: '{}' });
    expect(thrown(() => readJsonObjectBody(untyped, 4096))).toEqual(unsupported);
    expect(thrown(() => readJsonObjectBody(post('{}', ['application/json', 'application/json']), 4096))).toEqual(
      unsupported,
    );
  });

  it('counts the bytes, not the characters, against the limit; an absent body is empty', () => {
    expect(readJsonObjectBody(post('{"a":"éé"}'), 12)).toEqual({ a: 'éé' });
    expect(thrown(() => readJsonObjectBody(post('{"a":"ééé"}'), 12)).phrase).toBe(
      'The body must be at most 12 bytes; this one has 14.',
    );
    expect(thrown(() => readJsonObjectBody(post(null, undefined, true), 4096)).phrase).toBe(
      'The body is empty; send a JSON object.',
    );
    expect(thrown(() => readJsonObjectBody(post(null), 4096)).phrase).toBe('The body is empty; send a JSON object.');
  });
});

describe('conditionalJsonResponse: If-None-Match', () => {
  const get = (ifNoneMatch: string[]) =>
    proxyEvent('GET', '/api/passwordstrength', { headers: { 'If-None-Match': ifNoneMatch } });
  const status = (ifNoneMatch: string[]) => conditionalJsonResponse(get(ifNoneMatch), '"tag"', () => '[]').statusCode;

  it('reads repeated If-None-Match headers as one list', () => {
    expect(status(['"other"', '"tag"'])).toBe(304);
    expect(status(['"other", W/"tag"'])).toBe(304);
    expect(status(['"other"', '"another"'])).toBe(200);
    expect(status([''])).toBe(200);
  });
});
