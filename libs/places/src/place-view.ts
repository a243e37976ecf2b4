import { fromPoint, LatLng } from '@app/core';
import { Place } from './entities/place.entity';

/**
 * A place as every places action (and a place-bearing event) answers it: the spec's Place resource
 * (CONTRACTS.md "Places, check-ins, clock") plus `tsCreated`/`tsSaved` (ours). The OpenAPI answer
 * schemas are generated from this type, so a field added to the view belongs here.
 */
export interface PlaceView {
  uid: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postalcode: string;
  /** ISO 3166-1 alpha-2, or "" */
  country_code: string;
  phone: string;
  email: string;
  /** degrees (WGS84); null when the place has no position */
  location: { lat: number; lng: number } | null;
  /** check-in radius, m; 0 = the company's `default_radius` */
  radius: number;
  /** `#RRGGBB` or "" */
  color: string;
  /** comma-separated form ids */
  linkedForms: string;
  /** the creating member's name; "" when unknown */
  creator: string;
  /** the extended data as single-key objects, in the order written: `[{"gate": "B"}]` */
  data: Array<Record<string, string>>;
  /** teams that may access the place */
  teams: number[];
  /** ms, creation */
  tsCreated: number;
  /** ms, the last write (creation when never edited) */
  tsSaved: number;
}

/** The fields of a place a view needs: the entity, or a row of `PLACE_FIELDS_SQL` (same names). */
export type PlaceViewSource = Pick<
  Place,
  | 'id'
  | 'name'
  | 'address'
  | 'city'
  | 'state'
  | 'postalcode'
  | 'countryCode'
  | 'phone'
  | 'email'
  | 'location'
  | 'radius'
  | 'color'
  | 'linkedForms'
  | 'data'
  | 'teams'
  | 'createdAt'
  | 'updatedAt'
>;

/** {@link PlaceViewSource} without the position (given apart, as `{lat, lng}`, to {@link placeViewOf}). */
export type PlaceViewFields = Omit<PlaceViewSource, 'location'>;

/**
 * The wire form of a place.
 * @param place the entity (location as a GeoJSON Point, `[lng, lat]`) or a row with the same fields
 * @param creatorName the creating member's name; null/undefined when unknown (answered as "")
 */
export function toPlaceView(place: PlaceViewSource, creatorName: string | null | undefined): PlaceView {
  return placeViewOf(place, fromPoint(place.location), creatorName);
}

/**
 * The wire form of a place whose position is already `{lat, lng}` degrees (a row read with
 * `lat`/`lng` columns: no GeoJSON Point built and taken apart again). Reads the fields it needs and
 * copies nothing else: a read of 500 pg rows spent ~1.5 ms spreading each row into a new object first.
 * @param place the place's fields; `location` is ignored when present
 * @param location degrees (WGS84), or null when the place has no position
 * @param creatorName the creating member's name; null/undefined when unknown (answered as "")
 */
export function placeViewOf(place: PlaceViewFields, location: LatLng | null, creatorName: string | null | undefined): PlaceView {
  return {
    uid: place.id,
    name: place.name,
    address: place.address,
    city: place.city,
    state: place.state,
    postalcode: place.postalcode,
    country_code: place.countryCode,
    phone: place.phone,
    email: place.email,
    location,
    radius: place.radius,
    color: place.color,
    linkedForms: place.linkedForms,
    creator: creatorName ?? '',
    data: (place.data ?? []).map(({ key, val }) => ({ [key]: val })),
    teams: [...(place.teams ?? [])],
    tsCreated: place.createdAt,
    tsSaved: place.updatedAt ?? place.createdAt,
  };
}

/**
 * A row of the place reads (`PLACE_FIELDS_SQL` with the creator's name, `PLACE_CREATOR_NAME_SQL`, in
 * `members-place-views.read.ts`): the view's fields, the position as `lat`/`lng` degrees (null when
 * the place has none), the creator's id and name.
 */
export type PlaceRow = PlaceViewFields & {
  lat: number | null;
  lng: number | null;
  creatorId: string | null;
  creatorName: string | null;
};

/** The view of a {@link PlaceRow}. */
export function toPlaceRowView(row: PlaceRow): PlaceView {
  return placeViewOf(row, row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng }, row.creatorName);
}
