import { AuthContext, Role } from '@app/core';
import { Injectable } from '@nestjs/common';
import { CompaniesRepository } from './companies.repository';
import { Member } from './entities/member.entity';
import { callerRefOf, mayViewDeactivated, mayViewMember, memberRefOf, MemberRef } from './member-policy';
import { MemberView, memberViewerOf, toMemberView } from './member-view';
import { MembersRepository } from './members.repository';

/** The most members `/v1/members` answers (and its default `max`). */
export const CONNECTOR_MEMBERS_MAX = 50;

/** The connector's member shape. */
export interface ConnectorMember {
  id: string;
  username: string;
  email: string;
  name: string;
}

/**
 * What a caller may see of its company's members: getaccounts, the connector's member search and
 * whoami. Visibility is the members policy's (`mayViewMember`: workers see themselves and team-mates;
 * `mayViewDeactivated`). Member answers come as never located: the api attaches `location`/`states`
 * (`MemberLocationsReader` in `@app/locations`; docs/locate.md).
 */
@Injectable()
export class MemberViewsService {
  constructor(
    private readonly members: MembersRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  /**
   * getaccounts. Without `uids`: the caller and every active member it may view. With `uids`: those
   * members of the company it may view (deactivated ones only for staff); unknown ids are left out.
   */
  async getAccounts(ctx: AuthContext, uids?: string[]): Promise<MemberView[]> {
    if (uids && !uids.length) return [];
    const members = uids ? await this.members.listByIds(ctx.companyId, uids) : await this.members.listActive(ctx.companyId);
    const actor = await this.actorRef(ctx, members);
    const ownerId = await this.companies.ownerId(ctx.companyId);
    return members
      .filter((m) => mayViewMember(actor, memberRefOf(m, ownerId)))
      .filter((m) => m.activeStatus === 'active' || mayViewDeactivated(actor))
      .map((m) => toMemberView(m, ownerId, memberViewerOf(ctx)));
  }

  /**
   * Connector member search: case-insensitive substring of name, username or e-mail, or an exact
   * uid; active members the caller may view, by name then uid; at most `max` — default and cap
   * {@link CONNECTOR_MEMBERS_MAX} (a larger value is clamped).
   */
  async search(ctx: AuthContext, query: string | undefined, max = CONNECTOR_MEMBERS_MAX): Promise<ConnectorMember[]> {
    const text = query ? { text: query, like: `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : undefined;
    const members = await this.members.search(ctx.companyId, text);
    const ownerId = await this.companies.ownerId(ctx.companyId);
    const actor = await this.actorRef(ctx, members);
    return members
      .filter((m) => mayViewMember(actor, memberRefOf(m, ownerId)))
      .slice(0, Math.min(max, CONNECTOR_MEMBERS_MAX))
      .map((m) => ({ id: m.id, username: m.username, email: m.email, name: m.name }));
  }

  /** The caller's own member row as a connector member plus its role. */
  async self(ctx: AuthContext): Promise<ConnectorMember & { role: Role }> {
    const m = await this.members.findInCompanyOrFail(ctx.companyId, ctx.memberId);
    return { id: m.id, username: m.username, email: m.email, name: m.name, role: m.role };
  }

  /** The caller as an actor, its teams from `loaded` when it is among them (no query then). */
  private async actorRef(ctx: AuthContext, loaded: Member[]): Promise<MemberRef> {
    const self = loaded.find((m) => m.id === ctx.memberId);
    return callerRefOf(ctx, self ? self.teams : ((await this.members.teamsOf(ctx.memberId)) ?? []));
  }
}
