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
 * Rows are buffered as their cell texts (at most {@link PDF_MAX_ROWS}: column widths need every cell,
 * and "of N" the page count) and the document is laid out and written at `end()`, with its pages
 * buffered (`bufferPages`) for the footers: the document is in memory until then, ~250 pages at most.
 * So `row()` never waits for the output.
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
    bufferPages: true,
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

  let y = MARGIN;
  let bottom = 0;
  const newPage = () => {
    pdf.addPage(page);
    y = MARGIN;
    bottom = pdf.page.height - MARGIN - FOOTER_SIZE - 6;
  };
  newPage();
  const pageWidth = pdf.page.width - 2 * MARGIN;

  // first page: title and subtitle lines
  pdf.font(bold).fontSize(16).text(doc.title, MARGIN, y, { width: pageWidth });
  y = pdf.y + 4;
  pdf.font(regular).fontSize(9);
  for (const s of doc.subtitle) {
    pdf.text(s, MARGIN, y, { width: pageWidth });
    y = pdf.y + 1;
  }
  y += 8;

  pdf.fontSize(fontSize);
  const lineHeight = pdf.currentLineHeight(true);
  for (const [gi, group] of layout.groups.entries()) {
    if (gi > 0) newPage();
    drawGroup(group, layout.groups.length > 1 ? `Columns ${groupRange(group, keys)} of ${n}` : undefined);
  }

  function drawGroup(group: ColumnGroup, caption: string | undefined): void {
    const xs: number[] = [];
    group.widths.reduce((x, w) => (xs.push(x), x + w), MARGIN);
    const tableWidth = group.widths.reduce((s, w) => s + w, 0);
    const aligns = group.columns.map((c) => (RIGHT_ALIGNED.has(cols[c].kind) ? 'right' : cols[c].kind === 'check' ? 'center' : 'left'));
    pdf.font(bold).fontSize(fontSize);
    const headerHeight = Math.max(...group.columns.map((c, i) => pdf.heightOfString(titles[c], { width: group.widths[i] - 2 * PAD_X }))) + 2 * PAD_Y;

    const header = () => {
      pdf.font(bold).fontSize(fontSize);
      if (caption) {
        pdf.font(regular).text(caption, MARGIN, y, { lineBreak: false });
        y += lineHeight + 2;
        pdf.font(bold);
      }
      group.columns.forEach((c, i) => {
        pdf.text(titles[c], xs[i] + PAD_X, y + PAD_Y, { width: group.widths[i] - 2 * PAD_X, align: aligns[i] });
      });
      y += headerHeight;
      pdf.moveTo(MARGIN, y).lineTo(MARGIN + tableWidth, y).lineWidth(0.75).strokeColor('black').stroke();
      y += 1;
      pdf.font(regular).fontSize(fontSize);
    };
    header();

    const maxRowHeight = bottom - MARGIN - headerHeight - lineHeight - 4;
    for (let r = 0; r < cells.length; r++) {
      const row = cells[r];
      // heights: one line where the text fits its column, else the wrapper's
      let height = lineHeight;
      const wrapped: (number | undefined)[] = [];
      group.columns.forEach((c, i) => {
        const room = group.widths[i] - 2 * PAD_X;
        if (row[c] !== '' && widths[r * n + c] * scale > room) {
          const h = pdf.heightOfString(row[c], { width: room });
          wrapped[i] = h;
          if (h > height) height = h;
        }
      });
      const clamped = height > maxRowHeight;
      if (clamped) height = maxRowHeight;
      height += 2 * PAD_Y;
      if (y + height > bottom) {
        newPage();
        header();
      }
      group.columns.forEach((c, i) => {
        const s = row[c];
        if (s === '') return;
        const room = group.widths[i] - 2 * PAD_X;
        if (wrapped[i] === undefined) {
          const w = widths[r * n + c] * scale;
          const dx = aligns[i] === 'right' ? room - w : aligns[i] === 'center' ? (room - w) / 2 : 0;
          pdf.text(s, xs[i] + PAD_X + dx, y + PAD_Y, { lineBreak: false });
        } else {
          pdf.text(s, xs[i] + PAD_X, y + PAD_Y, { width: room, align: aligns[i], ...(clamped ? { height: height - 2 * PAD_Y, ellipsis: true } : {}) });
        }
      });
      y += height;
      pdf.moveTo(MARGIN, y).lineTo(MARGIN + tableWidth, y).lineWidth(0.25).strokeColor('#b0b0b0').stroke();
    }
  }

  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // writing inside the bottom margin would make pdfkit open a page: lift the margin meanwhile
    const saved = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.font(regular).fontSize(FOOTER_SIZE).fillColor('#555555');
    const footY = pdf.page.height - MARGIN - FOOTER_SIZE;
    const pageNo = `Page ${i - range.start + 1} of ${range.count}`;
    pdf.text(pageNo, pdf.page.width - MARGIN - pdf.widthOfString(pageNo), footY, { lineBreak: false });
    pdf.text(doc.title, MARGIN, footY, { lineBreak: false });
    pdf.page.margins.bottom = saved;
  }
  pdf.flushPages();
  pdf.end();
  await done;
}

/** "3–9" for a group of columns 3…9 (1-based, key columns left out unless the group is theirs alone). */
function groupRange(group: ColumnGroup, keys: readonly number[]): string {
  const own = group.columns.filter((c) => !keys.includes(c));
  const shown = own.length ? own : group.columns;
  const first = Math.min(...shown) + 1;
  const last = Math.max(...shown) + 1;
  return first === last ? `${first}` : `${first}–${last}`;
}
