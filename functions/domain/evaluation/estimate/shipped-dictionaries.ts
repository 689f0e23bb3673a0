import { DICTIONARY_BYTES } from '../data/guessability-dictionaries';
import { COMMON_PASSWORDS } from './attack-models';
import { readDictionaryFile } from './dictionary-file';

/** The evaluation's dictionaries (bundling/dictionaries.ts), viewed in place in guessability-dictionaries.bin. */
export const DICTIONARY_FILE = readDictionaryFile(DICTIONARY_BYTES);

/** Each dictionary by name, in zxcvbn-ts order: its words in rank order (the first is rank 1), ranks separated by tabs, words of one rank by `~`. */
export const DICTIONARIES: Readonly<Record<string, string>> = DICTIONARY_FILE.strings;

/** The common-password list's word ranks (attack-models.ts, wordRanks), counted by `npm run dictionaries`. */
export const COMMON_WORD_RANKS: Int32Array = DICTIONARY_FILE.tables[COMMON_PASSWORDS]!;
