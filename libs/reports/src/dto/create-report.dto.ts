import { daysBetween, invalid, isRealDay, Optional, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { REPORT_DEFINITIONS } from '../definitions';
import { REPORT_FORMATS, REPORT_RULES, REPORT_TYPES, ReportFormat, ReportType } from '../report-types';

/** Accounts (members or places) one report may name. */
export const MAX_REPORT_ACCOUNTS = 1000;
/** Columns one request may list. */
export const MAX_REPORT_COLUMNS = 100;

const DAY_RULE = 'must be a real date YYYYMMDD';

/** One entry of `columns` (spec "Reports"): a column key of the type, its title, shown as a check mark. */
export class ReportColumnDto {
  @IsString()
  @Length(1, 64)
  key: string;

  /** the column's title instead of ours (the unit is still appended to distances and speeds) */
  @Optional()
  @IsString()
  @Length(1, 200)
  rename?: string;

  /** true: ✓ when the value is present and not false/0/"", else empty */
  @Optional()
  @IsBoolean()
  isCheck?: boolean;
}

/**
 * createreport (spec "Reports: POST /api/createreport"; CONTRACTS.md "Reports"). The pipe checks
 * every rule of the spec's tables that needs no database ({@link completeValidation}): type, format for
 * the type, `day` xor `from`+`until` (YYYYMMDD, company time zone, inclusive), the type's maximum range,
 * `accounts` where the type requires it, column keys of the type. The service resolves `accounts`.
 */
export class CreateReportDto {
  @IsIn(REPORT_TYPES, { message: `must be one of ${REPORT_TYPES.join(', ')}` })
  reporttype: ReportType;

  @IsIn(REPORT_FORMATS, { message: `must be one of ${REPORT_FORMATS.join(', ')}` })
  format: ReportFormat;

  @Optional()
  @Rule(isRealDay, DAY_RULE)
  day?: number;

  @Optional()
  @Rule(isRealDay, DAY_RULE)
  from?: number;

  @Optional()
  @Rule(isRealDay, DAY_RULE)
  until?: number;

  /** member usernames or uids; place uids for place reports */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_ACCOUNTS)
  @IsString({ each: true, message: 'must be an array of strings (usernames or uids)' })
  accounts?: string[];

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_REPORT_COLUMNS)
  @IsObject({ each: true, message: 'must be an array of objects {key, rename?, isCheck?}' })
  @ValidateNested({ each: true })
  @Type(() => ReportColumnDto)
  columns?: ReportColumnDto[];

  /**
   * csv, and the csv files of a zip: start with the UTF-8 byte-order mark (default true, so Excel reads
   * the file as UTF-8); false leaves it out (CONTRACTS.md "Wave 3: reports and the demo")
   */
  @Optional()
  @IsBoolean()
  bom?: boolean;

  /** our extension: answer `{status: 0, reportId, state}` at once; fetch with getreport */
  @Optional()
  @IsBoolean()
  async?: boolean;

  /**
   * min a member stays within 100 m for a stop, for this report only (CONTRACTS.md "Wave 3: reports
   * and the demo"): overrides the company's `stop_minutes` (else the server's TRACK_STOP_MINUTES) in
   * the types that find stops (`stopsreport`, `timeline`); other types ignore it. Integer 1–240, as
   * editcompany's `stop_minutes`.
   */
  @Optional()
  @IsInt({ message: 'must be an integer number of minutes (1–240)' })
  @Min(1, { message: 'must be at least 1 (minutes)' })
  @Max(240, { message: 'must be at most 240 (minutes)' })
  stopMinutes?: number;

  /** The range this request covers, YYYYMMDD inclusive; undefined for undated types. Valid after {@link completeValidation}. */
  range(): { from: number; until: number } | undefined {
    if (REPORT_RULES[this.reporttype].range === 'none') return undefined;
    if (this.day !== undefined) return { from: this.day, until: this.day };
    return { from: this.from!, until: this.until! };
  }

  completeValidation(prefix: string): void {
    const rule = REPORT_RULES[this.reporttype];
    if (!rule.formats.includes(this.format)) {
      throw invalid(`${prefix}.format`, `${this.reporttype} reports come as ${rule.formats.join(', ')}`);
    }
    if (rule.range !== 'none') this.checkRange(prefix, rule.range);
    if (rule.subjects !== 'none' && !this.accounts?.length) {
      throw invalid(`${prefix}.accounts`, `required for ${this.reporttype}: ${rule.subjects === 'places' ? 'place uids' : 'member usernames or uids'}`);
    }
    const definition = REPORT_DEFINITIONS[this.reporttype];
    const keys = new Set(definition.columns.map((c) => c.key));
    this.columns?.forEach((c, i) => {
      if (!keys.has(c.key)) throw invalid(`${prefix}.columns[${i}].key`, `unknown column "${c.key}" of ${this.reporttype}: one of ${[...keys].join(', ')}`);
    });
  }

  private checkRange(prefix: string, max: number | 'single'): void {
    const dated = this.from !== undefined || this.until !== undefined;
    if (this.day !== undefined && dated) throw invalid(`${prefix}.day`, 'give day, or from and until, not both');
    if (this.day === undefined) {
      if (this.from === undefined) throw invalid(`${prefix}.from`, 'required (YYYYMMDD) unless day is given');
      if (this.until === undefined) throw invalid(`${prefix}.until`, 'required (YYYYMMDD) unless day is given');
      if (this.until < this.from) throw invalid(`${prefix}.until`, 'must not be before from');
    }
    const { from, until } = this.range()!;
    const days = daysBetween(from, until) + 1;
    if (max === 'single') {
      if (days !== 1) throw invalid(`${prefix}.until`, `${this.reporttype} covers a single day: give day, or from = until`);
    } else if (days > max) {
      throw invalid(`${prefix}.until`, `${this.reporttype} covers at most ${max} days (from ${from} to ${until} is ${days})`);
    }
  }
}

/** getreport (our extension): a report's file when done, else its state; readable by its creator and the company's staff. */
export class GetReportDto {
  @IsString()
  @Length(1, 64)
  reportId: string;
}
