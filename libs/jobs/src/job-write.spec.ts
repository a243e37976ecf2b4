import { DomainError } from '@app/core';
import { parseJobWrite } from './job-input';
import { applyJobWrite, changedProperties, newJobState } from './job-write';

const NOW = 1_800_000_000_000;
const base = () => newJobState({ id: 'J1', companyId: 'C1', isTemplate: false, createdBy: 'M1', createdVia: 'api', now: NOW - 1000 });
const write = (raw: Record<string, unknown>) => parseJobWrite(raw, 'data.jobs[0]');

describe('applyJobWrite', () => {
  it('changes only the fields sent', () => {
    const before = { ...base(), destinationName: 'Old', priority: 3 };
    const after = applyJobWrite(before, write({ priority: 7 }), undefined, NOW, 'data.jobs[0]');
    expect(after).toEqual({ ...before, priority: 7 });
    expect(before.priority).toBe(3); // not mutated
    expect(changedProperties(before, after)).toEqual(['priority']);
  });

  it('maps tsCheckNFC1/2 to their columns and "" / null uidSecondary to null', () => {
    const after = applyJobWrite(
      { ...base(), uidSecondary: 'x' },
      write({ tsCheckNFC1: 5, tsCheckNFC2: 6, uidSecondary: '' }),
      undefined,
      NOW,
      'p',
    );
    expect(after).toMatchObject({ tsCheckNfc1: 5, tsCheckNfc2: 6, uidSecondary: null });
    expect(applyJobWrite({ ...base(), uidSecondary: 'x' }, write({ uidSecondary: null }), undefined, NOW, 'p').uidSecondary).toBeNull();
  });

  it('one done timestamp clears the other', () => {
    const done = applyJobWrite({ ...base(), tsDoneFailed: 9 }, write({ tsDoneSuccess: 10 }), undefined, NOW, 'p');
    expect(done).toMatchObject({ tsDoneSuccess: 10, tsDoneFailed: 0 });
    const failed = applyJobWrite(done, write({ tsDoneFailed: 11 }), undefined, NOW, 'p');
    expect(failed).toMatchObject({ tsDoneSuccess: 0, tsDoneFailed: 11 });
  });

  it('reassignment stamps tsAssigned and clears acceptance/rejection; unassignment clears tsAssigned; same assignee changes nothing', () => {
    const assigned = { ...base(), workerId: 'W1', tsAssigned: 1, tsAccepted: 2, tsRejected: 3 };
    expect(applyJobWrite(assigned, write({}), 'W2', NOW, 'p')).toMatchObject({
      workerId: 'W2',
      tsAssigned: NOW,
      tsAccepted: 0,
      tsRejected: 0,
    });
    expect(applyJobWrite(assigned, write({ tsAccepted: 42 }), 'W2', NOW, 'p')).toMatchObject({ tsAccepted: 42 });
    expect(applyJobWrite(assigned, write({}), null, NOW, 'p')).toMatchObject({ workerId: null, tsAssigned: 0, tsAccepted: 2 });
    expect(applyJobWrite(assigned, write({}), 'W1', NOW, 'p')).toEqual(assigned);
  });

  it('customFields replaces the list, then custom_<name> sets or ("") removes entries; the first of a repeated key wins', () => {
    const before = { ...base(), customFields: [{ key: 'a', val: '1' }] };
    expect(applyJobWrite(before, write({ custom_b: '2' }), undefined, NOW, 'p').customFields).toEqual([
      { key: 'a', val: '1' },
      { key: 'b', val: '2' },
    ]);
    expect(applyJobWrite(before, write({ custom_a: '' }), undefined, NOW, 'p').customFields).toEqual([]);
    expect(
      applyJobWrite(
        before,
        write({
          customFields: [
            { key: 'x', val: '1' },
            { key: 'x', val: '2' },
          ],
          custom_a: '9',
        }),
        undefined,
        NOW,
        'p',
      ).customFields,
    ).toEqual([
      { key: 'x', val: '1' },
      { key: 'a', val: '9' },
    ]);
  });

  it('refuses more than 50 custom fields, naming <path>.customFields', () => {
    const before = { ...base(), customFields: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, val: 'v' })) };
    expect(() => applyJobWrite(before, write({ custom_one_more: 'v' }), undefined, NOW, 'data.jobs[4]')).toThrow(
      'data.jobs[4].customFields: at most 50 custom fields per job',
    );
  });

  it('merges extra_*_val into extra', () => {
    const after = applyJobWrite({ ...base(), extra: { extra_text_1_val: 'a' } }, write({ extra_number_2_val: 3.5 }), undefined, NOW, 'p');
    expect(after.extra).toEqual({ extra_text_1_val: 'a', extra_number_2_val: 3.5 });
  });

  it('checks the window on the merged state: an end before the start names <path>.windowEnd with field and rule', () => {
    let err: unknown;
    try {
      applyJobWrite({ ...base(), windowStart: 900 }, write({ windowEnd: 800 }), undefined, NOW, 'data.jobs.J1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      kind: 'invalid',
      field: 'data.jobs.J1.windowEnd',
      rule: 'must not be before windowStart (900)',
      message: 'data.jobs.J1.windowEnd: must not be before windowStart (900)',
    });
    expect(applyJobWrite({ ...base(), windowStart: 900 }, write({ windowEnd: 0 }), undefined, NOW, 'p').windowEnd).toBe(0);
  });
});

describe('parseJobWrite', () => {
  const error = (raw: unknown) => {
    try {
      parseJobWrite(raw, 'data.jobs[3]');
    } catch (e) {
      return e as DomainError;
    }
    throw new Error('no error');
  };

  it('answers the typed write with its path, pattern keys and the keys sent', () => {
    const w = parseJobWrite({ priority: 2, custom_color: 'red', extra_text_1_val: 'x' }, 'data.jobs.J1');
    expect(w).toMatchObject({ path: 'data.jobs.J1', custom: [['color', 'red']], extra: { extra_text_1_val: 'x' } });
    expect(w.fields.priority).toBe(2);
    expect(w.keys).toEqual(['priority', 'custom_color', 'extra_text_1_val']);
  });

  it('names the first broken rule as {field, rule}', () => {
    expect(error({ priority: 11 })).toMatchObject({
      kind: 'invalid',
      field: 'data.jobs[3].priority',
      rule: 'must not be greater than 10',
      message: 'data.jobs[3].priority: must not be greater than 10',
    });
    expect(error({ surprise: 1 })).toMatchObject({ field: 'data.jobs[3].surprise', rule: 'unknown field' });
    expect(error({ status: 'x' })).toMatchObject({ field: 'data.jobs[3].status', rule: 'is read-only' });
    expect(error({ extra_text_1_key: 'x' })).toMatchObject({ field: 'data.jobs[3].extra_text_1_key', rule: 'is read-only' });
    expect(error([])).toMatchObject({ field: 'data.jobs[3]', rule: 'must be an object of job fields' });
    expect(error({ tsDoneSuccess: 1, tsDoneFailed: 2 })).toMatchObject({ field: 'data.jobs[3].tsDoneFailed' });
  });
});
