import { ruleTargets, TargetMember } from './targets';

const worker: TargetMember = { id: 'm1', role: 'worker', teams: [3, 7], active: true };

describe('ruleTargets', () => {
  it('neither members nor teams: every active worker, not operators or administrators', () => {
    expect(ruleTargets({ members: [], teams: [] }, worker)).toBe(true);
    expect(ruleTargets({ members: [], teams: [] }, { ...worker, role: 'operator' })).toBe(false);
    expect(ruleTargets({ members: [], teams: [] }, { ...worker, role: 'administrator' })).toBe(false);
  });

  it('members by id, teams by any shared team, whatever the role', () => {
    expect(ruleTargets({ members: ['m1'], teams: [] }, { ...worker, role: 'operator' })).toBe(true);
    expect(ruleTargets({ members: ['m2'], teams: [] }, worker)).toBe(false);
    expect(ruleTargets({ members: [], teams: [7] }, worker)).toBe(true);
    expect(ruleTargets({ members: [], teams: [8] }, worker)).toBe(false);
    expect(ruleTargets({ members: ['m2'], teams: [3] }, worker)).toBe(true);
  });

  it('a deactivated member never', () => {
    expect(ruleTargets({ members: ['m1'], teams: [] }, { ...worker, active: false })).toBe(false);
    expect(ruleTargets({ members: [], teams: [] }, { ...worker, active: false })).toBe(false);
  });
});
