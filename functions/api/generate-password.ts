import { generatorPolicies } from '../domain/generator-policy';
import { generatePasswordsHandler } from '../handlers/generate-password-handler';
import { instrumented } from '../observability';
import { catalogFromEnvironment } from './policy-function';

/** Route-bound function of /userapi/generatepassword (routes.ts): reads only the generator policy table. */
const catalog = catalogFromEnvironment(generatorPolicies);

export const generatePasswords = generatePasswordsHandler(catalog);
export const handler = instrumented(generatePasswords);
