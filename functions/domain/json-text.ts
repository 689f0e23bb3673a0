/**
 * A JSON text's member names, as JSON.parse does not report them: a name given twice in one object is read
 * as its last value, silently. The one scanner of the evaluation's body (functions/http.ts, a 400 quoting
 * nothing) and of the policy files, the manifest and the seed files (store/policy-json.ts, which names the
 * member and where it is).
 */

/** A step of a JSONPath: a member's name, or an element's index. */
type Step = string | number;

/** A name given twice in one object: the name, decoded, and the path of the object that gives it twice. */
export interface RepeatedName {
  /** As decoded: `"Pass\u0077ord"` is `Password`. */
  readonly name: string;
  /** From the top-level value down to the object: [] is the top-level object, [1] the second element of a top-level array. */
  readonly path: readonly Step[];
}

/**
 * The first name an object of a JSON text gives twice, at any depth, in the order of the text; undefined when
 * none does. The text is valid JSON (JSON.parse read it), so a scan of its strings and brackets finds every
 * name: a string right after `{` or after a comma inside an object. Each name is decoded by JSON.parse itself,
 * so `"Pass\u0077ord"` is `Password`. Hand-written: jsonc-parser, which would do, is not tree-shaken out of the
 * bundles that read no body.
 */
export function repeatedName(text: string): RepeatedName | undefined {
  // The open containers, innermost last: an object's names so far and the member whose value is being read, or an array's index.
  const open: ({ names: Set<string>; member: string } | { index: number })[] = [];
  let atName = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const object = open.at(-1);
      if (atName && object !== undefined && 'names' in object) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (object.names.has(name))
          return { name, path: open.slice(0, -1).map((outer) => ('names' in outer ? outer.member : outer.index)) };
        object.names.add(name);
        object.member = name;
      }
      atName = false;
      i = end;
    } else if (c === '{') {
      open.push({ names: new Set(), member: '' });
      atName = true;
    } else if (c === '[') {
      open.push({ index: 0 });
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      // In an array a comma starts the next element; in an object, the next member's name.
      const container = open.at(-1);
      if (container !== undefined && 'index' in container) container.index += 1;
      else atName = true;
    }
  }
  return undefined;
}
