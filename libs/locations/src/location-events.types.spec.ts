import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutboxEventInput, OutboxEventKeys, outboxEvent } from '@app/core';
import { typeErrors } from '@app/core/testing';
import type { PlaceView } from '@app/places';
import { ClockEventData, EventMember } from './location-events';

/**
 * Type-level cases of the outbox's event map with the events the locations lib declares (place
 * check-ins, clock; `location-events.ts`), and of core's `outboxEvent` over them: each
 * `@ts-expect-error` line must not compile, every other line must.
 * The cases are never run; the compiler checks this file (see the test at the end).
 */
function _cases(who: EventMember, place: PlaceView) {
  const clock: ClockEventData = { who, tracking: true, ts: 1, location: { lat: 46.05, lng: 14.5 } };

  // a clock event: key clock_in_out, form id `<member_uid>-<ts>-<action>`, location optional
  const _clockin: OutboxEventInput = {
    companyId: 'C',
    eventKey: 'clock_in_out',
    action: 'clockin',
    formId: 'M1-1700000000000-clockin',
    data: clock,
  };
  const _clockout: OutboxEventInput<'clockout'> = {
    companyId: 'C',
    eventKey: 'clock_in_out',
    action: 'clockout',
    formId: 'M1-1700000000000-clockout',
    data: { who, tracking: false, ts: 1 },
  };
  // @ts-expect-error the key of clock events is clock_in_out
  const _clockKey: OutboxEventInput = { companyId: 'C', eventKey: 'clock_in', action: 'clockin', formId: 'M1-1-clockin', data: clock };
  // @ts-expect-error a clockin's form id ends in -clockin
  const _clockId: OutboxEventInput = { companyId: 'C', eventKey: 'clock_in_out', action: 'clockin', formId: 'M1-1-clockout', data: clock };
  const _clockNoWho: OutboxEventInput<'clockin'> = {
    companyId: 'C',
    eventKey: 'clock_in_out',
    action: 'clockin',
    formId: 'M1-1-clockin',
    // @ts-expect-error clock data names the member
    data: { tracking: true, ts: 1 },
  };
  const _clockLatLon: OutboxEventInput<'clockin'> = {
    companyId: 'C',
    eventKey: 'clock_in_out',
    action: 'clockin',
    formId: 'M1-1-clockin',
    // @ts-expect-error location is {lat, lng}
    data: { who, tracking: true, ts: 1, location: { lat: 1, lon: 2 } },
  };

  // a place check: key place_checked, form id `<member_uid>-<place_uid>-<ts>`
  const _placecheckin: OutboxEventInput = {
    companyId: 'C',
    eventKey: 'place_checked',
    action: 'placecheckin',
    formId: 'M1-P1-1700000000000',
    data: { place, who, ts: 1 },
  };
  const _placeData: OutboxEventInput<'placecheckout'> = {
    companyId: 'C',
    eventKey: 'place_checked',
    action: 'placecheckout',
    formId: 'M1-P1-1',
    // @ts-expect-error a place check carries the place, not a clock payload
    data: clock,
  };
  const _placeKey: OutboxEventInput<'placecheckout'> = {
    companyId: 'C',
    // @ts-expect-error the key of place checks is place_checked
    eventKey: 'place_checkout',
    action: 'placecheckout',
    formId: 'M1-P1-1',
    data: { place, who, ts: 1 },
  };

  const _unknown: OutboxEventInput = {
    companyId: 'C',
    eventKey: 'clock_in_out',
    // @ts-expect-error an action nobody declared
    action: 'clockpaused',
    formId: 'M1-1-clockin',
    data: clock,
  };

  // a domain's key table is checked against the map, and outboxEvent takes the key from it
  const keys: OutboxEventKeys<'clockin' | 'clockout'> = { clockin: 'clock_in_out', clockout: 'clock_in_out' };
  // @ts-expect-error clockout's key is clock_in_out
  const _badKeys: OutboxEventKeys<'clockin' | 'clockout'> = { clockin: 'clock_in_out', clockout: 'clock_out' };
  const _built: OutboxEventInput = outboxEvent(keys, 'clockin', { companyId: 'C', formId: 'M1-1-clockin', data: clock });
  // @ts-expect-error the payload is checked against the action
  outboxEvent(keys, 'clockout', { companyId: 'C', formId: 'M1-1-clockout', data: { place, who, ts: 1 } });
  // @ts-expect-error the key table must hold the action
  outboxEvent({ clockin: 'clock_in_out' } as OutboxEventKeys<'clockin'>, 'clockout', {
    companyId: 'C',
    formId: 'M1-1-clockout',
    data: clock,
  });
}

describe('OutboxEvents (location events)', () => {
  it('compiles exactly where it should: every case above, each @ts-expect-error line refused', () => {
    // with a file that must fail beside it, so a check that sees nothing can't pass
    const dir = mkdtempSync(join(tmpdir(), 'fw-types-'));
    const wrong = join(dir, 'wrong.ts');
    writeFileSync(wrong, "const n: number = 'one';\n// @ts-expect-error nothing wrong below\nexport const m = n;\n");
    try {
      const errors = typeErrors([__filename, wrong]);
      expect(errors.filter((e) => !e.includes('wrong.ts'))).toEqual([]);
      expect(errors.map((e) => e.replace(/^.*wrong\.ts/, 'wrong.ts'))).toEqual([
        "wrong.ts:1: Type 'string' is not assignable to type 'number'.",
        "wrong.ts:2: Unused '@ts-expect-error' directive.",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
