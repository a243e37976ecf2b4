import { daysBetween, DomainError, invalid } from '@app/core';
import type { ConnectorReportBody } from './dto/connector-report.dto';
import { CreateReportDto } from './dto/create-report.dto';
import { REPORT_RULES, ReportSubjects } from './report-types';

/** `YYYY-MM-DD` → the action API's day `YYYYMMDD`. */
const dayOf = (date: string | undefined) => (date === undefined ? undefined : Number(date.replace(/-/g, '')));

/** createreport's field → the connector's (`accounts` depends on the type: see {@link subjectsField}). */
const ACTION_TO_CONNECTOR: Record<string, string> = { reporttype: 'type', day: 'date', from: 'from', until: 'until', format: 'format' };

/** The connector field that carries `accounts` for a type naming these subjects. */
const subjectsField = (subjects: ReportSubjects) => (subjects === 'places' ? 'places' : 'members');

/**
 * createreport's request for a `POST /v1/reports` body whose own rules passed (docs/connector.md
 * "Reports"): `type` → `reporttype`, `date`/`from`/`until` (YYYY-MM-DD) → `day`/`from`/`until`
 * (YYYYMMDD), `members` or `places` → `accounts`, `columns` and `bom` as they are; then checked by
 * createreport's own rules (`CreateReportDto.completeValidation`: format for the type, dates, range,
 * subjects required, column keys), each error naming the connector's field.
 * @param prefix the path errors name (`body`)
 * @throws DomainError invalid: `members` and `places` both, the one the type does not take, or any of
 *   createreport's rules
 */
export function connectorReportRequest(b: Omit<ConnectorReportBody, 'request' | 'completeValidation'>, prefix: string): CreateReportDto {
  const { subjects } = REPORT_RULES[b.type];
  if (b.members !== undefined && b.places !== undefined) throw invalid(`${prefix}.places`, 'send members or places, not both');
  if (subjects === 'none' && (b.members ?? b.places) !== undefined)
    throw invalid(
      `${prefix}.${b.members !== undefined ? 'members' : 'places'}`,
      `${b.type} reports are company-wide: send neither members nor places`,
    );
  if (subjects === 'members' && b.places !== undefined) throw invalid(`${prefix}.places`, `${b.type} reports are on members: send members`);
  if (subjects === 'places' && b.members !== undefined) throw invalid(`${prefix}.members`, `${b.type} reports are on places: send places`);
  checkDates(b, prefix);
  const dto = Object.assign(new CreateReportDto(), {
    reporttype: b.type,
    format: b.format,
    day: dayOf(b.date),
    from: dayOf(b.from),
    until: dayOf(b.until),
    accounts: b.members ?? b.places,
    columns: b.columns,
    bom: b.bom,
  });
  for (const key of Object.keys(dto) as Array<keyof CreateReportDto>) if (dto[key] === undefined) delete dto[key];
  try {
    dto.completeValidation('data');
  } catch (err) {
    throw toConnectorReportError(err, subjects, prefix);
  }
  return dto;
}

/**
 * The date rules of the report's type, worded for the connector's fields (createreport's wording names
 * `day` and YYYYMMDD): `date` xor `from` + `until`, `until` not before `from`, a single day or at
 * most the type's days (`until − from + 1`). Undated types (members, places) ignore dates, as createreport does.
 * @throws DomainError invalid naming `<prefix>.date`, `.from` or `.until`
 */
function checkDates(b: Pick<ConnectorReportBody, 'type' | 'date' | 'from' | 'until'>, prefix: string): void {
  const { range } = REPORT_RULES[b.type];
  if (range === 'none') return;
  if (b.date !== undefined) {
    if (b.from !== undefined || b.until !== undefined) throw invalid(`${prefix}.date`, 'send date, or from and until, not both');
    return;
  }
  if (b.from === undefined) throw invalid(`${prefix}.from`, 'required (YYYY-MM-DD) unless date is sent');
  if (b.until === undefined) throw invalid(`${prefix}.until`, 'required (YYYY-MM-DD) unless date is sent');
  if (b.until < b.from) throw invalid(`${prefix}.until`, `must not be before ${prefix}.from`);
  const days = daysBetween(dayOf(b.from)!, dayOf(b.until)!) + 1;
  if (range === 'single' && days !== 1) throw invalid(`${prefix}.until`, `${b.type} covers a single day: send date, or from = until`);
  if (typeof range === 'number' && days > range)
    throw invalid(`${prefix}.until`, `${b.type} covers at most ${range} days (from ${b.from} to ${b.until} is ${days})`);
}

/**
 * A report error as the connector answers it: one naming a createreport field (`data.accounts: unknown
 * accounts: x`, `data.columns[2].key: …`, `data.format: too many rows for pdf …`) names the connector's
 * instead (`body.members`, `body.columns[2].key`, `body.format`), same rule and wording. Other errors
 * (forbidden, unavailable…) pass unchanged.
 * @param subjects what the report's type names: `accounts` becomes `members` or `places`
 */
export function toConnectorReportError(err: unknown, subjects: ReportSubjects, prefix = 'body'): unknown {
  if (!(err instanceof DomainError) || err.field === undefined || !err.field.startsWith('data.')) return err;
  const m = /^data\.([A-Za-z_]+)(.*)$/.exec(err.field);
  if (!m) return err;
  const name = m[1] === 'accounts' ? subjectsField(subjects) : (ACTION_TO_CONNECTOR[m[1]] ?? m[1]);
  const field = `${prefix}.${name}${m[2]}`;
  const message = err.message.startsWith(err.field) ? `${field}${err.message.slice(err.field.length)}` : err.message;
  return new DomainError(err.kind, message, field, err.rule);
}
