/**
 * GeoJSON (RFC 7946): one FeatureCollection streamed as `{"type":"FeatureCollection","features":[`,
 * one Feature per row, `]}`. A Feature's `properties` are keyed by column key: distance and speed as
 * numbers in the requester's units (km/mi, km/h/mph), integers and numbers as numbers, datetime,
 * date, time and duration as the requester's formatted text, check as a boolean, text as is, an
 * empty cell as `null` ({@link propertyValue}). `geometry` is the row's (positions [lng, lat], as
 * RFC 7946 §3.1.1 orders them; the row sources give them so) or `null` — a row without coordinates
 * is a Feature without geometry (§3.2), never dropped.
 *
 * Backpressure: `row()` resolves when `out` can take more (`drain`). A column listed twice is one property.
 */
import type { Writable } from 'node:stream';
import type { ReportDocument, ReportRow } from '../report-table';
import { propertyValue } from './cell-format';
import { outputFinished, writeChunk } from './stream-util';
import type { TableWriter } from './table-writer';

/** Opens a geojson writer of `doc` onto `out`; `end()` resolves when `out` has finished. */
export function openGeojsonWriter(doc: ReportDocument, out: Writable): TableWriter {
  const failed = outputFinished(out);
  failed.catch(() => undefined);
  let count = 0;
  // a key listed twice (two renames of one column) is one property
  const columns = doc.columns.filter((c, i, all) => all.findIndex((d) => d.key === c.key) === i);
  // each property's `"key":` (with the comma before all but the first), JSON-escaped once: the feature
  // is written as text, not built as an object for JSON.stringify (~15 % of the writer's time)
  const keys = columns.map((c, i) => (i ? ',' : '') + JSON.stringify(c.key) + ':');
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
        let properties = '';
        for (let i = 0; i < columns.length; i++) {
          const c = columns[i];
          properties += keys[i] + JSON.stringify(propertyValue(row.values[c.key], c.kind, doc.locale));
        }
        const geometry = row.geometry ? JSON.stringify(row.geometry) : 'null';
        text += `${count++ === 0 ? '\n' : ',\n'}{"type":"Feature","geometry":${geometry},"properties":{${properties}}}`;
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
