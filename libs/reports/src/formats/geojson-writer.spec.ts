import { check } from '@placemarkio/check-geojson';
import type { FeatureCollection } from 'geojson';
import type { ReportRow } from '../report-table';
import { openGeojsonWriter } from './geojson-writer';
import { Collector, sampleDoc, US_LOCALE } from './spec-helpers';

async function geojsonOf(rows: ReportRow[], doc = sampleDoc()): Promise<string> {
  const out = new Collector();
  const w = openGeojsonWriter(doc, out);
  for (const r of rows) await w.row(r);
  await w.end();
  return out.buffer().toString('utf8');
}

describe('geojson writer', () => {
  it('a valid FeatureCollection: [lng, lat] points, null geometries kept, typed properties', async () => {
    const text = await geojsonOf(
      [
        {
          values: { name: 'Višnjan', count: 2, ratio: 0.125, start: Date.UTC(2024, 6, 4, 17, 5), day: 20240704, spent: 90, distance: 10000, speed: 10, done: true },
          geometry: { type: 'Point', coordinates: [13.7172, 45.2756] },
        },
        { values: { name: 'Nowhere', done: false }, geometry: null },
        { values: { name: 'No key' } },
      ],
      sampleDoc(US_LOCALE),
    );
    const fc = check(text) as FeatureCollection; // throws on invalid GeoJSON
    expect(fc.features).toHaveLength(3);
    expect(fc.features[0].geometry).toEqual({ type: 'Point', coordinates: [13.7172, 45.2756] });
    expect(fc.features[0].properties).toEqual({
      name: 'Višnjan',
      count: 2,
      ratio: 0.13,
      start: '07/04/2024 1:05 PM',
      day: '07/04/2024',
      at: null,
      spent: '0:01:30',
      distance: 6.21,
      speed: 22.4,
      done: true,
    });
    expect(fc.features[1].geometry).toBeNull();
    expect(fc.features[1].properties).toMatchObject({ name: 'Nowhere', done: false, distance: null });
    expect(fc.features[2].geometry).toBeNull();
  });

  it('an empty collection for no rows', async () => {
    expect(check(await geojsonOf([]))).toEqual({ type: 'FeatureCollection', features: [] });
  });
});
