import {
  credentialsTreatedAsExpired,
  credentialsWillNeedRefresh,
  defaultProvider,
} from '../../bundling/sdk-credentials-from-env';

describe('the environment-only credential provider of the Lambda bundles', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('returns the credentials Lambda puts in the environment', async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
    });
    await expect(defaultProvider()()).resolves.toMatchObject({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
  });

  it('fails clearly when the environment holds none, rather than search other sources', async () => {
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    await expect(defaultProvider()()).rejects.toThrow(/environment/i);
  });

  it('keeps the real package semantics of its two helpers', () => {
    expect(credentialsWillNeedRefresh({})).toBe(false);
    expect(credentialsWillNeedRefresh({ expiration: new Date() })).toBe(true);
    expect(credentialsTreatedAsExpired({ expiration: new Date(Date.now() + 60_000) })).toBe(true);
    expect(credentialsTreatedAsExpired({ expiration: new Date(Date.now() + 600_000) })).toBe(false);
  });
});
