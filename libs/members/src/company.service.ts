import { AppConfig, AuthContext, invalid, isIanaZone, newId } from '@app/core';
import { Injectable } from '@nestjs/common';
import { ApiKeysService, IssuedKey } from './api-keys.service';
import { CompaniesRepository } from './companies.repository';
import { applyExtraLabels } from './company-labels';
import { CompanyView, toCompanyView } from './company-view';
import { EditCompanyDto } from './dto/company.dto';
import { USERNAME } from './dto/member-fields';
import { Company } from './entities/company.entity';
import { normalizeTeam } from './member-rules';
import { MembersRepository } from './members.repository';
import { Passwords } from './passwords.service';
import { firstTeamInUse, TeamReferences } from './team-references.service';

export interface CreateCompanyInput {
  name: string;
  /** The owner administrator's username (the company account). */
  username: string;
  password?: string;
  /** IANA zone, default `UTC`. */
  timezone?: string;
  ownerName?: string;
}

/** The company (tenant): creation with its owner, getcompany and editcompany. */
@Injectable()
export class CompanyService {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly members: MembersRepository,
    private readonly passwords: Passwords,
    private readonly apiKeys: ApiKeysService,
    private readonly teamReferences: TeamReferences,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates a company, its owner administrator and a first API key, in one transaction.
   * @throws DomainError invalid for a bad name, username or time zone; exists when the username is taken.
   */
  async createCompany(input: CreateCompanyInput): Promise<IssuedKey & { companyUid: string; username: string }> {
    if (!input.name?.trim() || input.name.length > 200) throw invalid('name', 'must be 1 to 200 characters');
    if (!USERNAME.test(input.username ?? '')) throw invalid('username', 'must be 1 to 254 characters without white space');
    const timezone = input.timezone ?? 'UTC';
    if (!isIanaZone(timezone)) throw invalid('timezone', 'must be an IANA time-zone name such as Europe/Ljubljana');
    if (input.password !== undefined && input.password.length < 8) throw invalid('password', 'must be at least 8 characters');
    const passwordHash = input.password !== undefined ? await this.passwords.hash(input.password) : null;
    return this.companies.transaction(async (manager) => {
      if (await this.members.usernameTaken(manager, input.username)) throw invalid('username', 'username not available');
      const now = Date.now();
      const companyId = newId();
      const memberId = newId();
      await this.companies.insert(manager, {
        id: companyId,
        name: input.name.trim(),
        timezone,
        teamsConfig: [],
        createdAt: now,
        updatedAt: now,
      });
      await this.members.insert(manager, {
        id: memberId,
        companyId,
        username: input.username,
        name: input.ownerName ?? input.name.trim(),
        email: input.username.includes('@') ? input.username : '',
        role: 'administrator',
        passwordHash,
        createdAt: now,
        updatedAt: now,
      });
      await this.companies.setOwner(manager, companyId, memberId);
      const key = await this.apiKeys.issue(input.username, 'created with the company', manager);
      return { companyUid: companyId, username: input.username, ...key };
    });
  }

  /** getcompany */
  async getCompany(ctx: AuthContext): Promise<CompanyView> {
    const company = await this.companies.findByIdOrFail(ctx.companyId);
    return toCompanyView(company, await this.ownerUsername(company), this.config.TRACK_STOP_MINUTES);
  }

  /**
   * editcompany (our extension; administrators): changes the fields sent; `teams_config` replaces
   * the whole list.
   * @throws DomainError invalid naming `data.teams_config` when a removed team is still used.
   */
  async editCompany(ctx: AuthContext, dto: EditCompanyDto): Promise<CompanyView> {
    return this.companies.transaction(async (manager) => {
      const company = await this.companies.lock(manager, ctx.companyId);
      if (dto.teams_config) {
        const kept = new Set(dto.teams_config.map((t) => t.id));
        const removed = company.teamsConfig.map((t) => t.id).filter((id) => !kept.has(id));
        if (removed.length) {
          // teams are referenced by active members' `teams` (ours) and by other libs' rows (jobs'
          // `teamId`…), asked through their registered sources on this transaction, under the lock
          const used = firstTeamInUse([
            { what: 'members', teams: await this.members.teamsInUse(manager, ctx.companyId, removed) },
            ...(await this.teamReferences.usage(manager, ctx.companyId, removed)),
          ]);
          if (used) throw invalid('data.teams_config', `team ${used.team} is still assigned to ${used.what}; remove it from them first`);
        }
        company.teamsConfig = dto.teams_config.map(normalizeTeam);
      }
      if (dto.name !== undefined) company.name = dto.name;
      if (dto.email !== undefined) company.email = dto.email;
      if (dto.phone !== undefined) company.phone = dto.phone;
      if (dto.address !== undefined) company.address = dto.address;
      if (dto.location !== undefined) {
        company.locationLat = dto.location?.lat ?? null;
        company.locationLng = dto.location?.lng ?? null;
      }
      if (dto.timezone !== undefined) company.timezone = dto.timezone;
      if (dto.default_radius !== undefined) company.defaultRadius = dto.default_radius;
      if (dto.working_hours !== undefined) company.workingHours = dto.working_hours as Company['workingHours'];
      if (dto.workers_edit_job !== undefined) company.workersEditJob = dto.workers_edit_job;
      if (dto.workers_create_places !== undefined) company.workersCreatePlaces = dto.workers_create_places;
      if (dto.workers_view_places !== undefined) company.workersViewPlaces = dto.workers_view_places;
      if (dto.checkin_dwell_seconds !== undefined) company.checkinDwellSeconds = dto.checkin_dwell_seconds;
      if (dto.stop_minutes !== undefined) company.stopMinutes = dto.stop_minutes;
      company.extraLabels = applyExtraLabels(company.extraLabels ?? {}, dto);
      company.updatedAt = Date.now();
      await this.companies.save(manager, company);
      return toCompanyView(company, await this.ownerUsername(company), this.config.TRACK_STOP_MINUTES);
    });
  }

  /** The company by id (other domains read its settings: time zone, location, teams), or undefined. */
  async byId(companyId: string): Promise<Company | undefined> {
    return (await this.companies.findById(companyId)) ?? undefined;
  }

  /** The connector's view of the caller's company. */
  async summary(ctx: AuthContext): Promise<{ id: string; name: string; username: string }> {
    const company = await this.companies.findByIdOrFail(ctx.companyId);
    return { id: company.id, name: company.name, username: await this.ownerUsername(company) };
  }

  /** The company account's username (the `account` form field of webhook deliveries); "" if unknown. */
  accountUsername(companyId: string): Promise<string> {
    return this.companies.ownerUsername(companyId);
  }

  /** The team ids of the company's `teams_config`. */
  async teamIds(companyId: string): Promise<Set<number>> {
    const company = await this.companies.findByIdOrFail(companyId);
    return new Set(company.teamsConfig.map((t) => t.id));
  }

  private async ownerUsername(company: Company): Promise<string> {
    if (!company.ownerMemberId) return '';
    return (await this.members.usernameOf(company.ownerMemberId)) ?? '';
  }
}
