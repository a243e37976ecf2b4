/**
 * The pdf table's geometry, pure (points, 1/72 inch): from each column's measured text widths to the
 * page orientation, the column groups (a table too wide for one page is split into groups of columns,
 * each printed over its own pages with the key columns repeated) and every column's width.
 *
 * A column's **min** is its longest word (the widest unbreakable piece of a cell or of its title),
 * capped at {@link MAX_MIN_WIDTH} (a longer token — a URL, an id — is broken by the line wrapper), and
 * its **max** the widest whole cell or title, each plus the cell padding. Widths follow the CSS
 * automatic table layout: every column its max when they all fit; else its min plus a share of the
 * room left in proportion to max − min, so short columns stay on one line and long ones wrap. An
 * empty column (no cell has text) is sized by its title's longest word alone: it takes no room from
 * full ones, and its title wraps.
 */

/** Measured widths of one column, in points, padding included. */
export interface ColumnMeasure {
  min: number;
  max: number;
}

/** One group of columns printed together: indexes into the table's columns, and their widths. */
export interface ColumnGroup {
  columns: number[];
  widths: number[];
}

export interface TableLayout {
  landscape: boolean;
  groups: ColumnGroup[];
}

/** A token wider than this (pt, ~20 characters at 8 pt) does not widen its column's minimum: it is broken. */
export const MAX_MIN_WIDTH = 90;

/** A column of long text gets at least this (pt) before the table is split or wrapped to single words. */
export const COMFORT_WIDTH = 72;

/**
 * Widths of `cols` over `room` points: the maxima when they fit (the spare room spread in proportion
 * to them), else min + (room − Σmin) × (max − min) / Σ(max − min). Σmin must be ≤ room, else the
 * minima are returned as they are.
 */
export function distributeWidths(cols: readonly ColumnMeasure[], room: number): number[] {
  const sumMax = cols.reduce((s, c) => s + c.max, 0);
  if (sumMax <= room) {
    const spare = room - sumMax;
    return cols.map((c) => c.max + (sumMax > 0 ? (spare * c.max) / sumMax : spare / cols.length));
  }
  const sumMin = cols.reduce((s, c) => s + c.min, 0);
  const slack = cols.reduce((s, c) => s + (c.max - c.min), 0);
  if (sumMin >= room || slack <= 0) return cols.map((c) => c.min);
  const share = (room - sumMin) / slack;
  return cols.map((c) => c.min + (c.max - c.min) * share);
}

/**
 * The layout of a table of `cols` on A4 (`portrait` and `landscape` content widths in points): portrait
 * when every column fits at its max on a portrait page, else landscape, with each column at least its
 * max or {@link COMFORT_WIDTH}, whichever is less (but never under its min) when that fits, else at
 * least its min; when even the minima do not fit a landscape page, the columns are split into groups,
 * each led by the `keys` columns (indexes), filled greedily in column order while their comfortable
 * minima fit.
 */
export function layoutTable(measured: readonly ColumnMeasure[], keys: readonly number[], room: { portrait: number; landscape: number }): TableLayout {
  const all = measured.map((_, i) => i);
  const sum = (list: readonly ColumnMeasure[], f: (c: ColumnMeasure) => number) => list.reduce((s, c) => s + f(c), 0);
  if (sum(measured, (c) => c.max) <= room.portrait) return { landscape: false, groups: [group(measured, all, room.portrait)] };
  // comfortable minima first (a column of long text keeps a few words a line), then the bare ones
  const cols = measured.map((c) => ({ min: Math.max(c.min, Math.min(c.max, COMFORT_WIDTH)), max: c.max }));
  if (sum(cols, (c) => c.min) <= room.landscape) return { landscape: true, groups: [group(cols, all, room.landscape)] };
  if (sum(measured, (c) => c.min) <= room.landscape) return { landscape: true, groups: [group(measured, all, room.landscape)] };
  const keySet = new Set(keys);
  const rest = all.filter((i) => !keySet.has(i));
  const groups: ColumnGroup[] = [];
  let current: number[] = [...keys];
  const keysMin = keys.reduce((s, i) => s + cols[i].min, 0);
  let used = keysMin;
  for (const i of rest) {
    const w = cols[i].min;
    if (used + w > room.landscape && current.length > keys.length) {
      groups.push(group(cols, current, room.landscape));
      current = [...keys];
      used = keysMin;
    }
    current.push(i);
    used += w;
  }
  if (current.length > keys.length || groups.length === 0) groups.push(group(cols, current, room.landscape));
  return { landscape: true, groups };
}

function group(cols: readonly ColumnMeasure[], idx: number[], room: number): ColumnGroup {
  const widths = distributeWidths(
    idx.map((i) => cols[i]),
    room,
  );
  return { columns: idx, widths };
}

/** The widest whitespace-separated piece of `text` by `width` (0 for blank text). */
export function longestWord(text: string, width: (s: string) => number): number {
  let best = 0;
  for (const word of text.split(/\s+/)) if (word !== '') best = Math.max(best, width(word));
  return best;
}
