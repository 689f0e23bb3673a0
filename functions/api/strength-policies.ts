import { strengthPolicies } from '../domain/strength-policy';
import { policyListHandler } from './policy-listing';

/** The function of GET /api/passwordstrength[?search=text]. */
export const handler = policyListHandler(strengthPolicies);
