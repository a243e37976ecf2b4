import { isDeepStrictEqual } from 'node:util';
import {
  AppConfig,
  AuthContext,
  DomainError,
  exists,
  forbidden,
  invalid,
  isUniqueViolation,
  newId,
  notFound,
  NotificationsService,
  Role,
} from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeysRepository } from './api-keys.repository';
import { CompaniesRepository } from './companies.repository';
import { CreateAccountDto, DeleteAccountDto, EditAccountDto } from './dto/member-fields';
import { Company } from './entities/company.entity';
import { Member } from './entities/member.entity';
import { callerRefOf, deniedMemberFields, mayCreateRole, mayDeactivate, memberRefOf, MemberRef } from './member-policy';
import { MEMBER_FIELD_COLUMNS, MemberView, memberViewerOf, toMemberView } from './member-view';
import { ActiveMemberRef, DEVICE_ID_TAKEN, MembersRepository } from './members.repository';
import { Passwords } from './passwords.service';

/**
 * Members of a company, the writes: create (or reactivate), edit, deactivate — every rule of the
 * spec's Members endpoints with CONTRACTS.md's answers — and the lookups other domains use
 * (`findActive`, `findByAccount`). Every query is scoped to the caller's company. What a caller may
 * see of members (getaccounts, the connector) is `MemberViewsService`'s. Member answers come as never
 * located: the api attaches `location`/`states` from `member_locations` (`MemberLocationsReader` in
 * `@app/locations`; docs/locate.md).
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly companies: CompaniesRepository,
    private readonly apiKeys: ApiKeysRepository,
    private readonly config: AppConfig,
    private readonly passwords: Passwords,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * createaccount: creates a member, or reactivates a deactivated member of this company with the
   * same username (applying the fields sent). Without a password an invitation is issued.
   * @throws DomainError forbidden (-5) for a role the caller may not create or the member limit;
   *   exists (-4) when the username is taken; invalid (-1) for an unknown team.
   */
  async createAccount(ctx: AuthContext, dto: CreateAccountDto): Promise<{ uid: string; account: MemberView }> {
    const passwordHash = dto.password !== undefined ? await this.passwords.hash(dto.password) : null;
    const actor = await this.loadActorRef(ctx);
    return this.members.transaction(async (manager) => {
      // serialises member creation per company: the limit and reactivation can't race
      const company = await this.companies.lock(manager, ctx.companyId);
      if (dto.teams) this.assertTeamsExist(company, dto.teams, 'data.teams');
      const existing = await this.members.findByUsername(manager, dto.username);
      if (existing && existing.companyId !== ctx.companyId) throw exists('data.username: username not available', 'data.username');
      if (existing && existing.activeStatus === 'active')
        throw exists('data.username: a member with this username already exists', 'data.username');
      const role: Role = dto.role ?? existing?.role ?? 'worker';
      if (!mayCreateRole(actor, role)) throw forbidden(`data.role: a ${ctx.role} may not create a member with role ${role}`);
      await this.assertBelowLimit(manager, ctx.companyId);

      const now = Date.now();
      const invitation = passwordHash === null ? this.passwords.newInvitation(now) : null;
      const member = existing ?? this.members.create({ id: newId(), companyId: ctx.companyId, createdAt: now }, manager);
      Object.assign(member, {
        username: existing ? existing.username : dto.username,
        name: dto.name,
        role,
        activeStatus: 'active',
        deactivatedAt: null,
        updatedAt: now,
        passwordHash: passwordHash ?? (existing ? existing.passwordHash : null),
        invitationTokenHash: invitation?.tokenHash ?? null,
        invitationExpiresAt: invitation?.expiresAt ?? null,
        ...(dto.phone !== undefined && { phone: dto.phone }),
        ...(dto.email !== undefined && { email: dto.email }),
        ...(dto.teams !== undefined && { teams: [...new Set(dto.teams)] }),
      });
      try {
        await this.members.save(manager, member);
      } catch (err) {
        if (isUniqueViolation(err)) throw exists('data.username: username not available', 'data.username');
        throw err;
      }
      // the token would travel by e-mail/SMS; the notification only says an invitation was sent
      if (invitation) await this.notifications.add(manager, { companyId: ctx.companyId, memberId: member.id, kind: 'invitation_sent' });
      await this.notifications.add(manager, { companyId: ctx.companyId, memberId: null, kind: 'members_changed' });
      return { uid: member.id, account: toMemberView(member, company.ownerMemberId, memberViewerOf(ctx)) };
    });
  }

  /**
   * editaccount: changes only the fields sent. Answers null when the member is unknown (or of
   * another company) or nothing changed.
   * @throws DomainError invalid (-1) without `account`/`uid` or for an unknown team; forbidden (-5)
   *   when the caller may not change the member or one of the fields (named); exists (-4) for a
   *   `device_id` another member has.
   */
  async editAccount(ctx: AuthContext, dto: EditAccountDto): Promise<MemberView | null> {
    const { account, uid, ...fields } = dto;
    if ((account === undefined) === (uid === undefined)) throw invalid('data', 'send exactly one of account (username) or uid');
    return this.members.transaction(async (manager) => {
      const target =
        uid !== undefined
          ? await this.members.lockById(manager, ctx.companyId, uid)
          : await this.members.lockByUsername(manager, ctx.companyId, account!);
      if (!target) return null;
      const company = await this.companies.findByIdOrFail(ctx.companyId, manager);

      const normalized: Record<string, unknown> = { ...fields };
      if (normalized.device_id === '') normalized.device_id = null;
      if (Array.isArray(normalized.teams)) normalized.teams = [...new Set(normalized.teams as number[])];
      const changed = Object.entries(normalized).filter(
        ([field, value]) => value !== undefined && !isDeepStrictEqual(target[MEMBER_FIELD_COLUMNS[field]], value),
      );
      if (!changed.length) return null;

      const actor = await this.loadActorRef(ctx, manager);
      const denied = deniedMemberFields(
        actor,
        memberRefOf(target, company.ownerMemberId),
        changed.map(([f]) => f),
      );
      if (denied === null) throw forbidden(`a ${ctx.role} may not edit this member`);
      if (denied.length) throw forbidden(`data.${denied[0]}: a ${ctx.role} may not change ${denied.join(', ')} of this member`);
      if (normalized.teams) this.assertTeamsExist(company, normalized.teams as number[], 'data.teams');

      for (const [field, value] of changed) (target as unknown as Record<string, unknown>)[MEMBER_FIELD_COLUMNS[field]] = value;
      target.updatedAt = Date.now();
      try {
        await this.members.save(manager, target);
      } catch (err) {
        if (isUniqueViolation(err, DEVICE_ID_TAKEN)) throw exists('data.device_id: device_id not available', 'data.device_id');
        throw err;
      }
      return toMemberView(target, company.ownerMemberId, memberViewerOf(ctx));
    });
  }

  /**
   * deleteaccount: deactivates (history kept, keys revoked). With `uid`: unknown → not_found,
   * not permitted (or the owner) → forbidden. With `uids`: what the caller may not edit is skipped.
   */
  async deleteAccount(ctx: AuthContext, dto: DeleteAccountDto): Promise<void> {
    if ((dto.uid === undefined) === (dto.uids === undefined)) throw invalid('data', 'send exactly one of uid or uids');
    const single = dto.uid !== undefined;
    const ids = single ? [dto.uid!] : [...new Set(dto.uids!)];
    if (!ids.length) return;
    await this.members.transaction(async (manager) => {
      const targets = await this.members.lockByIds(manager, ctx.companyId, ids);
      if (single && !targets.length) throw notFound(`data.uid: member ${dto.uid}`);
      const ownerId = await this.companies.ownerId(ctx.companyId, manager);
      const actor = await this.loadActorRef(ctx, manager);
      let changed = false;
      for (const target of targets) {
        if (!mayDeactivate(actor, memberRefOf(target, ownerId))) {
          if (single)
            throw forbidden(
              target.id === ownerId ? 'data.uid: the company account cannot be deleted' : `a ${ctx.role} may not delete this member`,
            );
          continue;
        }
        if (target.activeStatus === 'deactivated') continue;
        const now = Date.now();
        await this.members.deactivate(manager, ctx.companyId, target.id, now);
        await this.apiKeys.revokeAllOf(manager, ctx.companyId, target.id);
        changed = true;
      }
      if (changed) await this.notifications.add(manager, { companyId: ctx.companyId, memberId: null, kind: 'members_changed' });
    });
  }

  /**
   * Active members of the company among the given usernames (case-insensitive) and ids — the
   * candidates for assignment and dispatcher fields of other domains.
   */
  async findActive(companyId: string, opts: { usernames?: string[]; ids?: string[] }): Promise<ActiveMemberRef[]> {
    const usernames = (opts.usernames ?? []).map((u) => u.toLowerCase());
    const ids = opts.ids ?? [];
    if (!usernames.length && !ids.length) return [];
    return this.members.findActive(companyId, usernames, ids);
  }

  /**
   * The company's member named by `account` — its username (case-insensitive) or its uid — active or
   * deactivated (dispatch reads its route fields); undefined when the company has no such member
   * (another company's members are unknown).
   */
  async findByAccount(companyId: string, account: string): Promise<Member | undefined> {
    return (await this.members.findByAccount(companyId, account)) ?? undefined;
  }

  /** Clears invitation tokens that expired before `before` (ms). @returns how many. */
  pruneExpiredInvitations(before: number): Promise<number> {
    return this.members.clearExpiredInvitations(before);
  }

  private assertTeamsExist(company: Company, teams: number[], field: string): void {
    const known = new Set(company.teamsConfig.map((t) => t.id));
    const unknown = teams.find((t) => !known.has(t));
    if (unknown !== undefined) throw invalid(field, `team ${unknown} is not in the company's teams_config`);
  }

  private async assertBelowLimit(manager: EntityManager, companyId: string): Promise<void> {
    const limit = this.config.MEMBER_LIMIT;
    if (!limit) return;
    if ((await this.members.countActive(manager, companyId)) >= limit)
      throw new DomainError('forbidden', `member limit reached (${limit})`);
  }

  private async loadActorRef(ctx: AuthContext, manager?: EntityManager): Promise<MemberRef> {
    return callerRefOf(ctx, (await this.members.teamsOf(ctx.memberId, manager)) ?? []);
  }
}
