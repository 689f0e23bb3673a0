import { BREACHED_PASSWORD_FILTER_BASE64 } from '../data/breached-password-filter';
import { readFilter } from './breached-passwords';

/**
 * The breached-password filter of the bundle, decoded once, at import; its bytes are then viewed in place. Apart
 * from breached-passwords.ts, which `npm run blocklist` uses to build the data this reads.
 */
export const BREACHED_PASSWORDS = readFilter(Buffer.from(BREACHED_PASSWORD_FILTER_BASE64, 'base64'));
