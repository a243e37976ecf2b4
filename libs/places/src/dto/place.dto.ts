import { ColorOrEmpty, EmailOrEmpty, LatLngDto, namedTargets, Optional, PhoneOrEmpty, Rule } from '@app/core';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsString, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';

/** getplaces `max`: default and largest value (CONTRACTS.md "Places, check-ins, clock"). */
export const DEFAULT_PLACES_MAX = 500;
export const MAX_PLACES_MAX = 5000;
/** Places one editplace / deleteplace call may name. */
export const MAX_PLACE_UIDS = 1000;
/** Extended data pairs per place. */
export const MAX_EXTENDED_DATA = 100;

/** One `extended_data` pair; answered as `{[key]: val}` in the place's `data`. */
export class ExtendedDataDto {
  @IsString()
  @Length(1, 100)
  key: string;

  @IsString()
  @MaxLength(2000)
  val: string;
}

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

/** Whether every `key` of an `extended_data` list is different. */
const uniqueKeys = (v: unknown) => !Array.isArray(v) || new Set(v.map((e: { key?: unknown } | null) => e?.key)).size === v.length;

/**
 * The place fields createplace and editplace write besides `name`, each with its rule (spec "Place";
 * CONTRACTS.md "Places, check-ins, clock"). Wire names as the spec writes them.
 */
export class PlaceWritableFields {
  /** required unless the address is geocoded (createplace) */
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
  postalcode?: string;

  /** ISO 3166-1 alpha-2 (stored upper-case), or "" */
  @Optional()
  @Transform(upper)
  @IsString()
  @Matches(/^([A-Z]{2})?$/, { message: 'must be an ISO 3166-1 alpha-2 country code such as SI, or ""' })
  country_code?: string;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;

  @Optional()
  @ColorOrEmpty()
  color?: string;

  /** comma-separated form ids */
  @Optional()
  @IsString()
  @MaxLength(1000)
  linkedForms?: string;

  /** team ids of the company's `teams_config` */
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_EXTENDED_DATA)
  @ValidateNested({ each: true })
  @Type(() => ExtendedDataDto)
  @Rule(uniqueKeys, 'keys must be different')
  extended_data?: ExtendedDataDto[];
}

/** createplace: `name` is the only required field (`location` unless geocoded). */
export class CreatePlaceDto extends PlaceWritableFields {
  @IsString()
  @Length(1, 200)
  name: string;
}

/** A place an editplace / deleteplace call names, with the field an error about it names. */
export interface PlaceTarget {
  uid: string;
  field: string;
}

/**
 * The places of `uid | uids` (exactly one of them, `uids` not empty).
 * @throws DomainError invalid naming `uid` or `uids`
 */
function placeTargets(dto: { uid?: string; uids?: string[] }, prefix: string): PlaceTarget[] {
  return namedTargets(prefix, dto.uid, dto.uids, ['uid', 'uids'], 'place').map(({ id, field }) => ({ uid: id, field }));
}

/** deleteplace (our extension): `uid | uids`, exactly one. The pipe calls {@link completeValidation} once the rules pass. */
export class DeletePlaceDto {
  @Optional()
  @IsString()
  @Length(1, 64)
  uid?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_PLACE_UIDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];

  /** The places named (not a wire field: set by {@link completeValidation}). */
  declare targets: PlaceTarget[];

  completeValidation(prefix: string): void {
    this.targets = placeTargets(this, prefix);
  }
}

/** editplace (the spec names it without a shape): `uid | uids` and createplace's fields; only the fields sent change. */
export class EditPlaceDto extends PlaceWritableFields {
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @Optional()
  @IsString()
  @Length(1, 64)
  uid?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_PLACE_UIDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];

  /** The places named (not a wire field: set by {@link completeValidation}). */
  declare targets: PlaceTarget[];

  completeValidation(prefix: string): void {
    this.targets = placeTargets(this, prefix);
  }
}

/** getplaces. */
export class GetPlacesDto {
  /** case-insensitive substring of the name */
  @Optional()
  @IsString()
  @MaxLength(200)
  query?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_PLACES_MAX)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];

  /** default 500 */
  @Optional()
  @IsInt({ message: `must be an integer from 1 to ${MAX_PLACES_MAX}` })
  @Min(1, { message: `must be an integer from 1 to ${MAX_PLACES_MAX}` })
  @Max(MAX_PLACES_MAX, { message: `must be an integer from 1 to ${MAX_PLACES_MAX}` })
  max?: number;
}
