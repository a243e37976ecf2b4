import { AuthContext } from '@app/core';
import { LocateService, LocationRecord } from '@app/locations';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';
import { LocateDto } from './locate.dto';

/** `locate`'s answer. */
export interface LocateAnswer {
  status: 0;
  accounts: LocationRecord[];
}

/** `locate` (spec "Locate: POST /api/locate"). */
@Controller('api')
export class LocateController {
  constructor(private readonly locate: LocateService) {}

  @Action('locate')
  async locateMembers(@Caller() ctx: AuthContext, @Data() dto: LocateDto): Promise<LocateAnswer> {
    return { status: 0, accounts: await this.locate.locate(ctx, dto.query) };
  }
}
