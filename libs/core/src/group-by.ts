/**
 * `items` grouped by `keyOf(item)`: keys in the order first seen, each group's items in input order
 * (Node 20 has no `Map.groupBy`; it came with Node 21).
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
