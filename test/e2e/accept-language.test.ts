/**
 * The evaluation's language under Accept-Language, over HTTP through the local gateway (`npm start` in a child
 * process, on dynalite): German, French and Spanish answers written out; weights, ranges, `*`, unknown, malformed,
 * overlong and repeated headers; Content-Language and Vary on every evaluation; the same answer but for its sentences
 * in every language; errors and the listings the same whatever the language asked.
 */
import { errorEnvelope } from '../../functions/http';
import { LANGUAGES } from '../../functions/domain/evaluation';
import { rawRequest, type RawResponse } from '../support/http-client';
import { useLocalService } from '../support/local-service';
import { LOCAL_CREDENTIALS } from '../support/seed-reference';

const PATH = '/api/passwordstrength/evaluate';
const STRENGTH_KEY: [string, string] = ['APIKey', LOCAL_CREDENTIALS.passwordStrengthAPIKey];
const JSON_BODY: [string, string] = ['Content-Type', 'application/json'];
/** Against policy 3 (every minimum 2): four composition failures, breached, and four suggestions. */
const BODY = JSON.stringify({ PasswordStrengthPolicyID: 3, Password: 'password1' });

const local = useLocalService();

const evaluate = (languages: readonly string[], body = BODY): Promise<RawResponse> =>
  rawRequest(
    local.service.url,
    'POST',
    PATH,
    [STRENGTH_KEY, JSON_BODY, ...languages.map((value): [string, string] => ['Accept-Language', value])],
    20_000,
    body,
  );
interface Answer {
  readonly Failures: readonly { readonly Rule: string; readonly Message: string }[];
  readonly Suggestions: readonly string[];
}
const sentencesOf = (response: RawResponse) => {
  const { Failures, Suggestions } = JSON.parse(response.body) as Answer;
  return { Messages: Failures.map((f) => f.Message), Suggestions };
};
/** The answer's language, and that it says Accept-Language chose it. */
const languageOf = (response: RawResponse) => ({
  status: response.status,
  language: response.headers['content-language'],
  vary: response.headers.vary,
});
const inLanguage = (language: string) => ({ status: 200, language, vary: 'Accept-Language' });

describe('an answer in the language asked for', () => {
  it.each([
    [
      'de',
      {
        Messages: [
          'Mindestens 2 Ziffern sind erforderlich; das Passwort enthält 1.',
          'Mindestens 2 Sonderzeichen sind erforderlich; das Passwort enthält 0.',
          'Mindestens 2 Großbuchstaben sind erforderlich; das Passwort enthält 0.',
          'Groß- und Kleinbuchstaben sind erforderlich; das Passwort enthält nur Kleinbuchstaben.',
          'Dieses Passwort steht in Listen kompromittierter Passwörter.',
        ],
        Suggestions: [
          'Verwenden Sie 32 Zeichen oder mehr.',
          'Ein gängiges Wort oder eine gängige Zeichenfolge mit ersetzten Buchstaben, mit Ziffern, einer Jahreszahl oder ein paar Sonderzeichen davor oder dahinter ist leicht zu erraten.',
          'Dies ist ein häufig verwendetes Passwort.',
          'Fügen Sie weitere, weniger gängige Wörter hinzu.',
        ],
      },
    ],
    [
      'fr',
      {
        Messages: [
          'Au moins 2 chiffres sont requis\u00a0; le mot de passe en contient 1.',
          'Au moins 2 caractères spéciaux sont requis\u00a0; le mot de passe en contient 0.',
          'Au moins 2 lettres majuscules sont requises\u00a0; le mot de passe en contient 0.',
          'Des majuscules et des minuscules sont requises\u00a0; le mot de passe ne contient que des minuscules.',
          'Ce mot de passe figure dans des listes de mots de passe compromis.',
        ],
        Suggestions: [
          'Utilisez 32 caractères ou plus.',
          'Un mot ou une suite de caractères courante, avec des lettres remplacées, des chiffres, une année ou quelques symboles autour, est facile à deviner.',
          'Ce mot de passe est répandu.',
          "Ajoutez d'autres mots moins courants.",
        ],
      },
    ],
    [
      'es',
      {
        Messages: [
          'Se requieren al menos 2 números; la contraseña tiene 1.',
          'Se requieren al menos 2 símbolos; la contraseña tiene 0.',
          'Se requieren al menos 2 letras mayúsculas; la contraseña tiene 0.',
          'Se requieren mayúsculas y minúsculas; la contraseña solo tiene minúsculas.',
          'Esta contraseña aparece en listas de contraseñas filtradas.',
        ],
        Suggestions: [
          'Usa 32 caracteres o más.',
          'Una palabra o secuencia común con letras sustituidas, con números, un año o unos pocos símbolos alrededor es fácil de adivinar.',
          'Esta es una contraseña de uso común.',
          'Añade más palabras poco comunes.',
        ],
      },
    ],
  ])('%s', async (language, sentences) => {
    const response = await evaluate([language]);
    expect(languageOf(response)).toEqual(inLanguage(language));
    expect(sentencesOf(response)).toEqual(sentences);
  });

  it('the same answer in every language but for its sentences, byte for byte, and as many of them', async () => {
    const withoutSentences = (response: RawResponse) =>
      response.body.replace(
        /"(Message|Suggestions)":("(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*",?)*\])/g,
        (_, name, value: string) =>
          name === 'Message' ? '"Message":…' : `"Suggestions":${(JSON.parse(value) as string[]).length}`,
      );
    const answers = await Promise.all(LANGUAGES.map((language) => evaluate([language])));
    expect(answers.map(languageOf)).toEqual(LANGUAGES.map(inLanguage));
    const english = withoutSentences(answers[0]!);
    expect(english).toContain('"Rule":"MinimumNumericCharacters","Required":2,"Found":1,"Message":…');
    expect(english).toContain('"Suggestions":4');
    for (const answer of answers) expect(withoutSentences(answer)).toBe(english);
    expect(new Set(answers.map((a) => a.body)).size).toBe(LANGUAGES.length);
  });
});

describe('negotiation', () => {
  it.each([
    [['de;q=0.3, fr;q=0.9, es;q=0.5'], 'fr'],
    [['pt-BR, pt;q=0.9, en;q=0.8'], 'pt'],
    [['de-CH'], 'de'],
    [['ja, nl;q=0.2'], 'nl'],
    [['*'], 'en'],
    [['it;q=0.5, *;q=0.1'], 'it'],
    [['en;q=0, *'], 'de'],
    [['pl;q=0'], 'en'],
    [['ja'], 'en'],
    [['zh-Hant-TW'], 'en'],
    [['de;q=2'], 'en'],
    [['__proto__, de'], 'en'],
    [['constructor'], 'en'],
    [['de;q=0.5', 'fr'], 'fr'],
    [['de,'.repeat(2_000)], 'en'],
    [[], 'en'],
  ])('Accept-Language %j: %s', async (headers, language) => {
    expect(languageOf(await evaluate(headers))).toEqual(inLanguage(language));
  });
});

describe('what the language never changes', () => {
  it('an error: English phrases, and no Content-Language or Vary', async () => {
    for (const [body, status, phrase] of [
      [
        JSON.stringify({ PasswordStrengthPolicyID: 77, Password: 'password1' }),
        404,
        'No password strength policy has PasswordStrengthPolicyID 77.',
      ],
      [JSON.stringify({ Password: '' }), 400, 'Password must not be empty.'],
    ] as const) {
      const response = await evaluate(['de'], body);
      expect({ ...languageOf(response), body: response.body }).toEqual({
        status,
        language: undefined,
        vary: undefined,
        body: errorEnvelope(status, phrase),
      });
    }
  });

  it('a policy listing: the same body and ETag, no Content-Language or Vary', async () => {
    const list = (headers: [string, string][]) =>
      rawRequest(local.service.url, 'GET', '/api/passwordstrength', [STRENGTH_KEY, ...headers]);
    const [plain, german] = [await list([]), await list([['Accept-Language', 'de']])];
    expect(german.status).toBe(200);
    expect({ body: german.body, etag: german.headers.etag }).toEqual({ body: plain.body, etag: plain.headers.etag });
    expect([german.headers['content-language'], german.headers.vary]).toEqual([undefined, undefined]);
  });
});
