/** A header as sent: its name, in the case given, and its value. */
export type Header = readonly [string, string];

/** A user's credential headers, UserID then APIKey, under these names (or others, to try their case). */
export const userAndKey = (userId: string, apiKey: string, [userName, keyName] = ['UserID', 'APIKey']): Header[] => [
  [userName, userId],
  [keyName, apiKey],
];
