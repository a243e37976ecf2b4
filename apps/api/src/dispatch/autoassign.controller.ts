import { AuthContext } from '@app/core';
import { AutoassignDto, AutoassignService } from '@app/dispatch';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** autoassign (spec "autoassign"; CONTRACTS.md "Dispatch"): computed by the worker. */
@Controller('api')
export class AutoassignController {
  constructor(private readonly autoassign: AutoassignService) {}

  @Action('autoassign')
  async autoassignJobs(@Caller() ctx: AuthContext, @Data() dto: AutoassignDto) {
    return { status: 0, ...(await this.autoassign.autoassign(ctx, dto)) };
  }
}
