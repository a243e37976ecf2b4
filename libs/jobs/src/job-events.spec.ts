import { editEvents, progressChanged } from './job-events';
import { progressIndex, progressOf } from './progress';

const zero = { tsAccepted: 0, tsRejected: 0, tsDoneSuccess: 0, tsDoneFailed: 0, tsCheckIn: 0, tsCheckOut: 0 };

describe('editEvents', () => {
  it('a plain change is one jobupdated', () => {
    expect(editEvents(zero, zero)).toEqual(['jobupdated']);
    expect(editEvents(zero, { ...zero, tsAccepted: 5 })).toEqual(['jobupdated']);
  });

  it('check-in, check-out and completion fire in that order, without jobupdated', () => {
    expect(editEvents(zero, { ...zero, tsCheckIn: 1, tsCheckOut: 2, tsDoneSuccess: 3 })).toEqual([
      'jobcheckin',
      'jobcheckout',
      'jobcompleted',
    ]);
    expect(editEvents(zero, { ...zero, tsDoneFailed: 3 })).toEqual(['jobcompleted']);
  });

  it('only a 0 → value change fires: moving a timestamp already set is an update', () => {
    const checked = { ...zero, tsCheckIn: 1, tsDoneSuccess: 2 };
    expect(editEvents(checked, { ...checked, tsCheckIn: 9, tsDoneSuccess: 10 })).toEqual(['jobupdated']);
    // success → failed is a completion (tsDoneFailed went 0 → value)
    expect(editEvents(checked, { ...checked, tsDoneSuccess: 0, tsDoneFailed: 3 })).toEqual(['jobcompleted']);
  });
});

describe('progressChanged', () => {
  it('is true for completion, rejection, check-in/out; false for acceptance alone', () => {
    for (const k of ['tsDoneSuccess', 'tsDoneFailed', 'tsRejected', 'tsCheckIn', 'tsCheckOut'] as const) {
      expect(progressChanged(zero, { ...zero, [k]: 1 })).toBe(true);
    }
    expect(progressChanged(zero, { ...zero, tsAccepted: 1 })).toBe(false);
  });
});

describe('progressOf', () => {
  it('follows success/failed > rejected > started > accepted > scheduled', () => {
    expect(progressOf(zero)).toBe('scheduled');
    expect(progressOf({ ...zero, tsAccepted: 1 })).toBe('accepted');
    expect(progressOf({ ...zero, tsAccepted: 1, tsCheckIn: 1 })).toBe('started');
    expect(progressOf({ ...zero, tsAccepted: 1, tsCheckIn: 1, tsRejected: 1 })).toBe('rejected');
    expect(progressOf({ ...zero, tsRejected: 1, tsDoneFailed: 1 })).toBe('failed');
    expect(progressOf({ ...zero, tsRejected: 1, tsDoneFailed: 1, tsDoneSuccess: 1 })).toBe('success');
  });
});

describe('progressIndex', () => {
  it('is the order of sort.status and PROGRESS_SQL', () => {
    expect((['scheduled', 'accepted', 'rejected', 'started', 'success', 'failed'] as const).map(progressIndex)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
