import { NotificationsService, OutboxEventInput, OutboxEventKeys, outboxEvent, OutboxService } from '@app/core';
import { typeErrors } from '@app/core/testing';
import { EntityManager } from 'typeorm';
import { JOB_EVENT_KEYS, JobAction } from './job-events';
import './job-notifications';
import { JobView } from './job-view';

/**
 * Type-level cases of the job events and notification kinds this lib adds to core's maps: each
 * `@ts-expect-error` line must not compile, every other line must. The cases are never run; the
 * compiler checks this file (see the test at the end).
 */
function _events(view: JobView, action: JobAction, outbox: OutboxService, manager: EntityManager) {
  const _created: OutboxEventInput = { companyId: 'C', eventKey: 'job_created', action: 'jobcreated', formId: view.id, data: [view] };
  const _checkout: OutboxEventInput<'jobcheckout'> = {
    companyId: 'C',
    eventKey: 'job_checked',
    action: 'jobcheckout',
    formId: view.id,
    data: [view],
  };
  const _wrongKey: OutboxEventInput<'jobcreated'> = {
    companyId: 'C',
    // @ts-expect-error jobcreated's key is job_created
    eventKey: 'job_updated',
    action: 'jobcreated',
    formId: view.id,
    data: [view],
  };
  const _notArray: OutboxEventInput<'jobupdated'> = {
    companyId: 'C',
    eventKey: 'job_updated',
    action: 'jobupdated',
    formId: view.id,
    // @ts-expect-error the payload is a one-element array holding the job
    data: view,
  };
  const _empty: OutboxEventInput<'jobdeleted'> = {
    companyId: 'C',
    eventKey: 'job_deleted',
    action: 'jobdeleted',
    formId: view.id,
    // @ts-expect-error exactly one job
    data: [],
  };
  const _two: OutboxEventInput<'jobdeleted'> = {
    companyId: 'C',
    eventKey: 'job_deleted',
    action: 'jobdeleted',
    formId: view.id,
    // @ts-expect-error exactly one job
    data: [view, view],
  };

  // the key table is checked against the map
  const _keys: OutboxEventKeys<JobAction> = { ...JOB_EVENT_KEYS, jobcheckin: 'job_checked' };
  // @ts-expect-error jobcheckout's key is job_checked (spec "Events")
  const _badKeys: OutboxEventKeys<JobAction> = { ...JOB_EVENT_KEYS, jobcheckout: 'job_checkout' };

  // events built from the table, for any job action, go to the outbox; a wrong payload does not
  const built = outboxEvent(JOB_EVENT_KEYS, action, { companyId: 'C', formId: view.id, data: [view] });
  void outbox.appendMany(manager, [built, outboxEvent(JOB_EVENT_KEYS, 'jobcreated', { companyId: 'C', formId: view.id, data: [view] })]);
  // @ts-expect-error a job event's payload is [job]
  void outbox.appendMany(manager, [outboxEvent(JOB_EVENT_KEYS, 'jobcompleted', { companyId: 'C', formId: view.id, data: { job: view } })]);
}

function _notifications(notifications: NotificationsService, manager: EntityManager) {
  void notifications.add(manager, { companyId: 'C', kind: 'route_changed', memberId: 'W1', jobId: 'J1' });
  void notifications.add(manager, { companyId: 'C', kind: 'job_progress', memberId: null, jobId: 'J1' });
  void notifications.add(manager, { companyId: 'C', kind: 'job_archived', memberId: 'D1', jobId: 'tpl-J1' });
  // @ts-expect-error route_changed goes to the assignee, never company-wide
  void notifications.add(manager, { companyId: 'C', kind: 'route_changed', memberId: null, jobId: 'J1' });
  // @ts-expect-error a job notification names its job
  void notifications.add(manager, { companyId: 'C', kind: 'job_deleted', memberId: null });
  // @ts-expect-error a kind nobody declared
  void notifications.add(manager, { companyId: 'C', kind: 'route_change', memberId: 'W1', jobId: 'J1' });
}

describe('job events and notification kinds (types)', () => {
  it('compile exactly where they should: every case above, each @ts-expect-error line refused', () => {
    expect(typeErrors([__filename])).toEqual([]);
  });
});
