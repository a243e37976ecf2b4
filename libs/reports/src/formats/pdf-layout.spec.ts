import { COMFORT_WIDTH, distributeWidths, layoutTable, longestWord } from './pdf-layout';

const rooms = { portrait: 523, landscape: 770 };
const total = (ws: number[]) => ws.reduce((s, w) => s + w, 0);

describe('pdf layout', () => {
  it('columns that fit get their max, the spare room spread in proportion', () => {
    expect(distributeWidths([{ min: 10, max: 50 }, { min: 10, max: 150 }], 400)).toEqual([100, 300]);
  });

  it('columns that do not fit get min + a share of the rest in proportion to max − min', () => {
    const ws = distributeWidths([{ min: 20, max: 20 }, { min: 40, max: 440 }, { min: 40, max: 240 }], 300);
    expect(ws[0]).toBe(20);
    expect(ws[1]).toBeCloseTo(40 + 200 * (400 / 600));
    expect(total(ws)).toBeCloseTo(300);
  });

  it('an empty column (max = min = its title’s longest word) takes no room from full ones', () => {
    const ws = distributeWidths([{ min: 30, max: 30 }, { min: 40, max: 2000 }], 500);
    expect(ws).toEqual([30, 470]);
  });

  it('portrait when the maxima fit a portrait page, else landscape', () => {
    expect(layoutTable([{ min: 50, max: 200 }, { min: 50, max: 300 }], [0], rooms)).toMatchObject({ landscape: false, groups: [{ columns: [0, 1] }] });
    const l = layoutTable([{ min: 50, max: 400 }, { min: 50, max: 400 }], [0], rooms);
    expect(l.landscape).toBe(true);
    expect(l.groups).toHaveLength(1);
    expect(total(l.groups[0].widths)).toBeCloseTo(770);
  });

  it('long text keeps a comfortable width when that fits; bare minima otherwise', () => {
    const cols = Array.from({ length: 10 }, () => ({ min: 20, max: 300 }));
    const comfy = layoutTable(cols, [0], rooms).groups[0].widths;
    expect(Math.min(...comfy)).toBeGreaterThanOrEqual(COMFORT_WIDTH - 1e-9);
    const tight = layoutTable(Array.from({ length: 30 }, () => ({ min: 25, max: 300 })), [0], rooms);
    expect(tight.groups).toHaveLength(1);
    expect(total(tight.groups[0].widths)).toBeCloseTo(770);
  });

  it('too wide even at the minima: groups in column order, each led by the key columns', () => {
    const cols = Array.from({ length: 20 }, () => ({ min: 60, max: 100 }));
    const l = layoutTable(cols, [0, 1], rooms);
    expect(l.landscape).toBe(true);
    expect(l.groups.length).toBeGreaterThan(1);
    for (const g of l.groups) {
      expect(g.columns.slice(0, 2)).toEqual([0, 1]);
      expect(total(g.widths)).toBeLessThanOrEqual(770 + 1e-9);
    }
    expect(l.groups.flatMap((g) => g.columns.slice(2)).sort((a, b) => a - b)).toEqual(Array.from({ length: 18 }, (_, i) => i + 2));
  });

  it('longestWord measures the widest whitespace-separated piece', () => {
    expect(longestWord('08:00–10:00 from here', (s) => s.length)).toBe(11);
    expect(longestWord('  ', (s) => s.length)).toBe(0);
  });
});
