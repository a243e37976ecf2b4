import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { PlaceRow, readPlaceRows } from '../reads/places-list.read';

/** The `places` report's columns (ours; docs/reports.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'Name', kind: 'text', width: 26 },
  { key: 'address', title: 'Address', kind: 'text', width: 30 },
  { key: 'city', title: 'City', kind: 'text', width: 16 },
  { key: 'postalcode', title: 'Postal code', kind: 'text', width: 11 },
  { key: 'state', title: 'State', kind: 'text', width: 12 },
  { key: 'country_code', title: 'Country', kind: 'text', width: 8 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11 },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11 },
  { key: 'radius', title: 'Radius (m)', kind: 'integer', width: 10 },
  { key: 'teams', title: 'Teams', kind: 'text', width: 18 },
  { key: 'phone', title: 'Phone', kind: 'text', width: 16, default: false },
  { key: 'email', title: 'Email', kind: 'text', width: 24, default: false },
  { key: 'color', title: 'Colour', kind: 'text', width: 9, default: false },
  { key: 'created', title: 'Created', kind: 'datetime', width: 18 },
  { key: 'creator', title: 'Created by', kind: 'text', width: 20, default: false },
  { key: 'uid', title: 'Uid', kind: 'text', width: 28, default: false },
];

/** One place as a row, a Point at its location (null without one). */
export function placeRow(r: PlaceRow): ReportRow {
  return {
    values: {
      name: r.name,
      address: r.address,
      city: r.city,
      postalcode: r.postalcode,
      state: r.state,
      country_code: r.country_code,
      latitude: r.lat,
      longitude: r.lng,
      radius: r.radius,
      teams: r.teams ?? '',
      phone: r.phone,
      email: r.email,
      color: r.color,
      created: Number(r.created_at),
      creator: r.creator,
      uid: r.id,
    },
    geometry: r.lat !== null && r.lng !== null ? { type: 'Point', coordinates: [r.lng, r.lat] } : null,
  };
}

/** `places` (no date filter): the named places in request order, with their position as a Point. */
export const PLACES_REPORT: ReportDefinition = {
  type: 'places',
  title: 'Places',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    for await (const r of readPlaceRows(ctx.db, ctx.companyId, ctx.places.map((p) => p.id))) yield placeRow(r);
  },
  count: async (ctx) => ctx.places.length,
};
