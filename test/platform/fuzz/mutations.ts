import fc from 'fast-check';

/** Nesting deeper than anything we accept (the envelope refuses depth > 32). */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Strings that have broken servers: NUL bytes, lone surrogates, huge, odd encodings, injections. */
export const nastyStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\ud83d\ude00',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '%00',
    '%',
    "'; DROP TABLE jobs;--",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    'null',
    'true',
    '0',
    '-1',
    '1e400',
    'NaN',
    '2024-02-30',
    '2030-13-01',
    '20240230',
    '24:61',
    '25:00',
    '2030-01-15T25:00:00Z',
    'yesterday',
    'tpl-1',
    '\r\n',
    '\\',
    '"',
    'x'.repeat(65),
    'x'.repeat(255),
    'é'.repeat(2001),
    'a'.repeat(10_001),
    'a'.repeat(100_000),
  ),
  fc.string({ maxLength: 30, unit: 'binary' }),
);

/** Values of the wrong type, out of range, huge or deep. */
export const nastyValues: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    0.1,
    -1e-9,
    2147483647,
    2147483648,
    -2147483649,
    2 ** 53,
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    99999999,
    20240230,
    19691231,
    2400,
    2401,
    1440,
    -90.0001,
    180.5,
  ),
  fc.constantFrom([], {}, [null], [[]], [{}], { '': 1 }),
  fc.constant(Array.from({ length: 1_001 }, () => ({}))),
  fc.constant(Array.from({ length: 10_001 }, (_, i) => i)),
  fc.constant(nested(100, 'array')),
  fc.constant(nested(100, 'object')),
  fc.integer(),
  fc.double(),
);

/** Extra keys: prototype names, our patterned keys, odd characters. */
export const nastyKeys: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'custom_x',
    'custom_',
    `custom_${'a'.repeat(41)}`,
    'extra_text_1_val',
    'extra_number_5_val',
    'id',
    'status',
    'tsAssigned',
    'createdAt',
    'a\u0000b',
    '\ud800',
    '',
    'k'.repeat(1000),
  ),
  fc.string({ minLength: 1, maxLength: 10 }),
);

type Path = Array<string | number>;

/** Every node of a JSON value with its path (the root is `[]`), at most `limit` of them. */
export function nodesOf(value: unknown, limit = 300): Array<{ path: Path; value: unknown }> {
  const out: Array<{ path: Path; value: unknown }> = [];
  const walk = (v: unknown, path: Path) => {
    if (out.length >= limit) return;
    out.push({ path, value: v });
    if (Array.isArray(v)) v.slice(0, 50).forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v).slice(0, 50)) walk(x, [...path, k]);
  };
  walk(value, []);
  return out;
}

function parentOf(root: unknown, path: Path): unknown {
  let v = root;
  for (const p of path.slice(0, -1)) v = (v as Record<string | number, unknown>)[p];
  return v;
}

/** One change to a request value: which node (`pick` modulo the node count), what, with what. */
export interface Mutation {
  kind: 'replace' | 'delete' | 'add' | 'wrap';
  pick: number;
  key: string;
  value: unknown;
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation['kind']>('replace', 'replace', 'replace', 'delete', 'add', 'add', 'wrap'),
  pick: fc.nat(),
  key: nastyKeys,
  value: nastyValues,
});

/**
 * Applies mutations to a copy of `value`: replace a node with a wrong, huge or deep value; delete
 * a key (required ones included); add an unknown key (prototype names included); wrap a node in an
 * array. Keys are set with `defineProperty`, so `__proto__` becomes a real own key, as JSON.parse
 * on the server makes it.
 */
export function applyMutations(value: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(value);
  for (const m of mutations) {
    const nodes = nodesOf(root);
    const target = nodes[m.pick % nodes.length];
    const replacement = structuredClone(m.value);
    const set = (v: unknown) => {
      if (target.path.length === 0) root = v;
      else Object.defineProperty(parentOf(root, target.path), target.path[target.path.length - 1], { value: v, enumerable: true, writable: true, configurable: true });
    };
    switch (m.kind) {
      case 'replace':
        set(replacement);
        break;
      case 'wrap':
        set([target.value]);
        break;
      case 'delete': {
        const objects = nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value) && Object.keys(n.value).length);
        if (!objects.length) break;
        const o = objects[m.pick % objects.length].value as Record<string, unknown>;
        const keys = Object.keys(o);
        delete o[keys[m.pick % keys.length]];
        break;
      }
      case 'add': {
        const objects = nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value));
        if (!objects.length) break;
        Object.defineProperty(objects[m.pick % objects.length].value as object, m.key, {
          value: replacement,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        break;
      }
      default:
        break;
    }
  }
  return root;
}

/** A valid value (sometimes) or a mutated one (mostly). */
export function mutated<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: valid, weight: 5 },
    {
      arbitrary: fc.tuple(valid, fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 })).map(([v, ms]) => applyMutations(v, ms)),
      weight: 5,
    },
  );
}
