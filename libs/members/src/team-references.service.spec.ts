import { EntityManager } from 'typeorm';
import { firstTeamInUse, TeamReferences, TeamReferenceSource } from './team-references.service';

describe('firstTeamInUse', () => {
  it('nothing used → undefined', () => {
    expect(firstTeamInUse([])).toBeUndefined();
    expect(
      firstTeamInUse([
        { what: 'members', teams: [] },
        { what: 'jobs', teams: [] },
      ]),
    ).toBeUndefined();
  });

  it('names the lowest team id any source uses, with that source', () => {
    expect(
      firstTeamInUse([
        { what: 'members', teams: [7, 4] },
        { what: 'jobs', teams: [3, 9] },
      ]),
    ).toEqual({ team: 3, what: 'jobs' });
    expect(
      firstTeamInUse([
        { what: 'members', teams: [2] },
        { what: 'jobs', teams: [5] },
      ]),
    ).toEqual({ team: 2, what: 'members' });
  });

  it('a team used by several sources is named with the first of them', () => {
    expect(
      firstTeamInUse([
        { what: 'members', teams: [5] },
        { what: 'jobs', teams: [5] },
      ]),
    ).toEqual({ team: 5, what: 'members' });
  });
});

describe('TeamReferences', () => {
  const manager = {} as EntityManager;
  const source = (what: string, used: number[], seen: unknown[][]): TeamReferenceSource => ({
    what,
    teamsInUse: async (m, companyId, teamIds) => {
      seen.push([m, companyId, teamIds]);
      return used.filter((t) => teamIds.includes(t));
    },
  });

  it('asks each registered source once, in order, on the caller’s manager', async () => {
    const seen: unknown[][] = [];
    const registry = new TeamReferences();
    const jobs = source('jobs', [2, 3], seen);
    registry.register(jobs);
    registry.register(jobs); // a second registration is ignored
    registry.register(source('zones', [3], seen));
    expect(await registry.usage(manager, 'c1', [3, 4])).toEqual([
      { what: 'jobs', teams: [3] },
      { what: 'zones', teams: [3] },
    ]);
    expect(seen).toEqual([
      [manager, 'c1', [3, 4]],
      [manager, 'c1', [3, 4]],
    ]);
  });

  it('no sources → no usage', async () => {
    expect(await new TeamReferences().usage(manager, 'c1', [1])).toEqual([]);
  });
});
