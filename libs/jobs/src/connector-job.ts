import { DomainError, EmailOrEmpty, invalid, isRealDay, NullableOptional, Optional, PhoneOrEmpty, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsString, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { JobView } from './job-view';

/**
 * The connector's job (CONTRACTS.md, "Connector /v1"), mapped from the action API's job in this one
 * place, both ways.
 */
export interface ConnectorJob {
  id: string;
  externalId: string | null;
  title: string;
  address: string;
  notes: string;
  /** YYYY-MM-DD, null when the job has no day */
  date: string | null;
  /** HH:mm, null when both ends are unset */
  timeWindow: { start: string | null; end: string | null } | null;
  placeId: string | null;
  priority: number;
  progress: string;
  archived: boolean;
  /** ms, insert time (database clock) */
  createdAt: number;
  /** ms, last change (tsSaved) */
  updatedAt: number;
  assignee: { id: string; username: string; email: string; name: string } | null;
  contact: { name: string; phone: string; email: string };
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmmToText = (v: number) => (v ? `${pad(Math.floor(v / 100))}:${pad(v % 100)}` : null);

export function toConnectorJob(v: JobView): ConnectorJob {
  const day = v.day as number;
  const start = hhmmToText(v.windowStart as number);
  const end = hhmmToText(v.windowEnd as number);
  return {
    id: v.id,
    externalId: (v.uidSecondary as string) || null,
    title: v.destinationName as string,
    address: v.destinationText as string,
    notes: v.textDispatcher as string,
    date: day ? `${Math.floor(day / 10000)}-${pad(Math.floor(day / 100) % 100)}-${pad(day % 100)}` : null,
    timeWindow: start || end ? { start, end } : null,
    placeId: (v.placeUid as string) || null,
    priority: v.priority as number,
    progress: v.progress as string,
    archived: v.status === 'archived',
    createdAt: v.createdAt as number,
    updatedAt: v.tsSaved as number,
    assignee: v.receiverUid
      ? {
          id: v.receiverUid as string,
          username: v.assigneeUsername as string,
          email: v.workerEmail as string,
          name: v.workerName as string,
        }
      : null,
    contact: { name: v.contactName as string, phone: v.contactPhone as string, email: v.contactEmail as string },
  };
}

/** A connector field that is an answer only: sending it is a 400 naming it read-only. */
const ReadOnly = () => (target: object, property: string) => {
  Optional()(target, property);
  Rule(() => false, 'is read-only')(target, property);
};
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export class ConnectorContactDto {
  @Optional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @Optional()
  @PhoneOrEmpty()
  phone?: string;

  @Optional()
  @EmailOrEmpty()
  email?: string;
}

export class ConnectorTimeWindowDto {
  @NullableOptional()
  @IsString()
  @Matches(HH_MM, { message: 'must be a time HH:mm' })
  start?: string | null;

  @NullableOptional()
  @IsString()
  @Matches(HH_MM, { message: 'must be a time HH:mm ("00:00" = unset)' })
  end?: string | null;
}

/** Create (`POST /v1/jobs`) and update (`PATCH`) bodies. `title` is required on create. */
export class ConnectorJobBody {
  /** PATCH /v1/jobs: the job to change */
  @Optional()
  @IsString()
  @Length(1, 64)
  id?: string;

  @NullableOptional()
  @IsString()
  @Length(0, 200)
  externalId?: string | null;

  @Optional()
  @IsString()
  @MaxLength(500)
  title?: string;

  @Optional()
  @IsString()
  @MaxLength(2000)
  address?: string;

  @Optional()
  @IsString()
  @MaxLength(10000)
  notes?: string;

  /** YYYY-MM-DD, or null for no day */
  @NullableOptional()
  @Rule(
    (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDay(Number(v.replace(/-/g, ''))),
    'must be a real date YYYY-MM-DD, or null',
  )
  date?: string | null;

  /** "" or null unassigns */
  @NullableOptional()
  @IsString()
  @MaxLength(254)
  assigneeUsername?: string | null;

  @NullableOptional()
  @IsString()
  @MaxLength(64)
  assigneeId?: string | null;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(10)
  priority?: number;

  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectorContactDto)
  contact?: ConnectorContactDto;

  @NullableOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectorTimeWindowDto)
  timeWindow?: ConnectorTimeWindowDto | null;

  @NullableOptional()
  @IsString()
  @MaxLength(64)
  placeId?: string | null;

  // answers only: named as read-only rather than unknown when sent
  @ReadOnly() progress?: unknown;
  @ReadOnly() createdAt?: unknown;
  @ReadOnly() updatedAt?: unknown;
  @ReadOnly() archived?: unknown;
  @ReadOnly() assignee?: unknown;
}

const textToHhmm = (t: string | null | undefined) => (t ? Number(t.replace(':', '')) : 0);

/** The action API's job fields for a connector body (only the fields sent). */
export function connectorBodyToJobFields(b: ConnectorJobBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (b.externalId !== undefined) out.uidSecondary = b.externalId ?? '';
  if (b.title !== undefined) out.destinationName = b.title;
  if (b.address !== undefined) out.destinationText = b.address;
  if (b.notes !== undefined) out.textDispatcher = b.notes;
  if (b.date !== undefined) out.day = b.date === null ? 0 : Number(b.date.replace(/-/g, ''));
  if (b.assigneeUsername !== undefined) out.worker = b.assigneeUsername ?? '';
  if (b.assigneeId !== undefined) out.receiverUid = b.assigneeId ?? '';
  if (b.priority !== undefined) out.priority = b.priority;
  if (b.placeId !== undefined) out.placeUid = b.placeId ?? '';
  if (b.contact?.name !== undefined) out.contactName = b.contact.name;
  if (b.contact?.phone !== undefined) out.contactPhone = b.contact.phone;
  if (b.contact?.email !== undefined) out.contactEmail = b.contact.email;
  if (b.timeWindow === null) {
    out.windowStart = 0;
    out.windowEnd = 0;
  } else if (b.timeWindow) {
    if (b.timeWindow.start !== undefined) out.windowStart = textToHhmm(b.timeWindow.start);
    if (b.timeWindow.end !== undefined) out.windowEnd = textToHhmm(b.timeWindow.end);
  }
  return out;
}

const ACTION_TO_CONNECTOR: Record<string, string> = {
  uidSecondary: 'externalId',
  destinationName: 'title',
  destinationText: 'address',
  textDispatcher: 'notes',
  day: 'date',
  worker: 'assigneeUsername',
  receiverUid: 'assigneeId',
  priority: 'priority',
  placeUid: 'placeId',
  contactName: 'contact.name',
  contactPhone: 'contact.phone',
  contactEmail: 'contact.email',
  windowStart: 'timeWindow.start',
  windowEnd: 'timeWindow.end',
};

/**
 * A job error as the connector answers it. An error about a field of the write at `path`
 * (`DomainError.field` = `<path>.worker`, …) names the connector's field instead
 * (`body.assigneeUsername`, with the same rule); a uidSecondary another job holds (`exists`, -4/409
 * on the action API) is a 400 there, since the connector has no 409. Other errors pass unchanged.
 * @param path the path the write's errors name (`data.jobs[0]`, `data.jobs.<id>`)
 */
export function toConnectorError(err: unknown, path: string): unknown {
  if (!(err instanceof DomainError) || (err.kind !== 'invalid' && err.kind !== 'exists')) return err;
  if (err.field === undefined || err.rule === undefined || !err.field.startsWith(`${path}.`)) return err;
  const name = err.field.slice(path.length + 1);
  return invalid(`body.${ACTION_TO_CONNECTOR[name] ?? name}`, err.rule);
}
