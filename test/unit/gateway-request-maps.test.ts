/**
 * The maps the local gateway builds from request input (query and header names) and hands on in the events:
 * every name is a key like any other. Names inherited from Object.prototype (`constructor`, `__proto__`,
 * `toString`, `hasOwnProperty`, `valueOf`) once collided with the plain objects' own members: `?constructor=1`
 * threw inside parseQuery, and the gateway answered 500.
 */
import {
  authorizerEvent,
  headerMaps,
  parseQuery,
  proxyEvent,
  type ParsedRequest,
} from '../../local/api-gateway-events';
import { readQueryParameters } from '../../functions/http';
import { PROTOTYPE_NAMES } from '../support/prototype-names';

describe.each(PROTOTYPE_NAMES)('the name %s', (name) => {
  it('is a query parameter like any other, its values kept in order', () => {
    const query = parseQuery(`${name}=1&search=x&${name}=2`);
    expect(query).not.toBe('invalid');
    expect(Object.entries(query as Record<string, string[]>)).toEqual([
      [name, ['1', '2']],
      ['search', ['x']],
    ]);
  });

  it('is a header like any other, in both header maps', () => {
    const { headers, multiValueHeaders } = headerMaps([name, 'a', 'APIKey', 'k', name, 'b']);
    expect(Object.entries(headers)).toEqual([
      [name, 'b'],
      ['APIKey', 'k'],
    ]);
    expect(Object.entries(multiValueHeaders)).toEqual([
      [name, ['a', 'b']],
      ['APIKey', ['k']],
    ]);
  });

  it('reaches the authorizer and proxy events as an own key, and an absent name reads as absent', () => {
    const request: ParsedRequest = {
      method: 'GET',
      path: '/api/passwordstrength',
      resource: '/api/passwordstrength',
      ...headerMaps([name, 'h']),
      query: parseQuery(`${name}=q`) as Record<string, string[]>,
      body: null,
      sourceIp: '127.0.0.1',
    };
    for (const event of [authorizerEvent(request, 'r'), proxyEvent(request, 'r', {})]) {
      expect(Object.entries(event.queryStringParameters ?? {})).toEqual([[name, 'q']]);
      expect(Object.entries(event.multiValueQueryStringParameters ?? {})).toEqual([[name, ['q']]]);
      expect(Object.entries(event.headers ?? {})).toEqual([[name, 'h']]);
    }
    const other = PROTOTYPE_NAMES.find((n) => n !== name)!;
    expect(proxyEvent(request, 'r', {}).headers[other]).toBeUndefined();
    expect(proxyEvent(request, 'r', {}).queryStringParameters![other]).toBeUndefined();
  });

  it('is an unknown query parameter to a route reader (400), not one it has already read', () => {
    expect(() => readQueryParameters({ multiValueQueryStringParameters: { [name]: ['1'] } }, ['search'])).toThrow(
      expect.objectContaining({
        status: 400,
        phrase: `Unknown query parameter "${name}"; the only parameter is "search".`,
      }),
    );
  });
});

describe('readQueryParameters reads each allowed name once, whatever the name', () => {
  it('an allowed name shared with Object.prototype is read, not taken for a repeat', () => {
    const event = {
      multiValueQueryStringParameters: JSON.parse('{"constructor":["1"],"__proto__":["2"]}') as Record<
        string,
        string[]
      >,
    };
    expect(Object.entries(readQueryParameters(event, ['constructor', '__proto__']))).toEqual([
      ['constructor', '1'],
      ['__proto__', '2'],
    ]);
  });
});
