import type { ReportContext } from '../report-definition';
import { subtitleOf } from './render-report';

const ctx = (unitDate: string, range?: { from: number; until: number }): ReportContext => ({
  db: undefined as never,
  companyId: 'c1',
  company: { name: 'Kovač Servis d.o.o.', timezone: 'Europe/Zagreb' },
  requester: { id: 'm1', name: 'Ana Novak' },
  locale: { timezone: 'Europe/Zagreb', unitTime: '24', unitDate, unitDistance: 'SI' },
  members: [],
  places: [],
  range: range && { ...range, fromMs: 0, untilMs: 0 },
});

describe('subtitleOf', () => {
  it('writes the range’s days with the requester’s unit_date', () => {
    expect(subtitleOf(ctx('DD.MM.YYYY', { from: 20261127, until: 20261127 }))).toEqual([
      'Kovač Servis d.o.o.',
      'Day 27.11.2026',
      'Time zone Europe/Zagreb; distances in km; requested by Ana Novak',
    ]);
    expect(subtitleOf(ctx('MM/DD/YYYY', { from: 20261101, until: 20261130 }))[1]).toBe('From 11/01/2026 to 11/30/2026');
  });

  it('no range line for undated types', () => {
    expect(subtitleOf(ctx('YYYY-MM-DD'))).toHaveLength(2);
  });
});
