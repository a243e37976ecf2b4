import 'reflect-metadata';
import { validationIssues } from '@app/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateAlertDto, DeleteAlertDto, EditAlertDto, paramPatchOf } from './alert-rule.dto';

/** The issues the global pipe would report for `data` (whitelisting, unknown keys refused). */
function issues(cls: new () => object, data: object): string[] {
  const dto = plainToInstance(cls, data);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  return validationIssues(errors).map((i) => `${i.field}: ${i.rule}`);
}

describe('alert-rule DTOs (field rules; the per-action rules are alert-rule-rules.ts)', () => {
  const W = { days: [1, 2], start: 800, end: 1700 };

  it('accepts a full rule', () => {
    expect(
      issues(CreateAlertDto, { action: 'no_check_in', placeUid: 'P', window: W, members: ['a'], teams: [1], title: 't', active: false }),
    ).toEqual([]);
  });

  it.each<[string, object, string]>([
    ['unknown action', { action: 'arrive' }, 'data.action: must be one of checks_in'],
    [
      'interval under a minute',
      { action: 'idle', interval: 59_999 },
      'data.interval: must be an integer number of ms from 60000 (1 min) to 2592000000 (30 days)',
    ],
    ['threshold 100', { action: 'battery_low', threshold: 100 }, 'data.threshold: must be an integer battery % from 1 to 99'],
    ['a null on create', { action: 'checks_in', placeUid: null }, 'data.placeUid'],
    ['days repeated', { action: 'checks_in', window: { ...W, days: [2, 2] } }, 'data.window.days: must not repeat a day'],
    ['day 0', { action: 'checks_in', window: { ...W, days: [0] } }, 'data.window.days: must be ISO weekdays'],
    ['minute 75', { action: 'checks_in', window: { ...W, start: 875 } }, 'data.window.start: must be a time of day HHMM'],
    ['end before start', { action: 'checks_in', window: { ...W, start: 1800 } }, 'data.window.end: must be after start'],
    ['window key', { action: 'checks_in', window: { ...W, zone: 'UTC' } }, 'data.window.zone: unknown field'],
  ])('refuses %s', (_label, data, expected) => {
    expect(issues(CreateAlertDto, data).join('; ')).toContain(expected);
  });

  it('editalert: id required, nulls allowed for the parameters (they clear)', () => {
    expect(issues(EditAlertDto, { placeUid: null }).every((i) => i.startsWith('data.id: '))).toBe(true);
    expect(issues(EditAlertDto, { placeUid: null })).not.toEqual([]);
    const dto = plainToInstance(EditAlertDto, { id: 'R', placeUid: null, zoneId: null, interval: null, threshold: null, window: null });
    expect(validateSync(dto, { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
    expect(paramPatchOf(dto)).toEqual({ placeId: null, zoneId: null, interval: null, threshold: null, window: null });
    expect(paramPatchOf(plainToInstance(EditAlertDto, { id: 'R', window: { days: [5, 1], start: 0, end: 100 } }))).toEqual({
      placeId: undefined,
      zoneId: undefined,
      interval: undefined,
      threshold: undefined,
      window: { days: [1, 5], start: 0, end: 100 },
    });
  });

  it('deletealert: id or ids, exactly one, ids not empty', () => {
    const targets = (data: object) => {
      const dto = plainToInstance(DeleteAlertDto, data);
      dto.completeValidation('data');
      return dto.targets;
    };
    expect(targets({ id: 'A' })).toEqual([{ id: 'A', field: 'data.id' }]);
    expect(targets({ ids: ['A', 'B'] })).toEqual([
      { id: 'A', field: 'data.ids[0]' },
      { id: 'B', field: 'data.ids[1]' },
    ]);
    expect(() => targets({})).toThrow('data.id: is required (or ids)');
    expect(() => targets({ id: 'A', ids: ['B'] })).toThrow('data.ids: send id or ids, not both');
    expect(() => targets({ ids: [] })).toThrow('data.ids: must name at least one alert rule');
  });
});
