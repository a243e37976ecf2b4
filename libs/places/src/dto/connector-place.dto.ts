import { EmailOrEmpty, LatLngDto, MsNotSeconds, Optional, PhoneOrEmpty, QueryInt, Rule } from '@app/core';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsString, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';

/** `GET /v1/places` page size: default and largest value (CONTRACTS.md "Connector /v1": as `/v1/jobs`). */
export const CONNECTOR_PLACES_LIMIT = 100;

/** A connector field that is an answer only: sending it is a 400 naming it read-only. */
const ReadOnly = () => (target: object, property: string) => {
  Optional()(target, property);
  Rule(() => false, 'is read-only')(target, property);
};

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

/**
 * `POST /v1/places` and `PATCH /v1/places/{id}` (CONTRACTS.md "Wave 3: connector for automation
 * platforms"): the connector's place fields, camelCase, each with createplace's rule for the action
 * field it maps to (`connectorBodyToPlaceFields`; `connector-place.spec.ts` checks the rules agree).
 * `name` is required on POST; only the fields sent change on PATCH. The answer-only fields are
 * refused as read-only; unknown keys as unknown.
 */
export class ConnectorPlaceBody {
  /** PATCH only: must equal the id in the path when sent (read-only on POST) */
  @Optional()
  @IsString()
  @Length(1, 64)
  id?: string;

  /** required on POST */
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @Optional()
  @IsString()
  @MaxLength(500)
  address?: string;

  @Optional()
  @IsString()
  @MaxLength(100)
  city?: string;

  @Optional()
  @IsString()
  @MaxLength(100)
  state?: string;

  @Optional()
  @IsString()
  @MaxLength(20)
  postalCode?: string;

  /** ISO 3166-1 alpha-2 (stored upper-case), or "" */
  @Optional()
  @Transform(upper)
  @IsString()
  @Matches(/^([A-Z]{2})?$/, { message: 'must be an ISO 3166-1 alpha-2 country code such as SI, or ""' })
  countryCode?: string;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;

  /** degrees (WGS84); required on POST unless the server geocodes addresses (GEOCODER_URL) */
  @Optional()
  @IsObject({ message: 'must be an object {lat, lng}' })
  @ValidateNested()
  @Type(() => LatLngDto)
  location?: LatLngDto;

  /** check-in radius, m; 0 = the company's `default_radius` */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(100000)
  radius?: number;

  /** team ids of the company's `teams_config`; on POST the caller's own teams are added */
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];

  // answers only: named as read-only rather than unknown when sent
  @ReadOnly() createdAt?: unknown;
  @ReadOnly() updatedAt?: unknown;
}

/**
 * `GET /v1/places` query. Newest change first (`updatedAt`, then `id`, both descending); `updatedSince`
 * polls (inclusive). Places are not commit-ordered: see docs/connector.md "Places".
 */
export class ConnectorPlacesQueryDto {
  /** case-insensitive substring of the name */
  @Optional()
  @IsString()
  @MaxLength(200)
  query?: string;

  /** ms, inclusive: places whose `updatedAt` (creation when never edited) is at or after it */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  updatedSince?: number;

  /** default 100; larger values are clamped to 100 */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  limit?: number;

  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  skip?: number;
}
