import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Something outside the members lib that refers to the company's teams (`teams_config` ids) and so
 * must be asked before a team is removed — jobs' `teamId`, places', zones' and alert rules' `teams`.
 * The owning lib implements it (its statement in its own repository) and registers it with
 * {@link TeamReferences}; members never reads that lib's tables.
 */
export interface TeamReferenceSource {
  /** What the error names when a team is still used: a plural noun such as `jobs`. */
  readonly what: string;
  /**
   * The ids among `teamIds` that the company's rows still use. Runs on `manager`, the caller's
   * transaction (editcompany holds the company row's lock while it asks).
   */
  teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]>;
}

/** One source's answer: the teams it still uses. */
export interface TeamUsage {
  what: string;
  teams: readonly number[];
}

/**
 * The team still in use that a refusal names: the lowest team id any source uses, and the first
 * source (in the order given) that uses it.
 * @returns `undefined` when no source uses any of the teams.
 */
export function firstTeamInUse(usages: readonly TeamUsage[]): { team: number; what: string } | undefined {
  let first: { team: number; what: string } | undefined;
  for (const { what, teams } of usages) {
    for (const team of teams) if (!first || team < first.team) first = { team, what };
  }
  return first;
}

/**
 * The registry of {@link TeamReferenceSource}s: libs that depend on members register theirs in
 * `onModuleInit` (members can't import them — they import members — and `forwardRef` is banned).
 * Only the sources of the libs an app loads are asked: the api loads them all; editcompany is served
 * by the api only.
 */
@Injectable()
export class TeamReferences {
  private readonly sources: TeamReferenceSource[] = [];

  /** Adds a source; asked in registration order, after the members lib's own check. */
  register(source: TeamReferenceSource): void {
    if (!this.sources.includes(source)) this.sources.push(source);
  }

  /** Asks every registered source, one after the other on the caller's transaction. */
  async usage(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<TeamUsage[]> {
    const usages: TeamUsage[] = [];
    for (const source of this.sources) usages.push({ what: source.what, teams: await source.teamsInUse(manager, companyId, teamIds) });
    return usages;
  }
}
