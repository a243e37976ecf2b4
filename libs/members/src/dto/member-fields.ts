import { ColorOrEmpty, EmailOrEmpty, IsIanaZone, normalizeRole, NullableOptional, Optional, PhoneOrEmpty, Role, Rule } from '@app/core';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsString, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { TRAVEL_MODES, TravelMode } from '../entities/member.entity';
import { workingHoursOverridesProblem, workingHoursProblem } from '../member-rules';

/** Usernames: 1–254 printable characters without white space (usually an e-mail address). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
export const USERNAME = /^[^\s\x00-\x1f\x7f]{1,254}$/;

const roleTransform = ({ value }: { value: unknown }) => normalizeRole(value) ?? value;

/**
 * Every member field `editaccount` can write, each with its rule (CONTRACTS.md, "Members and
 * company"). Names are the wire names (snake_case as the spec writes them).
 */
export class MemberWritableFields {
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;

  @Optional()
  @ColorOrEmpty()
  color?: string;

  @Optional()
  @Transform(roleTransform)
  @IsIn(['worker', 'operator', 'administrator'], { message: 'must be one of worker, operator, dispatcher, administrator, admin' })
  role?: Role;

  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];

  @Optional()
  @IsString()
  @MaxLength(200)
  status_label?: string;

  @NullableOptional()
  @IsInt()
  @Min(0)
  @Max(1000000)
  vehicle_capacity?: number | null;

  @Optional()
  @IsIn(TRAVEL_MODES as unknown as string[], { message: `must be one of ${TRAVEL_MODES.join(', ')}` })
  travel_mode?: TravelMode;

  @NullableOptional()
  @Rule((v) => workingHoursProblem(v) === null, '', { message: (a) => `${workingHoursProblem(a.value)}` })
  working_hours?: Record<string, { start: number; end: number }> | null;

  @Optional()
  @Rule((v) => workingHoursOverridesProblem(v) === null, '', { message: (a) => `${workingHoursOverridesProblem(a.value)}` })
  working_hours_overrides?: Record<string, { start: number; end: number }>;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(8640000000000000)
  ignore_working_hours_until_ts?: number;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  route_start_lat?: number | null;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  route_start_lng?: number | null;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  route_end_lat?: number | null;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  route_end_lng?: number | null;

  @NullableOptional()
  @IsInt()
  @Min(0)
  @Max(1439)
  route_start_time?: number | null;

  @Optional()
  @IsIn(['SI', 'US'], { message: 'must be SI or US' })
  unit_distance?: 'SI' | 'US';

  @Optional()
  @IsIn(['12', '24'], { message: 'must be the string "12" or "24"' })
  unit_time?: '12' | '24';

  @Optional()
  @IsString()
  @Length(1, 40)
  @Matches(/^[A-Za-z/.\- ,:]+$/, { message: 'must be a date pattern such as YYYY-MM-DD or DD.MM.YYYY' })
  unit_date?: string;

  @Optional()
  @IsString()
  @ValidateIf((_o, v) => v !== '')
  @IsIanaZone()
  timezone?: string;

  @Optional()
  @IsString()
  @MaxLength(16) // the column's length
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'must be a language code such as en or pt-BR' })
  language?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 50, { each: true, message: 'must be tags of 1 to 50 characters' })
  skills?: string[];

  @Optional()
  @IsString()
  @MaxLength(100)
  expertise?: string;

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
  @MaxLength(20)
  postalcode?: string;

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
  @MaxLength(100)
  country?: string;

  @Optional()
  @IsString()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 code such as SI, or ""' })
  country_code?: string;

  @NullableOptional()
  @IsString()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'must be 1 to 64 of A-Z a-z 0-9 _ . : -, or "" / null to clear' })
  device_id?: string | null;
}

/** editaccount: the member by `account` (username) or `uid`, and the fields to change. */
export class EditAccountDto extends MemberWritableFields {
  @Optional()
  @IsString()
  @Length(1, 254)
  account?: string;

  @Optional()
  @IsString()
  @Length(1, 64)
  uid?: string;
}

/** createaccount (spec fields, plus `email` and `teams`: our extension, documented). */
export class CreateAccountDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsString()
  @Matches(USERNAME, { message: 'must be 1 to 254 characters without white space' })
  username: string;

  @Optional()
  @IsString()
  @Length(8, 200)
  password?: string;

  @Optional()
  @Transform(roleTransform)
  @IsIn(['worker', 'operator', 'administrator'], { message: 'must be one of worker, operator, dispatcher, administrator, admin' })
  role?: Role;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];
}

/** deleteaccount: `uid` or `uids`, exactly one. */
export class DeleteAccountDto {
  @Optional()
  @IsString()
  @Length(1, 64)
  uid?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];
}

/** getaccounts: optional `uids`. */
export class GetAccountsDto {
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];
}
