/**
 * GeoJSON (RFC 7946): one FeatureCollection streamed as `{"type":"FeatureCollection","features":[`,
 * one Feature per row, `]}`. A Feature's `properties` are keyed by column key: distance and speed as
 * numbers in the requester's units (km/mi, km/h/mph), integers and numbers as numbers, datetime,
 * date, time and duration as the requester's formatted text, check as a boolean, text as is, an
 * empty cell as `null` ({@link propertyValue}). `geometry` is the row's (positions [lng, lat], as
 * RFC 7946 §3.1.1 orders them; the row sources give them so) or `null` — a row without coordinates
 * is a Feature without geometry (§3.2), never dropped.
 *
 * Backpressure: `row()` resolves when `out` can take more (`drain`).
 */
import type { Writable } from 'node:stream';
import type { Feature, Geometry } from 'geojson';
import type { CellValue, ReportDocument, ReportRow } from '../report-table';
import { propertyValue } from './cell-format';
import { outputFinished, writeChunk } from './stream-util';
import type { TableWriter } from './table-writer';

/** Opens a geojson writer of `doc` onto `out`; `end()` resolves when `out` has finished. */
export function openGeojsonWriter(doc: ReportDocument, out: Writable): TableWriter {
  const failed = outputFinished(out);
  failed.catch(() => undefined);
  let count = 0;
  const open = async (): Promise<void> => {
    if (count === 0) await writeChunk(out, '{"type":"FeatureCollection","features":[', failed);
  };
  return {
    async row(row: ReportRow): Promise<void> {
      return this.rows([row]);
    },
    async rows(rows: readonly ReportRow[]): Promise<void> {
      await open();
      // a batch's features as one write (its size bounds the buffer)
      let text = '';
      for (const row of rows) {
        const properties: Record<string, CellValue> = {};
        for (const c of doc.columns) properties[c.key] = propertyValue(row.values[c.key], c.kind, doc.locale);
        const feature: Feature<Geometry | null> = { type: 'Feature', geometry: row.geometry ?? null, properties };
        text += (count++ === 0 ? '\n' : ',\n') + JSON.stringify(feature);
      }
      if (text) await writeChunk(out, text, failed);
    },
    async end(): Promise<void> {
      await open();
      out.end(count === 0 ? ']}\n' : '\n]}\n');
      await failed;
    },
  };
}
