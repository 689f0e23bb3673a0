import type { RawResponse } from './http-client';

/*
 * What the service answers, written out from the API description (docs/api.md) for the end-to-end tests to
 * compare with.
 */

/** The failure of a password found in lists of breached passwords (offline or by the Pwned Passwords check). */
export const BREACHED_PASSWORD_FAILURE = {
  Rule: 'BreachedPassword',
  Required: 0,
  Found: 1,
  Message: 'This password appears in lists of breached passwords.',
};

/** A 200 in JSON that no cache may keep, as the two password endpoints answer: its status and headers. */
export function expectNoStoreJson(response: Pick<RawResponse, 'status' | 'headers'>): void {
  expect({
    status: response.status,
    type: response.headers['content-type'],
    cache: response.headers['cache-control'],
  }).toEqual({
    status: 200,
    type: 'application/json; charset=utf-8',
    cache: 'no-store',
  });
}
