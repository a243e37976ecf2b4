import { clusterBudgetMs } from './distribute.kind';

describe('clusterBudgetMs', () => {
  it('is half of what is left before the write deadline', () => expect(clusterBudgetMs(1_030_000, 1_000_000)).toBe(15_000));
  it('is at least 1 s, also past the deadline', () => {
    expect(clusterBudgetMs(1_001_000, 1_000_000)).toBe(1000);
    expect(clusterBudgetMs(999_000, 1_000_000)).toBe(1000);
  });
});
