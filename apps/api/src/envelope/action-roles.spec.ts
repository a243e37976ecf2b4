import 'reflect-metadata';
import { AuthContext, DomainError, mayCallAction, Role } from '@app/core';
import { ALERT_ACTION_ROLES } from '@app/alerts';
import { DISPATCH_ACTION_ROLES, DISPATCH_ASSIGN_ACTION_ROLES } from '@app/dispatch';
import { JOB_ACTION_ROLES } from '@app/jobs';
import { INGEST_ACTION_ROLES, LOCATE_ACTION_ROLES, TRACK_ACTION_ROLES } from '@app/locations';
import { ApiKeysService, MEMBER_ACTION_ROLES } from '@app/members';
import { PLACE_ACTION_ROLES } from '@app/places';
import { WEBHOOK_ACTION_ROLES } from '@app/webhooks';
import { ZONE_ACTION_ROLES } from '@app/zones';
import { REPORT_ACTION_ROLES } from '@app/reports';
import { LIVE_ACTION_ROLES } from '@app/live';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitService } from '../ops/rate-limit.service';
import { ActionAuthGuard } from './action-auth.guard';
import { ACTION_ROLES, ActionName } from './action-roles';
import { ACTION_NAME } from './request-context';

describe('ACTION_ROLES (the api’s merged table, CONTRACTS.md "Roles")', () => {
  type Row = [ActionName, administrator: boolean, operator: boolean, worker: boolean];
  const table: Row[] = [
    ['getaccounts', true, true, true],
    ['createaccount', true, true, false],
    ['editaccount', true, true, true],
    ['deleteaccount', true, true, false],
    ['getcompany', true, true, true],
    ['editcompany', true, false, false],
    ['setwebhooks', true, false, false],
    ['rotatewebhooksecret', true, false, false],
    ['getwebhookdeliveries', true, false, false],
    ['replaywebhookdelivery', true, false, false],
    ['getwebhooks', true, true, false],
    ['getjobs', true, true, true],
    ['createjobs', true, true, false],
    ['deletejobs', true, true, false],
    ['archivejobs', true, true, false],
    ['restorejobs', true, true, false],
    ['editjobs', true, true, true],
    ['getnotifications', true, true, true],
    ['createplace', true, true, true],
    ['editplace', true, true, true],
    ['deleteplace', true, true, true],
    ['getplaces', true, true, true],
    ['pushlocations', true, true, true],
    ['locate', true, true, true],
    ['gettracks', true, true, true],
    ['optimizeroute', true, true, true],
    ['distributejobs', true, true, false],
    ['autoassign', true, true, false],
    ['createalert', true, false, false],
    ['editalert', true, false, false],
    ['deletealert', true, false, false],
    ['getalerts', true, true, false],
    ['getalertfirings', true, true, false],
    ['getzones', true, true, true],
    ['createzone', true, true, false],
    ['editzone', true, true, false],
    ['deletezone', true, true, false],
    // every role; a worker only about itself (reportAccessDenial, checked by the service)
    ['createreport', true, true, true],
    ['getreport', true, true, true],
    ['createstreamtoken', true, true, true],
  ];

  it.each(table)('%s: administrator %p, operator %p, worker %p', (action, a, o, w) => {
    expect(mayCallAction(ACTION_ROLES, 'administrator', action)).toBe(a);
    expect(mayCallAction(ACTION_ROLES, 'operator', action)).toBe(o);
    expect(mayCallAction(ACTION_ROLES, 'worker', action)).toBe(w);
  });

  it('covers exactly the actions of ACTION_ROLES', () => {
    expect(table.map(([action]) => action).sort()).toEqual(Object.keys(ACTION_ROLES).sort());
  });

  it('is the domains’ slices, each action as its domain lists it', () => {
    const slices = {
      ...MEMBER_ACTION_ROLES,
      ...JOB_ACTION_ROLES,
      ...WEBHOOK_ACTION_ROLES,
      ...PLACE_ACTION_ROLES,
      ...INGEST_ACTION_ROLES,
      ...LOCATE_ACTION_ROLES,
      ...TRACK_ACTION_ROLES,
      ...DISPATCH_ACTION_ROLES,
      ...DISPATCH_ASSIGN_ACTION_ROLES,
      ...ALERT_ACTION_ROLES,
      ...ZONE_ACTION_ROLES,
      ...REPORT_ACTION_ROLES,
      ...LIVE_ACTION_ROLES,
    };
    expect(ACTION_ROLES).toEqual(slices);
  });
});

describe('ActionAuthGuard and the roles table', () => {
  const caller = (role: Role): AuthContext => ({
    companyId: 'C1',
    memberId: 'M1',
    username: 'm1@example.test',
    role,
    isOwner: false,
    keyPrefix: 'fwk_abcdefgh',
    timezone: 'UTC',
    settings: { workers_edit_job: false, workers_create_places: false, workers_view_places: true },
  });

  /** The guard over a handler named `action`, the key resolving to a member of `role`. */
  async function guard(action: string, role: Role): Promise<boolean> {
    const handler = () => undefined;
    Reflect.defineMetadata(ACTION_NAME, action, handler);
    // the guard's collaborators: only the key lookup and the limiter's wrapper, neither under test here
    const apiKeys = { authenticate: () => Promise.resolve(caller(role)) } as unknown as ApiKeysService;
    const rateLimit = { authenticated: (_ip: unknown, fn: () => Promise<AuthContext>) => fn() } as unknown as RateLimitService;
    const req = { body: { data: {} }, headers: { 'api-key': 'fwk_abcdefgh_x' }, ip: '192.0.2.1' };
    const context = { getHandler: () => handler, switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
    return new ActionAuthGuard(apiKeys, new Reflector(), rateLimit).canActivate(context);
  }

  it('serves an action of the table to its roles and refuses the others with forbidden', async () => {
    await expect(guard('createjobs', 'operator')).resolves.toBe(true);
    await expect(guard('createjobs', 'worker')).rejects.toMatchObject({ kind: 'forbidden', message: 'a worker may not call createjobs' });
  });

  it.each(['nosuchaction', 'constructor', 'toString'])('refuses %p, a handler without a roles entry, to every role', async (action) => {
    for (const role of ['administrator', 'operator', 'worker'] as const) {
      const refusal = guard(action, role);
      await expect(refusal).rejects.toBeInstanceOf(DomainError);
      await expect(refusal).rejects.toMatchObject({ kind: 'forbidden' });
    }
  });
});
