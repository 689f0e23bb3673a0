/** What the local gateway's request line shows of a request target: never a key, never a query value. */
import { issueKey } from '../../functions/domain/api-key';
import { loggedTarget } from '../../local/request-log';

const { key } = issueKey('strength');

describe('loggedTarget', () => {
  it.each([
    [`/api/passwordstrength/${key}`, '/api/passwordstrength/[redacted]'],
    [`/api/passwordstrength/${key}/`, '/api/passwordstrength/[redacted]/'],
    [`/${key}/passwordstrength`, '/[redacted]/passwordstrength'],
    // Percent-encoded, or inside a longer segment, it is still a key.
    [`/api/passwordstrength/${key.replace(/_/g, '%5F')}`, '/api/passwordstrength/[redacted]'],
    [`/api/passwordstrength/APIKey=${key}x`, '/api/passwordstrength/[redacted]'],
    [`/api/passwordstrength/${key}?search=x`, '/api/passwordstrength/[redacted]?[other]'],
  ])('redacts the key segment of %s', (target, shown) => {
    expect(loggedTarget(target)).toBe(shown);
  });

  it('shows a path without a key as it is, and the route’s query names only', () => {
    expect(loggedTarget('/api/passwordstrength/evaluate')).toBe('/api/passwordstrength/evaluate');
    expect(loggedTarget('/api/passwordstrength/pps_not-a-key')).toBe('/api/passwordstrength/pps_not-a-key');
    expect(loggedTarget(`/api/passwordstrength/?SEARCH=${key}&${key}=1`)).toBe('/api/passwordstrength/?SEARCH&[other]');
    expect(loggedTarget('/api/passwordstrength?')).toBe('/api/passwordstrength?');
  });
});
