import { AuthContext, EmptyDto } from '@app/core';
import { MemberLocationsReader } from '@app/locations';
import {
  CompanyService,
  CreateAccountDto,
  DeleteAccountDto,
  EditAccountDto,
  EditCompanyDto,
  GetAccountsDto,
  MembersService,
  MemberViewsService,
} from '@app/members';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data, Ver } from '../envelope/decorators';

/**
 * Members and company actions (spec: "Members"; `editcompany` is our extension). The member answers'
 * `location`/`states` are `member_locations`' (owned by `@app/locations`, which members may not
 * import): the views come from `MemberViewsService` / `MembersService`, and `MemberLocationsReader`
 * attaches them (docs/locate.md, "getaccounts / createaccount / editaccount").
 */
@Controller('api')
export class MembersActionsController {
  constructor(
    private readonly members: MembersService,
    private readonly views: MemberViewsService,
    private readonly company: CompanyService,
    private readonly located: MemberLocationsReader,
  ) {}

  @Action('getaccounts')
  async getaccounts(@Caller() ctx: AuthContext, @Data() dto: GetAccountsDto) {
    return { status: 0, accounts: await this.located.attach(ctx.companyId, await this.views.getAccounts(ctx, dto.uids)) };
  }

  @Action('createaccount')
  async createaccount(@Caller() ctx: AuthContext, @Data() dto: CreateAccountDto, @Ver() ver: 1 | 2) {
    const created = await this.members.createAccount(ctx, dto);
    if (ver === 1) return { status: 0 };
    await this.located.attachOne(ctx.companyId, created.account);
    return { status: 0, ...created };
  }

  @Action('editaccount')
  async editaccount(@Caller() ctx: AuthContext, @Data() dto: EditAccountDto) {
    return { status: 0, account: await this.located.attachOne(ctx.companyId, await this.members.editAccount(ctx, dto)) };
  }

  @Action('deleteaccount')
  async deleteaccount(@Caller() ctx: AuthContext, @Data() dto: DeleteAccountDto) {
    await this.members.deleteAccount(ctx, dto);
    return { status: 0 };
  }

  @Action('getcompany')
  async getcompany(@Caller() ctx: AuthContext, @Data() _dto: EmptyDto) {
    return { status: 0, company: await this.company.getCompany(ctx) };
  }

  @Action('editcompany')
  async editcompany(@Caller() ctx: AuthContext, @Data() dto: EditCompanyDto) {
    return { status: 0, company: await this.company.editCompany(ctx, dto) };
  }
}
