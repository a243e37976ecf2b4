/**
 * PDF (ISO 32000) through pdfkit: A4, 36 pt (½ inch) margins; the title (`doc.title`, 16 pt bold) and
 * the `doc.subtitle` lines (9 pt) on the first page; then the table, every value whole: a cell's text
 * wraps inside its column and the row grows to the tallest cell; the header row (bold, 8 pt, wrapped
 * too) repeats at the top of every page. Each page's footer names the report and says "Page n of N".
 *
 * Layout ({@link layoutTable}): column widths follow the measured cell texts (a column's longest word
 * to its widest cell; empty columns take only their title's longest word); portrait when the table
 * fits at full width, else landscape; a table whose columns do not fit a landscape page even wrapped
 * to their longest words is split into groups of columns printed one after the other, each over its
 * own pages, with the key columns (the first; with the second when it is a date or the first a route
 * number) repeated and a "Columns a–b of n" line above the header. Numbers, durations, distances,
 * speeds and coordinates are right-aligned, checks centred. One cell taller than a page (thousands of
 * characters in one narrow column) is the only one cut, with `…`, at the page's height.
 *
 * Not pdfkit's own `doc.table` (0.17+): it repeats no header row on a new page (pdfkit issue #1657,
 * open), sizes columns by fixed or equal shares rather than by their content, and measures every cell
 * through the line wrapper; here a cell that fits one line is measured by `widthOfString` alone.
 *
 * Rows are buffered as their cell texts (at most {@link PDF_MAX_ROWS}: column widths need every cell)
 * and the document is laid out and written at `end()` in two passes: the first measures every row's
 * height and where the pages break (so "of N" is known), the second draws, each page written out when
 * the next begins. Pages are not buffered: a 10,000-row report of wrapped text runs to ~1,000 pages,
 * about 0.5 MB of heap each while pdfkit holds them (measured: out of memory in the report thread's
 * 256 MB). `row()` never waits for the output.
 *
 * Font: DejaVu Sans (it has ✓ and most Latin/Greek/Cyrillic) from the npm package `dejavu-fonts-ttf`
 * when installed, else Debian's fonts-dejavu-core (`/usr/share/fonts/truetype/dejavu`); embedded as a
 * subset. Neither present: pdfkit's built-in Helvetica (WinAnsi only), and check cells show `X`
 * instead of ✓ (Helvetica has no ✓). {@link resolvePdfFonts} says which was found.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { ColumnKind, ReportDocument, ReportRow } from '../report-table';
import { PDF_MAX_ROWS } from '../report-types';
import { formatCell, isChecked, CHECK_MARK } from './cell-format';
import { layoutTable, longestWord, MAX_MIN_WIDTH, type ColumnGroup, type ColumnMeasure } from './pdf-layout';
import { outputFinished } from './stream-util';
import type { TableWriter } from './table-writer';

/** Fonts for the pdf: TTF files, or undefined for pdfkit's built-in Helvetica. */
export interface PdfFonts {
  regular: string;
  bold: string;
}

const DEBIAN_DEJAVU = '/usr/share/fonts/truetype/dejavu';

/** DejaVu Sans and DejaVu Sans Bold: the npm package's, else Debian's; undefined when neither is there. */
export function resolvePdfFonts(): PdfFonts | undefined {
  const dirs: string[] = [];
  try {
    dirs.push(path.dirname(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
  } catch {
    // the package is optional
  }
  dirs.push(DEBIAN_DEJAVU);
  for (const dir of dirs) {
    const regular = path.join(dir, 'DejaVuSans.ttf');
    const bold = path.join(dir, 'DejaVuSans-Bold.ttf');
    if (existsSync(regular) && existsSync(bold)) return { regular, bold };
  }
  return undefined;
}

const MARGIN = 36;
const FONT_SIZE = 8;
const SMALL_FONT_SIZE = 7;
/** rows between two emptyings of pdfkit's layout cache (see forgetLayouts) */
const LAYOUT_CACHE_ROWS = 2000;
const PAD_X = 3;
const PAD_Y = 2;
const FOOTER_SIZE = 8;
/** A4 in points */
const A4 = { short: 595.28, long: 841.89 };

const RIGHT_ALIGNED: ReadonlySet<ColumnKind> = new Set(['integer', 'number', 'coordinate', 'duration', 'distance', 'speed']);

/**
 * Opens a pdf writer of `doc` onto `out`; `end()` lays the table out, writes it and resolves when `out`
 * has finished. `row()` throws past {@link PDF_MAX_ROWS} rows. `fonts`: null for Helvetica (default:
 * {@link resolvePdfFonts}).
 */
export function openPdfWriter(doc: ReportDocument, out: Writable, fonts: PdfFonts | null = resolvePdfFonts() ?? null): TableWriter {
  const check = fonts ? CHECK_MARK : 'X';
  const cells: string[][] = [];
  const text = (row: ReportRow): string[] =>
    doc.columns.map((c) => {
      const raw = row.values[c.key];
      const s = c.kind === 'check' ? (isChecked(raw) ? check : '') : formatCell(raw, c.kind, doc.locale);
      return s.replace(/[\r\n\t]+/g, ' ');
    });
  return {
    async row(row: ReportRow): Promise<void> {
      if (cells.length >= PDF_MAX_ROWS) throw new Error(`too many rows for pdf (${cells.length + 1} > ${PDF_MAX_ROWS}): use xlsx or csv`);
      cells.push(text(row));
      return Promise.resolve();
    },
    async rows(rows: readonly ReportRow[]): Promise<void> {
      for (const row of rows) await this.row(row);
    },
    async end(): Promise<void> {
      await writePdf(doc, cells, out, fonts);
    },
  };
}

/** Lays out and writes the whole document; resolves when `out` has finished. */
async function writePdf(doc: ReportDocument, cells: string[][], out: Writable, fonts: PdfFonts | null): Promise<void> {
  const pdf = new PDFDocument({
    autoFirstPage: false,
    info: { Title: doc.title, Subject: doc.subtitle.join(' · '), Creator: 'Fieldwork' },
  });
  const done = outputFinished(out);
  done.catch(() => undefined);
  pdf.pipe(out);
  const regular = fonts ? 'report' : 'Helvetica';
  const bold = fonts ? 'report-bold' : 'Helvetica-Bold';
  if (fonts) {
    pdf.registerFont(regular, fonts.regular);
    pdf.registerFont(bold, fonts.bold);
  }
  /**
   * pdfkit's embedded fonts cache the glyph layout of every word they have measured or drawn, for the
   * document's life (`layoutCache`): over 10,000 rows of ids, phone numbers and addresses that grows
   * past the report thread's heap (measured: out of memory at 256 MB). Emptied every
   * {@link LAYOUT_CACHE_ROWS} rows; words that repeat are laid out again at most once per stretch.
   */
  const forgetLayouts = (): void => {
    for (const font of Object.values((pdf as unknown as { _fontFamilies: Record<string, { layoutCache?: object }> })._fontFamilies)) {
      if (font.layoutCache) font.layoutCache = Object.create(null) as object;
    }
  };
  const cols = doc.columns;
  const titles = cols.map((c) => c.title.replace(/[\r\n\t]+/g, ' '));

  // measure at FONT_SIZE: every cell's width (kept: a cell narrower than its column is drawn without
  // the wrapper), each column's widest cell and longest word, its title's
  const n = cols.length;
  const widths = new Float64Array(cells.length * n);
  const cellMax = new Float64Array(n);
  const cellWord = new Float64Array(n);
  pdf.font(regular).fontSize(FONT_SIZE);
  const wordWidth = (s: string) => pdf.widthOfString(s);
  cells.forEach((row, r) => {
    if (r % LAYOUT_CACHE_ROWS === 0) forgetLayouts();
    for (let c = 0; c < n; c++) {
      const s = row[c];
      if (s === '') continue;
      const w = pdf.widthOfString(s);
      widths[r * n + c] = w;
      if (w > cellMax[c]) cellMax[c] = w;
      // the longest word only matters when the whole cell is wider than the longest word so far
      if (w > cellWord[c]) cellWord[c] = Math.max(cellWord[c], Math.min(longestWord(s, wordWidth), MAX_MIN_WIDTH));
    }
  });
  pdf.font(bold);
  const titleWidths = titles.map((t) => pdf.widthOfString(t));
  const titleWords = titles.map((t) => Math.min(longestWord(t, wordWidth), MAX_MIN_WIDTH));
  /** the columns' measures at `size` pt (text scales with the size, the padding does not) */
  const measuresAt = (size: number): ColumnMeasure[] =>
    cols.map((_, c) => {
      const k = size / FONT_SIZE;
      const min = Math.max(cellWord[c], titleWords[c]) * k + 2 * PAD_X;
      const max = cellMax[c] === 0 ? min : Math.max(cellMax[c] * k + 2 * PAD_X, Math.min(titleWidths[c] * k + 2 * PAD_X, 2 * min), min);
      return { min, max };
    });
  const keys = n > 1 && (cols[1].kind === 'date' || cols[0].kind === 'integer') ? [0, 1] : [0];
  const rooms = { portrait: A4.short - 2 * MARGIN, landscape: A4.long - 2 * MARGIN };
  // a table that would be split at FONT_SIZE is set a point smaller when that keeps it on one page's width
  let fontSize = FONT_SIZE;
  let layout = layoutTable(measuresAt(FONT_SIZE), keys, rooms);
  if (layout.groups.length > 1) {
    const smaller = layoutTable(measuresAt(SMALL_FONT_SIZE), keys, rooms);
    if (smaller.groups.length === 1) [fontSize, layout] = [SMALL_FONT_SIZE, smaller];
  }
  const scale = fontSize / FONT_SIZE;
  const page = { size: 'A4', layout: layout.landscape ? 'landscape' : 'portrait', margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN } } as const;

  const pageWidth = (layout.landscape ? A4.long : A4.short) - 2 * MARGIN;
  const bottom = (layout.landscape ? A4.short : A4.long) - MARGIN - FOOTER_SIZE - 6;
  pdf.addPage(page);

  // the title block's height (drawn on the first page)
  pdf.font(bold).fontSize(16);
  const titleHeight = pdf.heightOfString(doc.title, { width: pageWidth });
  pdf.font(regular).fontSize(9);
  const subtitleHeights = doc.subtitle.map((s) => pdf.heightOfString(s, { width: pageWidth }));
  const tableTop = MARGIN + titleHeight + 4 + subtitleHeights.reduce((sum, h) => sum + h + 1, 0) + 8;
  pdf.fontSize(fontSize);
  const lineHeight = pdf.currentLineHeight(true);

  // pass 1: every group's geometry, row heights and page breaks, so "of N" is known before any page
  // is written and no page is kept in memory after it is full
  const plans = layout.groups.map((group, gi) => planGroup(group, gi === 0 ? tableTop : MARGIN, layout.groups.length > 1 ? `Columns ${groupRange(group, keys)} of ${n}` : undefined));
  const pages = plans.reduce((sum, p) => sum + p.pages, 0);

  // pass 2: draw
  let pageNo = 1;
  let y = MARGIN;
  const footer = (): void => {
    // writing inside the bottom margin would make pdfkit open a page: lift the margin meanwhile
    const saved = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(regular).fontSize(FOOTER_SIZE).fillColor('#555555');
    const footY = pdf.page.height - MARGIN - FOOTER_SIZE;
    const text = `Page ${pageNo} of ${pages}`;
    pdf.text(text, pdf.page.width - MARGIN - pdf.widthOfString(text), footY, { lineBreak: false });
    pdf.text(doc.title, MARGIN, footY, { lineBreak: false });
    pdf.page.margins.bottom = saved;
    pdf.fillColor('black');
  };
  const newPage = (): void => {
    pdf.addPage(page);
    pageNo++;
    footer();
    y = MARGIN;
  };
  footer();
  pdf.font(bold).fontSize(16).text(doc.title, MARGIN, y, { width: pageWidth });
  y += titleHeight + 4;
  pdf.font(regular).fontSize(9);
  doc.subtitle.forEach((s, i) => {
    pdf.text(s, MARGIN, y, { width: pageWidth });
    y += subtitleHeights[i] + 1;
  });
  y = tableTop;
  plans.forEach((plan, gi) => {
    if (gi > 0) newPage();
    drawGroup(plan);
  });
  pdf.end();
  await done;

  interface GroupPlan {
    group: ColumnGroup;
    caption: string | undefined;
    xs: number[];
    tableWidth: number;
    aligns: ('left' | 'right' | 'center')[];
    headerHeight: number;
    /** each row's height, padding included */
    heights: Float64Array;
    /** 1 where a row is cut at a page's height (see the file's docstring) */
    clamped: Uint8Array;
    /** 1 where a row starts a new page */
    breaks: Uint8Array;
    pages: number;
  }

  function planGroup(group: ColumnGroup, top: number, caption: string | undefined): GroupPlan {
    const xs: number[] = [];
    group.widths.reduce((x, w) => (xs.push(x), x + w), MARGIN);
    const tableWidth = group.widths.reduce((sum, w) => sum + w, 0);
    const aligns = group.columns.map((c) => (RIGHT_ALIGNED.has(cols[c].kind) ? 'right' : cols[c].kind === 'check' ? 'center' : 'left') as GroupPlan['aligns'][number]);
    pdf.font(bold).fontSize(fontSize);
    const headerHeight = Math.max(...group.columns.map((c, i) => pdf.heightOfString(titles[c], { width: group.widths[i] - 2 * PAD_X }))) + 2 * PAD_Y;
    const headerBlock = (caption ? lineHeight + 2 : 0) + headerHeight + 1;
    pdf.font(regular).fontSize(fontSize);
    const maxRowHeight = bottom - MARGIN - headerBlock - 2 * PAD_Y;
    const heights = new Float64Array(cells.length);
    const clamped = new Uint8Array(cells.length);
    const breaks = new Uint8Array(cells.length);
    let pagesOfGroup = 1;
    let at = top + headerBlock;
    for (let r = 0; r < cells.length; r++) {
      if (r % LAYOUT_CACHE_ROWS === 0) forgetLayouts();
      const row = cells[r];
      // one line where the text fits its column, else the wrapper's height
      let height = lineHeight;
      group.columns.forEach((c, i) => {
        const room = group.widths[i] - 2 * PAD_X;
        if (row[c] !== '' && widths[r * n + c] * scale > room) height = Math.max(height, pdf.heightOfString(row[c], { width: room }));
      });
      if (height > maxRowHeight) {
        height = maxRowHeight;
        clamped[r] = 1;
      }
      height += 2 * PAD_Y;
      heights[r] = height;
      if (at + height > bottom) {
        breaks[r] = 1;
        pagesOfGroup++;
        at = MARGIN + headerBlock;
      }
      at += height;
    }
    return { group, caption, xs, tableWidth, aligns, headerHeight, heights, clamped, breaks, pages: pagesOfGroup };
  }

  function drawGroup(plan: GroupPlan): void {
    const { group, xs, aligns, tableWidth } = plan;
    const header = (): void => {
      if (plan.caption) {
        pdf.font(regular).fontSize(fontSize).text(plan.caption, MARGIN, y, { lineBreak: false });
        y += lineHeight + 2;
      }
      pdf.font(bold).fontSize(fontSize);
      group.columns.forEach((c, i) => {
        pdf.text(titles[c], xs[i] + PAD_X, y + PAD_Y, { width: group.widths[i] - 2 * PAD_X, align: aligns[i] });
      });
      y += plan.headerHeight;
      pdf.moveTo(MARGIN, y).lineTo(MARGIN + tableWidth, y).lineWidth(0.75).strokeColor('black').stroke();
      y += 1;
      pdf.font(regular).fontSize(fontSize);
    };
    header();
    for (let r = 0; r < cells.length; r++) {
      if (r % LAYOUT_CACHE_ROWS === 0) forgetLayouts();
      if (plan.breaks[r]) {
        newPage();
        header();
      }
      const row = cells[r];
      const height = plan.heights[r];
      group.columns.forEach((c, i) => {
        const s = row[c];
        if (s === '') return;
        const room = group.widths[i] - 2 * PAD_X;
        const w = widths[r * n + c] * scale;
        if (w <= room) {
          const dx = aligns[i] === 'right' ? room - w : aligns[i] === 'center' ? (room - w) / 2 : 0;
          pdf.text(s, xs[i] + PAD_X + dx, y + PAD_Y, { lineBreak: false });
        } else {
          pdf.text(s, xs[i] + PAD_X, y + PAD_Y, { width: room, align: aligns[i], ...(plan.clamped[r] ? { height: height - 2 * PAD_Y, ellipsis: true } : {}) });
        }
      });
      y += height;
      pdf.moveTo(MARGIN, y).lineTo(MARGIN + tableWidth, y).lineWidth(0.25).strokeColor('#b0b0b0').stroke();
    }
  }
}

/** "3–9" for a group of columns 3…9 (1-based, key columns left out unless the group is theirs alone). */
function groupRange(group: ColumnGroup, keys: readonly number[]): string {
  const own = group.columns.filter((c) => !keys.includes(c));
  const shown = own.length ? own : group.columns;
  const first = Math.min(...shown) + 1;
  const last = Math.max(...shown) + 1;
  return first === last ? `${first}` : `${first}–${last}`;
}
