import { AuthContext, Optional } from '@app/core';
import { CompanyService, MemberViewsService } from '@app/members';
import { Controller, Get, Query } from '@nestjs/common';
import { IsInt, IsString, MaxLength, Min } from 'class-validator';
import { Caller, ConnectorAuth } from '../envelope/decorators';
import { QueryInt } from '../envelope/query';

export class MembersQuery {
  @Optional()
  @IsString()
  @MaxLength(254)
  query?: string;

  /** default 50, larger values clamped to 50 */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  max?: number;
}

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
