import 'reflect-metadata';
import { formatValidationErrors } from '@app/core';
import type { Fix } from '@app/locations/pure';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateReportDto } from '../dto/create-report.dto';
import type { ReportContext, ReportMember } from '../report-definition';
import { fakeFixDb } from './spec-helpers';
import { STOPS_REPORT } from './stopsreport';

const MIN = 60_000;
const ana: ReportMember = { id: 'M1', name: 'Ana', username: 'ana', timezone: 'UTC' };
const T = Date.UTC(2026, 10, 23, 8);
/** ~500 m north per `step`, `minute` minutes after T. */
const fix = (minute: number, step: number): Fix => ({ ts: T + minute * MIN, lat: 46 + (step * 500) / 111_132, lng: 14.5, acc: 5, dir: null, spd: null, elv: null, bat: null });
// a 10-min drive, an 8-min stay, a 10-min drive
const FIXES: Fix[] = [];
for (let i = 0; i <= 10; i++) FIXES.push(fix(i, i));
for (let i = 11; i <= 18; i++) FIXES.push(fix(i, 10));
for (let i = 19; i <= 28; i++) FIXES.push(fix(i, i - 8));

function ctxWith(stopMinutes: number | undefined): ReportContext {
  return {
    db: fakeFixDb({ M1: FIXES }),
    companyId: 'C',
    company: { name: 'Co', timezone: 'UTC' },
    requester: { id: 'M1', name: 'Ana' },
    locale: { timezone: 'UTC', unitTime: '24', unitDate: 'YYYY-MM-DD', unitDistance: 'SI' },
    members: [ana],
    places: [],
    range: { from: 20261123, until: 20261123, fromMs: Date.UTC(2026, 10, 23), untilMs: Date.UTC(2026, 10, 24) },
    ...(stopMinutes === undefined ? {} : { stopMinutes }),
  };
}

async function stops(ctx: ReportContext): Promise<Array<[number, number]>> {
  const out: Array<[number, number]> = [];
  for await (const r of STOPS_REPORT.rows(ctx)) out.push([((r.values.from as number) - T) / MIN, ((r.values.to as number) - T) / MIN]);
  return out;
}

describe('the stop threshold in the stops report', () => {
  it('the context’s stopMinutes (the request’s, else the company’s) decides what a stop is', async () => {
    expect(await stops(ctxWith(5))).toEqual([[10, 18]]);
    expect(await stops(ctxWith(8))).toEqual([[10, 18]]);
    expect(await stops(ctxWith(9))).toEqual([]);
    expect(await stops(ctxWith(240))).toEqual([]);
  });

  it('without one in the context: TRACK_STOP_MINUTES from the environment', async () => {
    const saved = process.env.TRACK_STOP_MINUTES;
    try {
      process.env.TRACK_STOP_MINUTES = '9';
      expect(await stops(ctxWith(undefined))).toEqual([]);
      delete process.env.TRACK_STOP_MINUTES;
      expect(await stops(ctxWith(undefined))).toEqual([[10, 18]]); // the default 5
    } finally {
      if (saved === undefined) delete process.env.TRACK_STOP_MINUTES;
      else process.env.TRACK_STOP_MINUTES = saved;
    }
  });
});

describe('createreport stopMinutes', () => {
  const errors = (stopMinutes: unknown) =>
    formatValidationErrors(validateSync(plainToInstance(CreateReportDto, { reporttype: 'stopsreport', format: 'csv', day: 20261123, accounts: ['a'], stopMinutes })));

  it('optional; an integer 1–240', () => {
    expect(formatValidationErrors(validateSync(plainToInstance(CreateReportDto, { reporttype: 'stopsreport', format: 'csv', day: 20261123, accounts: ['a'] })))).toEqual([]);
    for (const ok of [1, 12, 240]) expect(errors(ok)).toEqual([]);
  });

  it.each([
    [0, 'data.stopMinutes: must be at least 1 (minutes)'],
    [241, 'data.stopMinutes: must be at most 240 (minutes)'],
    [2.5, 'data.stopMinutes: must be an integer number of minutes (1–240)'],
    ['5', 'data.stopMinutes: must be an integer number of minutes (1–240)'],
    [null, 'data.stopMinutes: must be an integer number of minutes (1–240)'],
  ])('%j is refused naming the field and the rule', (value, message) => {
    expect(errors(value)).toContain(message);
  });
});
