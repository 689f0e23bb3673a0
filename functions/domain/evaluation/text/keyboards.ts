/** Keyboards as graphs of neighbouring keys, for the walks the pattern caps and the walk model find. */

/** zxcvbn-ts's adjacency graphs: each key, its neighbours in a fixed order of directions, as strings of the key and its shifted character. */
export type AdjacencyGraph = Readonly<Record<string, readonly (string | null)[]>>;

/**
 * The graphs in which two characters are on one key or neighbouring keys, shifted or not: bit i for the i-th
 * graph given, 0 for none. A walk keeps to one keyboard, so a run is followed through the graphs all its steps share.
 */
export type Adjacency = (a: string, b: string) => number;

export function adjacencyOf(graphs: readonly AdjacencyGraph[]): Adjacency {
  const perGraph = graphs.map((graph) => {
    const keyOf = new Map<string, string>();
    const neighbours = new Map<string, Set<string>>();
    for (const [key, around] of Object.entries(graph)) {
      for (const ch of key) keyOf.set(ch, key[0]!);
      for (const neighbour of around) if (neighbour) for (const ch of neighbour) keyOf.set(ch, neighbour[0]!);
    }
    for (const [key, around] of Object.entries(graph)) {
      neighbours.set(keyOf.get(key[0]!)!, new Set(around.filter((n): n is string => n !== null).map((n) => n[0]!)));
    }
    return { keyOf, neighbours };
  });
  return (a, b) =>
    perGraph.reduce((graphs, { keyOf, neighbours }, i) => {
      const [x, y] = [keyOf.get(a), keyOf.get(b)];
      return x !== undefined && y !== undefined && (x === y || neighbours.get(x)!.has(y)) ? graphs | (1 << i) : graphs;
    }, 0);
}
