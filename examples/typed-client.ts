/**
 * A typed client of the API, as an integrator writes one (docs/api.md#a-typed-client): the types are
 * generated from docs/openapi.json by openapi-typescript (examples/openapi-types.ts, `npm run openapi`), and
 * openapi-fetch checks every path, parameter, body and answer against them at compile time. It calls every
 * operation once, prints one line for each, and exits 1 on any answer it did not expect.
 *
 *   PP_BASE_URL=http://127.0.0.1:3000 PP_USER_ID=... PP_USER_KEY=... PP_GENERATOR_KEY=... PP_STRENGTH_KEY=... \
 *     npx tsx examples/typed-client.ts
 *
 * It imports nothing of this project but the generated types: it is what a client in another repository is.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi-types';

/**
 * An error answer as openapi-fetch types it: the envelope of components['schemas']['ErrorEnvelope'], whose
 * `[message, phrase]` pair it widens to an array of either (the union of every error status's body).
 */
type ErrorEnvelope = readonly { readonly errors: readonly ({ message: string } | { phrase: string })[] }[];

/** The phrase of an error answer: what is wrong and what to do. */
function phraseOf(error: ErrorEnvelope | undefined): string {
  const phrase = error?.[0]?.errors.find((item): item is { phrase: string } => 'phrase' in item);
  return phrase?.phrase ?? '(no error body)';
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

async function main(): Promise<void> {
  const baseUrl = setting('PP_BASE_URL');
  // One client per credential: each kind of key opens only its own paths.
  const asUser = createClient<paths>({
    baseUrl,
    headers: { UserID: setting('PP_USER_ID'), APIKey: setting('PP_USER_KEY') },
  });
  const asGenerator = createClient<paths>({ baseUrl, headers: { APIKey: setting('PP_GENERATOR_KEY') } });
  const asStrength = createClient<paths>({ baseUrl, headers: { APIKey: setting('PP_STRENGTH_KEY') } });
  const lines: string[] = [];
  const fail = (what: string, status: number, error?: ErrorEnvelope) => {
    throw new Error(`${what}: ${status} ${phraseOf(error)}`);
  };

  {
    const { data, error, response } = await asUser.GET('/userapi/passwordgenerator', {
      params: { query: { search: 'default' } },
    });
    if (!data) return fail('GET /userapi/passwordgenerator', response.status, error);
    lines.push(
      `GET /userapi/passwordgenerator?search=default: ${response.status}, ${data.map((p) => `${p.PasswordGeneratorID} ${p.GeneratorName}`).join('; ')}`,
    );
    // Revalidation: the ETag of that answer, sent back, is a 304 with no body while nothing changed.
    const etag = response.headers.get('ETag') ?? '';
    const again = await asUser.GET('/userapi/passwordgenerator', {
      params: { query: { search: 'default' }, header: { 'If-None-Match': etag } },
    });
    lines.push(`GET /userapi/passwordgenerator?search=default with If-None-Match: ${again.response.status}`);
  }
  {
    const { data, error, response } = await asGenerator.GET('/api/passwordgenerator');
    if (!data) return fail('GET /api/passwordgenerator', response.status, error);
    lines.push(`GET /api/passwordgenerator: ${response.status}, ${data.length} generator policies`);
  }
  {
    const { data, error, response } = await asStrength.GET('/api/passwordstrength');
    if (!data) return fail('GET /api/passwordstrength', response.status, error);
    lines.push(
      `GET /api/passwordstrength: ${response.status}, ${data.length} strength policies, the first "${data[0]?.PolicyName}"`,
    );
  }
  {
    const { data, error, response } = await asUser.GET('/userapi/generatepassword', {
      params: { query: { PasswordGeneratorID: 1, Qty: 2 } },
    });
    if (!data) return fail('GET /userapi/generatepassword', response.status, error);
    lines.push(
      `GET /userapi/generatepassword?PasswordGeneratorID=1&Qty=2: ${response.status}, ${data.length} passwords`,
    );
  }
  {
    // Settings are typed too: booleans as booleans, lengths as numbers.
    const query = {
      minLength: 20,
      maxLength: 20,
      Qty: 3,
      IncludeAlphaSpecial: true,
      IncludeWordPhrases: false,
      GeneratePattern: false,
      specialChars: false,
    };
    const { data, error, response } = await asGenerator.GET('/api/generatepassword', { params: { query } });
    if (!data) return fail('GET /api/generatepassword', response.status, error);
    lines.push(
      `GET /api/generatepassword (20 characters, no symbols): ${response.status}, lengths ${data.map((p) => [...p.Password].length).join(', ')}`,
    );
  }
  {
    // The document's own request example: PasswordStrengthPolicyID is optional, so this type-checks.
    const { data, error, response } = await asStrength.POST('/api/passwordstrength/evaluate', {
      body: { Password: 'password1' },
    });
    if (!data) return fail('POST /api/passwordstrength/evaluate', response.status, error);
    const rules = data.Failures.map((f) => f.Rule).join(', ') || 'none';
    lines.push(
      `POST /api/passwordstrength/evaluate {"Password":"password1"}: ${response.status}, ${data.ComplianceLevelName}, compliant ${data.Compliant}, failures ${rules}`,
    );
  }
  {
    // In context: what the client knows of the password's owner goes in UserInputs; a password built on it fails UserInput.
    // Accept-Language picks the language of the Messages and Suggestions shown to the user; nothing else changes.
    const body = { Password: 'Jsmith2026!x', UserInputs: ['jsmith', 'John Smith', 'jsmith@acme.example'] };
    const { data, error, response } = await asStrength.POST('/api/passwordstrength/evaluate', {
      body,
      params: { header: { 'Accept-Language': 'de-CH, de;q=0.9, en;q=0.5' } },
    });
    if (!data) return fail('POST /api/passwordstrength/evaluate (UserInputs)', response.status, error);
    // The Rule is a typed union: a misspelt rule name would not compile.
    const builtOnUser = data.Failures.find((f) => f.Rule === 'UserInput');
    lines.push(
      `POST /api/passwordstrength/evaluate {"Password":"${body.Password}","UserInputs":[3 strings]}: ${response.status}, ${data.ComplianceLevelName}, compliant ${data.Compliant}, built on the user's name ${builtOnUser !== undefined}`,
      `  Content-Language ${response.headers.get('Content-Language')}: ${builtOnUser?.Message}`,
    );
  }
  {
    // An error is typed as the envelope: its phrase says what is wrong.
    const { data, error, response } = await asStrength.POST('/api/passwordstrength/evaluate', {
      body: { PasswordStrengthPolicyID: 999, Password: 'password1' },
    });
    if (data || response.status !== 404)
      return fail('POST /api/passwordstrength/evaluate (no such policy)', response.status, error);
    lines.push(`POST /api/passwordstrength/evaluate (policy 999): ${response.status}, "${phraseOf(error)}"`);
  }
  for (const line of lines) console.log(line);
}

/** What the types refuse; tsc fails if any of these ever compiles (the types would then not be checking anything). */
export function refusedByTheTypes(client: ReturnType<typeof createClient<paths>>): void {
  // @ts-expect-error Password is required.
  void client.POST('/api/passwordstrength/evaluate', { body: { PasswordStrengthPolicyID: 1 } });
  // @ts-expect-error UserInputs is an array of strings, not one string.
  void client.POST('/api/passwordstrength/evaluate', { body: { Password: 'Jsmith2026!x', UserInputs: 'jsmith' } });
  // @ts-expect-error Qty is a number, not a string.
  void client.GET('/api/generatepassword', { params: { query: { Qty: '2' } } });
  // @ts-expect-error No such path.
  void client.GET('/api/passwords');
  // @ts-expect-error The evaluation is a POST.
  void client.GET('/api/passwordstrength/evaluate');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
