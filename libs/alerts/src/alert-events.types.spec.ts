import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutboxEventInput } from '@app/core';
import { typeErrors } from '@app/core/testing';
import type { EventMember } from '@app/locations';
import './alert-events';

/**
 * Type-level cases of the outbox's event map with the event the alerts lib declares
 * (`alerttriggered`, `alert-events.ts`): each `@ts-expect-error` line must not compile, every other
 * line must.
 * The cases are never run; the compiler checks this file (see the test at the end).
 */
function _cases(who: EventMember) {
  // an alert firing: key alert_triggered
  const alert = {
    id: 'R1',
    config: { teams: [1], threshold: 15 },
    companyUid: 'C',
    title: 'Battery',
    description: '',
    message: 'battery at 9 %',
    action: 'battery_low' as const,
    actionCode: 12,
    type: 3,
    tsCreated: 1,
  };
  const _alerttriggered: OutboxEventInput = {
    companyId: 'C',
    eventKey: 'alert_triggered',
    action: 'alerttriggered',
    formId: 'F1',
    data: { alert, member: who, checkType: 'IN', ts: 1 },
  };
  const _alertCheckType: OutboxEventInput<'alerttriggered'> = {
    companyId: 'C',
    eventKey: 'alert_triggered',
    action: 'alerttriggered',
    formId: 'F1',
    // @ts-expect-error checkType is IN or OUT
    data: { alert, member: who, checkType: 'in', ts: 1 },
  };
  const _alertAction: OutboxEventInput<'alerttriggered'> = {
    companyId: 'C',
    eventKey: 'alert_triggered',
    action: 'alerttriggered',
    formId: 'F1',
    // @ts-expect-error action is one of the spec's 13
    data: { alert: { ...alert, action: 'battery_empty' }, member: who, ts: 1 },
  };
}

describe('OutboxEvents (alert events)', () => {
  it('compiles exactly where it should: every case above, each @ts-expect-error line refused', () => {
    // with a file that must fail beside it, so a check that sees nothing can't pass
    const dir = mkdtempSync(join(tmpdir(), 'fw-types-'));
    const wrong = join(dir, 'wrong.ts');
    writeFileSync(wrong, "const n: number = 'one';\n// @ts-expect-error nothing wrong below\nexport const m = n;\n");
    try {
      const errors = typeErrors([__filename, wrong]);
      expect(errors.filter((e) => !e.includes('wrong.ts'))).toEqual([]);
      expect(errors.map((e) => e.replace(/^.*wrong\.ts/, 'wrong.ts'))).toEqual([
        "wrong.ts:1: Type 'string' is not assignable to type 'number'.",
        "wrong.ts:2: Unused '@ts-expect-error' directive.",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
