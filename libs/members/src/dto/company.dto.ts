import { EmailOrEmpty, IsIanaZone, LatLngDto, NullableOptional, Optional, PhoneOrEmpty, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsString, Length, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { TeamConfig } from '../entities/company.entity';
import { teamsConfigProblem, workingHoursProblem } from '../member-rules';

/** editcompany (our extension): only the fields sent change; `teams_config` is replaced whole. */
export class EditCompanyDto {
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @IsString()
  @MaxLength(500)
  address?: string;

  /** `{lat, lng}` (degrees); null clears it. Where `optimizeroute {startEndAtCompany: true}` starts and ends. */
  @NullableOptional()
  @IsObject({ message: 'must be an object {lat, lng} or null' })
  @ValidateNested()
  @Type(() => LatLngDto)
  location?: LatLngDto | null;

  @Optional()
  @IsString()
  @IsIanaZone()
  timezone?: string;

  /** m */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(100000)
  default_radius?: number;

  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @Rule((v) => workingHoursProblem(v) === null, '', { message: (a) => `${workingHoursProblem(a.value)}` })
  working_hours?: Record<string, { start: number; end: number }> | null;

  @Optional()
  @IsBoolean()
  workers_edit_job?: boolean;

  @Optional()
  @IsBoolean()
  workers_create_places?: boolean;

  @Optional()
  @IsBoolean()
  workers_view_places?: boolean;

  /** s a member must stay inside (or beyond) a geofence before the check-in (or check-out) is decided */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(86400)
  checkin_dwell_seconds?: number;

  /**
   * min a member stays within 100 m for a stop: the one threshold of track splitting and the stops
   * reports (CONTRACTS.md "Wave 3: reports and the demo"); null returns to the server's TRACK_STOP_MINUTES
   */
  @NullableOptional()
  @IsInt({ message: 'must be an integer number of minutes (1–240) or null' })
  @Min(1, { message: 'must be at least 1 (minutes)' })
  @Max(240, { message: 'must be at most 240 (minutes)' })
  stop_minutes?: number | null;

  @Optional()
  @Rule((v) => teamsConfigProblem(v) === null, '', { message: (a) => `${teamsConfigProblem(a.value)}` })
  teams_config?: TeamConfig[];
}
