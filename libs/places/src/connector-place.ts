import { DomainError, invalid } from '@app/core';
import { ConnectorPlaceBody } from './dto/connector-place.dto';
import { CreatePlaceDto, EditPlaceDto, PlaceTarget, PlaceWritableFields } from './dto/place.dto';
import { PlaceView } from './place-view';

/**
 * The connector's place (CONTRACTS.md "Wave 3: connector for automation platforms"), mapped from the
 * action API's place in this one place, both ways. Texts are "" when empty (as the action API
 * answers them); `location` is null when the place has no position.
 */
export interface ConnectorPlace {
  id: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, or "" */
  countryCode: string;
  phone: string;
  email: string;
  /** degrees (WGS84); null when the place has no position */
  location: { lat: number; lng: number } | null;
  /** check-in radius, m; 0 = the company's `default_radius` */
  radius: number;
  /** teams that may access the place */
  teams: number[];
  /** ms, creation (server clock) */
  createdAt: number;
  /** ms, the last write (creation when never edited; server clock) */
  updatedAt: number;
}

/** A place view (createplace, getplaces…) as the connector answers it. */
export function toConnectorPlace(v: PlaceView): ConnectorPlace {
  return {
    id: v.uid,
    name: v.name,
    address: v.address,
    city: v.city,
    state: v.state,
    postalCode: v.postalcode,
    countryCode: v.country_code,
    phone: v.phone,
    email: v.email,
    location: v.location,
    radius: v.radius,
    teams: v.teams,
    createdAt: v.tsCreated,
    updatedAt: v.tsSaved,
  };
}

/** Connector body field → the action API's place field it writes. */
const CONNECTOR_TO_ACTION = {
  name: 'name',
  address: 'address',
  city: 'city',
  state: 'state',
  postalCode: 'postalcode',
  countryCode: 'country_code',
  phone: 'phone',
  email: 'email',
  location: 'location',
  radius: 'radius',
  teams: 'teams',
} as const satisfies Partial<Record<keyof ConnectorPlaceBody, keyof CreatePlaceDto>>;

const ACTION_TO_CONNECTOR: Record<string, string> = Object.fromEntries(Object.entries(CONNECTOR_TO_ACTION).map(([c, a]) => [a, c]));

/** The action API's place fields for a connector body (only the fields sent; `id` and the read-only ones left out). */
export function connectorBodyToPlaceFields(b: ConnectorPlaceBody): PlaceWritableFields & { name?: string } {
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(CONNECTOR_TO_ACTION)) {
    const value = b[from as keyof typeof CONNECTOR_TO_ACTION];
    if (value !== undefined) out[to] = value;
  }
  return out as PlaceWritableFields & { name?: string };
}

/**
 * createplace's request for a `POST /v1/places` body.
 * @throws DomainError invalid naming `body.id` (read-only on create) or `body.name` (required)
 */
export function connectorCreatePlace(b: ConnectorPlaceBody): CreatePlaceDto {
  if (b.id !== undefined) throw invalid('body.id', 'is read-only on create');
  if (b.name === undefined) throw invalid('body.name', 'is required');
  return Object.assign(new CreatePlaceDto(), connectorBodyToPlaceFields(b));
}

/** The target of `/v1/places/{id}`: errors about it name `path.id`. */
export const connectorPlaceTarget = (id: string): PlaceTarget => ({ uid: id, field: 'path.id' });

/**
 * editplace's request for `PATCH /v1/places/{id}`: the fields sent change on that place.
 * @throws DomainError invalid naming `body.id` when it differs from the id in the path
 */
export function connectorEditPlace(id: string, b: ConnectorPlaceBody): EditPlaceDto {
  if (b.id !== undefined && b.id !== id) throw invalid('body.id', 'differs from the id in the path');
  return Object.assign(new EditPlaceDto(), connectorBodyToPlaceFields(b), { targets: [connectorPlaceTarget(id)] });
}

/**
 * A place error as the connector answers it: an error about a field of the action's request
 * (`data.postalcode`, `data.teams[2]`) names the connector's field instead (`body.postalCode`,
 * `body.teams[2]`), with the same rule. Other errors (not found naming `path.id`, forbidden) pass
 * unchanged.
 */
export function toConnectorPlaceError(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.kind !== 'invalid' || err.field === undefined || err.rule === undefined) return err;
  const m = /^data\.([A-Za-z_]+)(.*)$/.exec(err.field);
  if (!m) return err;
  return invalid(`body.${ACTION_TO_CONNECTOR[m[1]] ?? m[1]}${m[2]}`, err.rule);
}
