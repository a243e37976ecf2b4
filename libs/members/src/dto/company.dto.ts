import { EmailOrEmpty, IsIanaZone, LatLngDto, NullableOptional, Optional, PhoneOrEmpty, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsString, Length, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { extraLabelProblem, LABEL_CONTROL_RULE, LABEL_LENGTH_RULE, MAX_EXTRA_LABEL } from '../company-labels';
import { TeamConfig } from '../entities/company.entity';
import { teamsConfigProblem, workingHoursProblem } from '../member-rules';

/**
 * A worker-input field's label: the job answers' read-only `extra_<kind>_<x>_key` (a string of at most
 * 100 characters without control characters; `""` clears it). The messages are also the OpenAPI
 * description (string messages only are read there).
 */
const ExtraLabel = (): PropertyDecorator => (target, property) => {
  const decorators = [
    Optional(),
    IsString(),
    Rule((v) => typeof v === 'string' && [...v].length <= MAX_EXTRA_LABEL, LABEL_LENGTH_RULE),
    Rule((v) => typeof v === 'string' && extraLabelProblem(v) === null, LABEL_CONTROL_RULE),
  ];
  // applied as stacked decorators are: bottom first
  for (const decorate of decorators.reverse()) decorate(target, property as string);
};

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

  /** the label of the jobs' `extra_number_1_key` (worker-input number field 1); "" clears it */
  @ExtraLabel()
  extra_number_1_key?: string;

  @ExtraLabel()
  extra_number_2_key?: string;

  @ExtraLabel()
  extra_number_3_key?: string;

  @ExtraLabel()
  extra_number_4_key?: string;

  /** the label of the jobs' `extra_text_1_key` (worker-input text field 1); "" clears it */
  @ExtraLabel()
  extra_text_1_key?: string;

  @ExtraLabel()
  extra_text_2_key?: string;

  @ExtraLabel()
  extra_text_3_key?: string;

  @ExtraLabel()
  extra_text_4_key?: string;
}
