import { parseJobWrites } from './job-input';
import { mergeTargets, uidSecondaryIndex } from './merge-plan';

const writes = (jobs: Array<Record<string, unknown>>) => parseJobWrites(jobs, 'data.jobs');

describe('uidSecondaryIndex', () => {
  it('indexes the inputs that carry a uidSecondary; "", null and absent never match', () => {
    const index = uidSecondaryIndex(
      writes([{ uidSecondary: 'a' }, {}, { uidSecondary: '' }, { uidSecondary: null }, { uidSecondary: 'b' }]),
      false,
    );
    expect([...index]).toEqual([
      ['a', 0],
      ['b', 4],
    ]);
  });

  it('two inputs with one uidSecondary → invalid naming both indexes', () => {
    expect(() => uidSecondaryIndex(writes([{ uidSecondary: 'dup' }, { uidSecondary: 'x' }, { uidSecondary: 'dup' }]), false)).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        field: 'data.jobs[2].uidSecondary',
        rule: 'same uidSecondary as data.jobs[0]',
        message: 'data.jobs[2].uidSecondary: same uidSecondary as data.jobs[0]',
      }),
    );
  });

  it('templates never match (nor clash)', () => {
    expect(uidSecondaryIndex(writes([{ uidSecondary: 'dup' }, { uidSecondary: 'dup' }]), true).size).toBe(0);
  });
});

describe('mergeTargets', () => {
  it('pairs each existing job with the input carrying its key; the others are created', () => {
    const index = uidSecondaryIndex(writes([{ uidSecondary: 'a' }, { destinationName: 'new' }, { uidSecondary: 'b' }]), false);
    const existing = [
      { id: 'J2', uidSecondary: 'b' },
      { id: 'J9', uidSecondary: 'zzz' }, // not asked for: ignored
    ];
    expect([...mergeTargets(index, existing)]).toEqual([[2, { id: 'J2', uidSecondary: 'b' }]]);
    expect(mergeTargets(index, []).size).toBe(0);
  });
});
