/** The header maps of an API Gateway REST (v1) event: single values, and every value of repeated headers. */
export interface EventHeaders {
  readonly headers?: Record<string, string | undefined> | null;
  readonly multiValueHeaders?: Record<string, string[] | undefined> | null;
}

/**
 * Every value a request sent for one header, matched case-insensitively (HTTP header names are), in order.
 * multiValueHeaders holds them all; headers is read only when an event carries no multi-value map.
 */
export function headerValues(event: EventHeaders, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) if (key.toLowerCase() === wanted) values.push(...(list ?? []));
  if (values.length > 0) return values;
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted && value !== undefined) values.push(value);
  return values;
}
