import { generatorPolicies } from '../domain/generator-policy';
import { policyListHandler } from './policy-listing';

/** The function of GET /userapi/passwordgenerator[?search=text] and /api/passwordgenerator[?search=text]. */
export const handler = policyListHandler(generatorPolicies);
