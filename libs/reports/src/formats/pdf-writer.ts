/**
 * PDF (ISO 32000) through pdfkit: A4 landscape, 36 pt (½ inch) margins; the title (`doc.title`,
 * 16 pt bold) and `doc.subtitle` lines (9 pt) on the first page; then a table whose header row
 * (bold, 8 pt) repeats at the top of every page; cells are text in the requester's formats
 * ({@link formatCell}), one line each, cut with `…` to fit their column. Column widths are the
 * columns' character widths scaled to fill the page width. Each page's footer says "Page n of N".
 *
 * Page numbers: "of N" needs the page count before the pages are written, so pages are buffered
 * (`bufferPages: true`) and flushed at `end()`: the document is in memory until then. Accepted because
 * a pdf holds at most {@link PDF_MAX_ROWS} rows (CONTRACTS.md "Reports"), ~250 pages. For the same
 * reason `row()` never waits for the output (nothing is written before `end()`).
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
import type { ReportDocument, ReportRow } from '../report-table';
import { PDF_MAX_ROWS } from '../report-types';
import { formatCell, isChecked, CHECK_MARK } from './cell-format';
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
const ROW_HEIGHT = 12;
const CELL_PAD = 3;
const FOOTER_SIZE = 8;

/**
 * Opens a pdf writer of `doc` onto `out`; `end()` resolves when `out` has finished. `row()` throws
 * past {@link PDF_MAX_ROWS} rows. `fonts`: null for Helvetica (default: {@link resolvePdfFonts}).
 */
export function openPdfWriter(doc: ReportDocument, out: Writable, fonts: PdfFonts | null = resolvePdfFonts() ?? null): TableWriter {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
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
  const check = fonts ? CHECK_MARK : 'X';

  const pageWidth = pdf.page.width - 2 * MARGIN;
  const bottom = pdf.page.height - MARGIN - FOOTER_SIZE - 6;
  // characters: the column's width, at least its title and 2 (a header is not cut when the page can hold them all)
  const chars = doc.columns.map((c) => Math.max(c.width, c.title.length + 2, 1));
  const totalChars = chars.reduce((s, n) => s + n, 0) || 1;
  const widths = chars.map((n) => (n / totalChars) * pageWidth);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0));

  /** `text` cut with … to fit `width` points in the current font. */
  const fit = (text: string, width: number): string => {
    const room = width - 2 * CELL_PAD;
    if (pdf.widthOfString(text) <= room) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (pdf.widthOfString(text.slice(0, mid) + '…') <= room) lo = mid;
      else hi = mid - 1;
    }
    return lo === 0 ? '' : text.slice(0, lo).trimEnd() + '…';
  };
  const line = (cells: string[], y: number): void => {
    cells.forEach((text, i) => {
      pdf.text(fit(text.replace(/[\r\n\t]+/g, ' '), widths[i]), xs[i] + CELL_PAD, y + 2, { lineBreak: false });
    });
  };

  let y = MARGIN;
  const header = (): void => {
    pdf.font(bold).fontSize(FONT_SIZE);
    line(doc.columns.map((c) => c.title), y);
    y += ROW_HEIGHT;
    pdf.moveTo(MARGIN, y).lineTo(MARGIN + pageWidth, y).lineWidth(0.5).stroke();
    y += 2;
    pdf.font(regular).fontSize(FONT_SIZE);
  };

  // first page: title and subtitle lines, then the table
  pdf.font(bold).fontSize(16).text(doc.title, MARGIN, y, { lineBreak: false });
  y += 22;
  pdf.font(regular).fontSize(9);
  for (const s of doc.subtitle) {
    pdf.text(s, MARGIN, y, { lineBreak: false });
    y += 12;
  }
  y += 8;
  header();

  let rows = 0;
  return {
    async row(row: ReportRow): Promise<void> {
      if (++rows > PDF_MAX_ROWS) throw new Error(`too many rows for pdf (${rows} > ${PDF_MAX_ROWS}): use xlsx or csv`);
      if (y + ROW_HEIGHT > bottom) {
        pdf.addPage();
        y = MARGIN;
        header();
      }
      line(
        doc.columns.map((c) => {
          const raw = row.values[c.key];
          return c.kind === 'check' ? (isChecked(raw) ? check : '') : formatCell(raw, c.kind, doc.locale);
        }),
        y,
      );
      y += ROW_HEIGHT;
      return Promise.resolve();
    },
    async rows(rows: readonly ReportRow[]): Promise<void> {
      for (const row of rows) await this.row(row);
    },
    async end(): Promise<void> {
      const range = pdf.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        pdf.switchToPage(i);
        // writing inside the bottom margin would make pdfkit open a page: lift the margin meanwhile
        const saved = pdf.page.margins.bottom;
        pdf.page.margins.bottom = 0;
        pdf.font(regular).fontSize(FOOTER_SIZE);
        const text = `Page ${i - range.start + 1} of ${range.count}`;
        pdf.text(text, MARGIN + pageWidth - pdf.widthOfString(text), pdf.page.height - MARGIN - FOOTER_SIZE, { lineBreak: false });
        pdf.page.margins.bottom = saved;
      }
      pdf.flushPages();
      pdf.end();
      await done;
    },
  };
}
