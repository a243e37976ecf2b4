import { FixesTask, tasksByMember } from './fix-consumers.registry';

describe('tasksByMember', () => {
  const t = (companyId: string, memberId: string, fromTs: number, toTs: number): FixesTask => ({ companyId, memberId, fromTs, toTs });

  it('merges a member’s tasks into one spanning them, and orders members by company then member', () => {
    expect(tasksByMember([t('C2', 'A', 5, 6), t('C1', 'B', 10, 20), t('C1', 'A', 3, 4), t('C1', 'B', 7, 12), t('C1', 'B', 15, 30)])).toEqual([
      t('C1', 'A', 3, 4),
      t('C1', 'B', 7, 30),
      t('C2', 'A', 5, 6),
    ]);
  });

  it('keeps the same member id of two companies apart', () => {
    expect(tasksByMember([t('C1', 'M', 1, 2), t('C2', 'M', 3, 4)])).toHaveLength(2);
  });

  it('answers nothing for nothing', () => {
    expect(tasksByMember([])).toEqual([]);
  });
});
