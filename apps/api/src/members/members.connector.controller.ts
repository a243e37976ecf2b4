import { AuthContext } from '@app/core';
import { CompanyService, MembersQuery, MemberViewsService } from '@app/members';
import { Controller, Get, Query } from '@nestjs/common';
import { Caller, ConnectorAuth } from '../envelope/decorators';

/** Connector: who am I, and member search (spec: "Connector API"). */
@Controller('v1')
@ConnectorAuth()
export class MembersConnectorController {
  constructor(
    private readonly members: MemberViewsService,
    private readonly company: CompanyService,
  ) {}

  @Get('auth/whoami')
  async whoami(@Caller() ctx: AuthContext) {
    const [member, company] = await Promise.all([this.members.self(ctx), this.company.summary(ctx)]);
    return { data: { member, company } };
  }

  @Get('members')
  async search(@Caller() ctx: AuthContext, @Query() q: MembersQuery) {
    return { data: { items: await this.members.search(ctx, q.query, q.max) } };
  }
}
