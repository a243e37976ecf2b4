import type { EventPlace } from '@app/core';

/**
 * A place row as geofencing reads it for its events (`GEOFENCE_PLACE_VIEW_SQL`): the place's own
 * columns, `lat`/`lng` degrees (null without a location), `creator` the creating member's name.
 */
export interface GeofencePlaceRow {
  id: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postalcode: string;
  countryCode: string;
  phone: string;
  email: string;
  lat: number | null;
  lng: number | null;
  radius: number;
  color: string;
  linkedForms: string;
  creator: string | null;
  data: Array<{ key: string; val: string }>;
  teams: number[];
  createdAt: number;
  updatedAt: number | null;
}

/**
 * The place object of `placecheckin`/`placecheckout` (spec "Events": the place as the Place resource
 * answers it; CONTRACTS.md "Places, check-ins, clock"). Interim: the places work writes the shared
 * `toPlaceView` (`libs/places/src/place-view.ts`); when it lands this gives way to it.
 * `tsSaved` = the last change (the creation when never edited), ms.
 */
export function toGeofencePlaceView(r: GeofencePlaceRow): EventPlace {
  return {
    uid: r.id,
    name: r.name,
    address: r.address,
    city: r.city,
    state: r.state,
    postalcode: r.postalcode,
    country_code: r.countryCode,
    phone: r.phone,
    email: r.email,
    location: r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng },
    radius: r.radius,
    color: r.color,
    linkedForms: r.linkedForms,
    creator: r.creator ?? '',
    data: r.data.map(({ key, val }) => ({ [key]: val })),
    teams: r.teams,
    tsCreated: r.createdAt,
    tsSaved: r.updatedAt ?? r.createdAt,
  };
}
