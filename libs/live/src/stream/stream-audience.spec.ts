import { DomainError } from '@app/core';
import { maySeeEvent, maySeePosition, parseEventsFilter, STREAM_ACTIONS } from './stream-audience';

describe('stream audience', () => {
  const admin = { companyId: 'C', memberId: 'A', role: 'administrator' as const };
  const op = { companyId: 'C', memberId: 'O', role: 'operator' as const };
  const w = { companyId: 'C', memberId: 'W', role: 'worker' as const };

  it('staff see staff events; anyone sees events naming it', () => {
    const staffOnly = { audienceStaff: true, audienceMembers: [] };
    const toW = { audienceStaff: false, audienceMembers: ['W'] };
    expect([admin, op, w].map((v) => maySeeEvent(v, staffOnly))).toEqual([true, true, false]);
    expect([admin, op, w].map((v) => maySeeEvent(v, toW))).toEqual([false, false, true]);
    expect(maySeeEvent(op, { audienceStaff: false, audienceMembers: ['O'] })).toBe(true);
  });

  it('positions: staff every member, a worker itself', () => {
    expect(maySeePosition(op, 'W')).toBe(true);
    expect(maySeePosition(w, 'W')).toBe(true);
    expect(maySeePosition(w, 'X')).toBe(false);
  });

  it('?events= parses a list of known names, null when absent; an unknown or empty name is invalid naming events', () => {
    expect(parseEventsFilter(undefined)).toBeNull();
    expect([...parseEventsFilter('jobcreated, position')!]).toEqual(['jobcreated', 'position']);
    for (const bad of ['jobcreated,nope', '', 'jobcreated,', ['jobcreated']]) {
      let err: unknown;
      try {
        parseEventsFilter(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).field).toBe('events');
    }
    expect(STREAM_ACTIONS).toEqual(
      expect.arrayContaining(['jobcreated', 'notification', 'alerttriggered', 'clockin', 'placecheckout', 'position']),
    );
  });
});
