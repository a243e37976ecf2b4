import { FieldIssue } from '@app/core';
import fc from 'fast-check';
import { isScannedPlain, unstorableIssue } from './request-context';

const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The scan as it was written first (a path string built for every value): the oracle of the property below. */
function reference(value: unknown, path: string, maxDepth = 32): FieldIssue | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { field: path, rule: 'must not contain the NUL character' };
    return LONE_SURROGATE.test(value) ? { field: path, rule: 'must be well-formed Unicode: it holds a lone surrogate' } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (maxDepth === 0) return { field: path, rule: 'nested too deeply' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = reference(value[i], `${path}[${i}]`, maxDepth - 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return { field: path, rule: 'a key must not contain the NUL character' };
    if (PROTOTYPE_KEYS.has(k)) return { field: `${path}.${k}`, rule: 'unknown field' };
    const p = reference(v, `${path}.${k}`, maxDepth - 1);
    if (p) return p;
  }
  return null;
}

describe('unstorableIssue', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('a\u0000b', '\uD800', 'x\uDC00', '🚚', 'Kovač', ''),
  );
  const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('toString', '__proto__', 'constructor', 'prototype', 'k\u0000', 'jobs'));
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    ),
  }));

  it('names the same first issue as a scan building every path (property, fixed seed; depth limits 3 and 32)', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom(3, 32), (value, depth) => {
        // JSON.parse makes `__proto__` an own key, as a request body's parser does
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(unstorableIssue(parsed, 'data', depth)).toEqual(reference(parsed, 'data', depth));
      }),
      { seed: 20261129, numRuns: 3000 },
    );
  });

  it('spells out the path of an issue deep inside', () => {
    const data = JSON.parse('{"jobs":[{"a":1},{"customFields":[{"key":"gate","val":"x\\u0000"}]}]}') as unknown;
    expect(unstorableIssue(data, 'data')).toEqual({ field: 'data.jobs[1].customFields[0].val', rule: 'must not contain the NUL character' });
    expect(isScannedPlain(data)).toBe(false);
  });

  it('remembers an object found plain, and only that object', () => {
    const data = JSON.parse('{"jobs":[{"destinationName":"Potočnik"}]}') as unknown;
    expect(unstorableIssue(data, 'data')).toBeNull();
    expect(isScannedPlain(data)).toBe(true);
    expect(isScannedPlain(JSON.parse('{"jobs":[{"destinationName":"Potočnik"}]}'))).toBe(false);
  });
});
