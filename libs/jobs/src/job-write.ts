import { isDeepStrictEqual } from 'node:util';
import { invalid } from '@app/core';
import { CustomField, Job } from './entities/job.entity';
import { JobWrite, MAX_CUSTOM_FIELDS } from './job-input';

/** The assignment a write asks for, resolved to a member: a member id, null (unassign) or undefined (untouched). */
export type AssigneeChange = string | null | undefined;

/** The state of a new job before a create's fields are applied. */
export function newJobState(init: {
  id: string;
  companyId: string;
  isTemplate: boolean;
  createdBy: string;
  createdVia: string;
  now: number;
}): Job {
  return {
    id: init.id,
    companyId: init.companyId,
    isTemplate: init.isTemplate,
    archived: false,
    type: 0,
    teamId: 0,
    destinationName: '',
    destinationLat: null,
    destinationLng: null,
    destinationText: '',
    destinationUrl: '',
    textDispatcher: '',
    textReceiver: '',
    contactName: '',
    contactPhone: '',
    contactEmail: '',
    day: 0,
    priority: 0,
    number: 0,
    onSiteSeconds: 0,
    windowStart: 0,
    windowEnd: 0,
    orderId: 0,
    dispatcherUid: '',
    placeUid: '',
    workerId: null,
    itemsToDropoff: 0,
    itemsToPickup: 0,
    uidSecondary: null,
    customFields: [],
    extra: {},
    tsCreated: init.now,
    tsAssigned: 0,
    tsAccepted: 0,
    tsRejected: 0,
    tsDoneSuccess: 0,
    tsDoneFailed: 0,
    tsCheckIn: 0,
    tsCheckOut: 0,
    tsCheckNfc1: 0,
    tsCheckNfc2: 0,
    tsSaved: 0,
    createdAt: 0,
    createdStamp: null,
    savedStamp: null,
    version: 1,
    createdBy: init.createdBy,
    createdVia: init.createdVia,
  };
}

const SIMPLE_FIELDS = [
  'type',
  'teamId',
  'destinationName',
  'destinationLat',
  'destinationLng',
  'destinationText',
  'destinationUrl',
  'textDispatcher',
  'textReceiver',
  'contactName',
  'contactPhone',
  'contactEmail',
  'day',
  'priority',
  'number',
  'onSiteSeconds',
  'windowStart',
  'windowEnd',
  'orderId',
  'dispatcherUid',
  'placeUid',
  'itemsToDropoff',
  'itemsToPickup',
  'tsCreated',
  'tsAccepted',
  'tsRejected',
  'tsDoneSuccess',
  'tsDoneFailed',
  'tsCheckIn',
  'tsCheckOut',
] as const;

/**
 * Applies a validated write to a job's state (CONTRACTS.md, "Jobs"): only the fields sent change;
 * reassignment sets tsAssigned to `now` and clears tsAccepted/tsRejected, unassignment clears
 * tsAssigned; one done timestamp clears the other; `customFields` replaces the list, then
 * `custom_<name>` entries set ("" removes) one each; `extra_*_val` merge.
 * @throws DomainError invalid naming `${path}.windowEnd` when the windows end before they start, or
 *   `${path}.customFields` past 50 entries.
 */
export function applyJobWrite(state: Job, write: JobWrite, assignee: AssigneeChange, now: number, path: string): Job {
  const next: Job = { ...state };
  const f = write.fields;
  const target = next as unknown as Record<string, unknown>;
  for (const key of SIMPLE_FIELDS) {
    if (f[key] !== undefined) target[key] = f[key];
  }
  if (f.tsCheckNFC1 !== undefined) next.tsCheckNfc1 = f.tsCheckNFC1;
  if (f.tsCheckNFC2 !== undefined) next.tsCheckNfc2 = f.tsCheckNFC2;
  if (f.uidSecondary !== undefined) next.uidSecondary = f.uidSecondary === '' ? null : f.uidSecondary;
  if (f.tsDoneSuccess) next.tsDoneFailed = 0;
  if (f.tsDoneFailed) next.tsDoneSuccess = 0;

  if (assignee !== undefined && assignee !== state.workerId) {
    next.workerId = assignee;
    next.tsAssigned = assignee === null ? 0 : now;
    if (assignee !== null) {
      // a new assignee has neither accepted nor rejected yet (unless this write says so)
      next.tsAccepted = f.tsAccepted ?? 0;
      next.tsRejected = f.tsRejected ?? 0;
    }
  }

  if (f.customFields !== undefined || write.custom.length) {
    let fields: CustomField[] =
      f.customFields !== undefined ? f.customFields.map((c) => ({ key: c.key, val: c.val })) : [...state.customFields];
    for (const [name, val] of write.custom) {
      const i = fields.findIndex((c) => c.key === name);
      if (val === '') fields = fields.filter((c) => c.key !== name);
      else if (i >= 0) fields[i] = { key: name, val };
      else fields.push({ key: name, val });
    }
    const seen = new Set<string>();
    fields = fields.filter((c) => (seen.has(c.key) ? false : (seen.add(c.key), true)));
    if (fields.length > MAX_CUSTOM_FIELDS) throw invalid(`${path}.customFields`, `at most ${MAX_CUSTOM_FIELDS} custom fields per job`);
    next.customFields = fields;
  }
  if (Object.keys(write.extra).length) next.extra = { ...state.extra, ...write.extra };

  if (next.windowStart && next.windowEnd && next.windowStart > next.windowEnd) {
    throw invalid(`${path}.windowEnd`, `must not be before windowStart (${next.windowStart})`);
  }
  return next;
}

/** Properties of `after` that differ from `before` (deep comparison for jsonb values). */
export function changedProperties(before: Job, after: Job): Array<keyof Job> {
  return (Object.keys(after) as Array<keyof Job>).filter((k) => !isDeepStrictEqual(before[k], after[k]));
}
