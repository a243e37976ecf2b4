import { AppConfig } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';

/** A point on the WGS84 ellipsoid, degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** The address fields a forward search uses (createplace's and editplace's). */
export interface AddressQuery {
  address?: string;
  city?: string;
  state?: string;
  postalcode?: string;
  country_code?: string;
}

/** ms a geocoder request may take before it counts as "no answer". */
const GEOCODER_TIMEOUT_MS = 5000;

/**
 * Geocoding through a configured Nominatim-compatible service (`GEOCODER_URL`, our extension; the
 * service has no geocoder of its own). Source of the protocol: Nominatim's API documentation —
 * `GET /search?format=jsonv2&limit=1&street=&city=&state=&postalcode=&countrycodes=` answers an array
 * of `{lat, lon}` (strings); `GET /reverse?format=jsonv2&lat=&lon=` answers `{display_name}` (or
 * `{error}` when nothing is there).
 *
 * Both methods answer `null` when no geocoder is configured, it has no result, or it fails (a failure
 * is logged, never thrown: an address is a convenience, not a reason to fail the call).
 */
@Injectable()
export class Geocoder {
  private readonly logger = new Logger(Geocoder.name);

  constructor(private readonly config: AppConfig) {}

  /** Whether `GEOCODER_URL` is set. */
  get configured(): boolean {
    return !!this.config.GEOCODER_URL;
  }

  /** The position of an address, or null (none configured, no result, or failure). */
  async search(q: AddressQuery): Promise<LatLng | null> {
    const params: Record<string, string> = { format: 'jsonv2', limit: '1', addressdetails: '0' };
    if (q.address) params.street = q.address;
    if (q.city) params.city = q.city;
    if (q.state) params.state = q.state;
    if (q.postalcode) params.postalcode = q.postalcode;
    if (q.country_code) params.countrycodes = q.country_code.toLowerCase();
    if (Object.keys(params).length === 3) return null;
    const body = await this.get('search', params);
    if (!Array.isArray(body) || !body.length) return null;
    const first = body[0] as { lat?: unknown; lon?: unknown };
    const lat = Number(first.lat);
    const lng = Number(first.lon);
    return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
  }

  /** The display address at a position, or null (none configured, nothing there, or failure). */
  async reverse(at: LatLng): Promise<string | null> {
    const body = await this.get('reverse', { format: 'jsonv2', lat: String(at.lat), lon: String(at.lng) });
    const name = (body as { display_name?: unknown } | null)?.display_name;
    return typeof name === 'string' && name ? name : null;
  }

  private async get(path: 'search' | 'reverse', params: Record<string, string>): Promise<unknown> {
    const base = this.config.GEOCODER_URL;
    if (!base) return null;
    const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(GEOCODER_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!res.ok) {
        this.logger.warn(`geocoder ${path} answered ${res.status}`);
        return null;
      }
      return (await res.json()) as unknown;
    } catch (err) {
      this.logger.warn(`geocoder ${path} failed: ${(err as Error).message}`);
      return null;
    }
  }
}
