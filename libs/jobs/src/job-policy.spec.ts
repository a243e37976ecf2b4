import { mayCallAction } from '@app/core';
import { JOB_ACTION_ROLES, WORKER_JOB_FIELDS, workerJobEditDenial } from './job-policy';

describe('JOB_ACTION_ROLES (CONTRACTS.md role table)', () => {
  type Row = [keyof typeof JOB_ACTION_ROLES, administrator: boolean, operator: boolean, worker: boolean];
  const table: Row[] = [
    ['getjobs', true, true, true],
    ['createjobs', true, true, false],
    ['deletejobs', true, true, false],
    ['archivejobs', true, true, false],
    ['restorejobs', true, true, false],
    ['editjobs', true, true, true],
  ];

  it.each(table)('%s: administrator %p, operator %p, worker %p', (action, a, o, w) => {
    expect(mayCallAction(JOB_ACTION_ROLES, 'administrator', action)).toBe(a);
    expect(mayCallAction(JOB_ACTION_ROLES, 'operator', action)).toBe(o);
    expect(mayCallAction(JOB_ACTION_ROLES, 'worker', action)).toBe(w);
  });

  it('covers exactly the actions of the slice', () => {
    expect(table.map(([action]) => action).sort()).toEqual(Object.keys(JOB_ACTION_ROLES).sort());
  });
});

describe('workerJobEditDenial (CONTRACTS.md "Roles", editjobs)', () => {
  const today = 20261123;
  const worker = { id: 'w1', role: 'worker' as const };
  const strict = { workers_edit_job: false };
  const lenient = { workers_edit_job: true };
  const own = (day = today) => ({ workerId: 'w1', day, isTemplate: false });

  it('lets staff edit any job, any field, any day, templates too', () => {
    for (const role of ['operator', 'administrator'] as const) {
      const actor = { id: 'staff', role };
      expect(workerJobEditDenial(actor, strict, { workerId: 'w2', day: 20200101, isTemplate: true }, ['worker', 'day'], today)).toBeNull();
      expect(workerJobEditDenial(actor, strict, { workerId: null, day: 0, isTemplate: false }, ['priority'], today)).toBeNull();
    }
  });

  it('lets a worker write its fields on its own job of today or an undated one', () => {
    const keys = [...WORKER_JOB_FIELDS, 'extra_number_1_val', 'extra_text_4_val', 'custom_colour'];
    expect(workerJobEditDenial(worker, strict, own(), keys, today)).toBeNull();
    expect(workerJobEditDenial(worker, strict, own(0), keys, today)).toBeNull();
    expect(workerJobEditDenial(worker, strict, own(), [], today)).toBeNull();
  });

  it('is exactly the list of CONTRACTS.md', () => {
    expect([...WORKER_JOB_FIELDS].sort()).toEqual(
      [
        'tsAccepted',
        'tsRejected',
        'tsDoneSuccess',
        'tsDoneFailed',
        'tsCheckIn',
        'tsCheckOut',
        'tsCheckNFC1',
        'tsCheckNFC2',
        'textReceiver',
      ].sort(),
    );
  });

  it('refuses templates, other members’ jobs and unassigned jobs', () => {
    expect(workerJobEditDenial(worker, lenient, { ...own(), isTemplate: true }, ['tsAccepted'], today)).toBe(
      'a worker may not edit templates',
    );
    expect(workerJobEditDenial(worker, lenient, { ...own(), workerId: 'w2' }, ['tsAccepted'], today)).toBe(
      'a worker may edit only its own jobs',
    );
    expect(workerJobEditDenial(worker, lenient, { ...own(), workerId: null }, ['tsAccepted'], today)).toBe(
      'a worker may edit only its own jobs',
    );
  });

  it('refuses another day’s job unless the company enables workers_edit_job', () => {
    for (const day of [today - 1, today + 1, 20300101]) {
      expect(workerJobEditDenial(worker, strict, own(day), ['tsAccepted'], today)).toBe(
        'a worker may edit only jobs of today unless the company enables workers_edit_job',
      );
      expect(workerJobEditDenial(worker, lenient, own(day), ['tsAccepted'], today)).toBeNull();
    }
  });

  it('names the first field a worker may not change', () => {
    expect(workerJobEditDenial(worker, lenient, own(), ['tsAccepted', 'priority', 'worker'], today)).toBe(
      'priority: a worker may not change it',
    );
    expect(workerJobEditDenial(worker, lenient, own(), ['extra_number_5_val'], today)).toBe(
      'extra_number_5_val: a worker may not change it',
    );
    expect(workerJobEditDenial(worker, lenient, own(), ['extra_text_1'], today)).toBe('extra_text_1: a worker may not change it');
  });

  it('lets a worker move its job to another day only with workers_edit_job', () => {
    expect(workerJobEditDenial(worker, strict, own(), ['day'], today)).toBe(
      'day: a worker may not change it unless the company enables workers_edit_job',
    );
    expect(workerJobEditDenial(worker, lenient, own(), ['day'], today)).toBeNull();
  });
});
