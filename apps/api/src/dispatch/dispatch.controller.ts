import { AuthContext } from '@app/core';
import { OptimizeRouteDto, OptimizeRouteService } from '@app/dispatch';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** Dispatch actions (spec "optimizeroute"; CONTRACTS.md "Dispatch"), computed by the worker. */
@Controller('api')
export class DispatchActionsController {
  constructor(private readonly optimizeRoutes: OptimizeRouteService) {}

  @Action('optimizeroute')
  async optimizeroute(@Caller() ctx: AuthContext, @Data() dto: OptimizeRouteDto) {
    return { status: 0, ...(await this.optimizeRoutes.optimizeRoute(ctx, dto)) };
  }
}
