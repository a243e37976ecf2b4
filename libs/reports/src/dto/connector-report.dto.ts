import { CompletesValidation, isRealDay, Optional, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsString, ValidateNested } from 'class-validator';
import { connectorReportRequest } from '../connector-report';
import { REPORT_FORMATS, REPORT_TYPES, ReportFormat, ReportType } from '../report-types';
import { CreateReportDto, MAX_REPORT_ACCOUNTS, MAX_REPORT_COLUMNS, ReportColumnDto } from './create-report.dto';

const DATE_RULE = 'must be a real date YYYY-MM-DD';
const isIsoDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDay(Number(v.replace(/-/g, '')));

/**
 * `POST /v1/reports` (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md
 * "Reports"): createreport's request with the connector's names — `type` (`reporttype`), `date`
 * (`day`) or `from` + `until` as `YYYY-MM-DD` (company time zone, inclusive), `members` (member
 * usernames or uids) or `places` (place uids) instead of `accounts`, `columns`, `bom`. Once its own
 * rules pass, {@link completeValidation} builds createreport's request and checks it by createreport's
 * rules, its errors naming these fields.
 */
export class ConnectorReportBody implements CompletesValidation {
  @IsIn(REPORT_TYPES, { message: `must be one of ${REPORT_TYPES.join(', ')}` })
  type: ReportType;

  @IsIn(REPORT_FORMATS, { message: `must be one of ${REPORT_FORMATS.join(', ')}` })
  format: ReportFormat;

  /** one day, YYYY-MM-DD; or `from` and `until` */
  @Optional()
  @Rule(isIsoDate, DATE_RULE)
  date?: string;

  /** YYYY-MM-DD, inclusive */
  @Optional()
  @Rule(isIsoDate, DATE_RULE)
  from?: string;

  /** YYYY-MM-DD, inclusive */
  @Optional()
  @Rule(isIsoDate, DATE_RULE)
  until?: string;

  /** member usernames or uids (member reports) */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_ACCOUNTS)
  @IsString({ each: true, message: 'must be an array of strings (usernames or uids)' })
  members?: string[];

  /** place uids (placeonsite, places) */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_ACCOUNTS)
  @IsString({ each: true, message: 'must be an array of strings (place uids)' })
  places?: string[];

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_COLUMNS)
  @IsObject({ each: true, message: 'must be an array of objects {key, rename?, isCheck?}' })
  @ValidateNested({ each: true })
  @Type(() => ReportColumnDto)
  columns?: ReportColumnDto[];

  /** csv (and a zip's csv files): start with the UTF-8 byte-order mark (default true) */
  @Optional()
  @IsBoolean()
  bom?: boolean;

  /** createreport's request (not a wire field: set by {@link completeValidation}). */
  declare request: CreateReportDto;

  completeValidation(prefix: string): void {
    this.request = connectorReportRequest(this, prefix);
  }
}
