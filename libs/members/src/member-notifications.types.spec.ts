import { NotificationsService } from '@app/core';
import { typeErrors } from '@app/core/testing';
import { EntityManager } from 'typeorm';
import './member-notifications';

/**
 * Type-level cases of the notification kinds this lib adds to core's map: each `@ts-expect-error`
 * line must not compile, every other line must. Never run; the compiler checks this file.
 */
function _cases(notifications: NotificationsService, manager: EntityManager) {
  void notifications.add(manager, { companyId: 'C', kind: 'invitation_sent', memberId: 'M1' });
  void notifications.add(manager, { companyId: 'C', kind: 'members_changed', memberId: null });
  // @ts-expect-error the member-list refresh is one company-wide row
  void notifications.add(manager, { companyId: 'C', kind: 'members_changed', memberId: 'M1' });
  // @ts-expect-error an invitation goes to the invited member
  void notifications.add(manager, { companyId: 'C', kind: 'invitation_sent', memberId: null });
  // @ts-expect-error an invitation names no job
  void notifications.add(manager, { companyId: 'C', kind: 'invitation_sent', memberId: 'M1', jobId: 'J1' });
}

describe('member notification kinds (types)', () => {
  it('compile exactly where they should: every case above, each @ts-expect-error line refused', () => {
    expect(typeErrors([__filename])).toEqual([]);
  });
});
