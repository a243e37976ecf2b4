import 'reflect-metadata';
import { formatValidationErrors } from '@app/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toCompanyView } from '../company-view';
import { Company } from '../entities/company.entity';
import { EditCompanyDto } from './company.dto';

const errors = (data: Record<string, unknown>) => formatValidationErrors(validateSync(plainToInstance(EditCompanyDto, data)));

describe('editcompany stop_minutes', () => {
  it('an integer 1–240, or null (back to the server’s TRACK_STOP_MINUTES), or absent', () => {
    for (const ok of [1, 5, 240, null]) expect([ok, errors({ stop_minutes: ok })]).toEqual([ok, []]);
    expect(errors({ name: 'Co' })).toEqual([]);
  });

  it.each([
    [0, 'data.stop_minutes: must be at least 1 (minutes)'],
    [241, 'data.stop_minutes: must be at most 240 (minutes)'],
    [1.5, 'data.stop_minutes: must be an integer number of minutes (1–240) or null'],
    ['10', 'data.stop_minutes: must be an integer number of minutes (1–240) or null'],
  ])('%j is refused naming the field and the rule', (value, message) => {
    expect(errors({ stop_minutes: value })).toContain(message);
  });
});

describe('the company view’s stop_minutes', () => {
  const company = (stopMinutes: number | null) => Object.assign(new Company(), { teamsConfig: [], stopMinutes, locationLat: null, locationLng: null });

  it('the company’s own, else the server’s default', () => {
    expect(toCompanyView(company(12), 'owner', 5).stop_minutes).toBe(12);
    expect(toCompanyView(company(null), 'owner', 5).stop_minutes).toBe(5);
  });
});
