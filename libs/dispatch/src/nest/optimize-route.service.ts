import { AuthContext, forbidden, invalid, notFound, WorkerResultsService } from '@app/core';
import { CompanyService, MembersService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { routeAccessDenial } from './dispatch-roles';
import { OptimizeRouteDto } from './dto/optimize-route.dto';
import { OptimizeRouteAnswer } from './optimize-route.types';

/**
 * optimizeroute, the api's side (CONTRACTS.md "Dispatch"): resolves `account` in the caller's
 * company, checks the caller may optimize that route and that `startEndAtCompany` has a company
 * location, then runs the `optimizeroute` kind in the worker and waits for its answer
 * (`DISPATCH_TIMEOUT_MS`; past it -99/503 "dispatch did not finish within N s; nothing was changed").
 */
@Injectable()
export class OptimizeRouteService {
  constructor(
    private readonly members: MembersService,
    private readonly company: CompanyService,
    private readonly runs: WorkerResultsService,
  ) {}

  /**
   * @throws DomainError not_found naming `data.account` (unknown, or another company's member);
   *   forbidden when a worker asks for another member's route; invalid naming
   *   `data.startEndAtCompany` when the company has no location; unavailable (-99/503) past the deadline.
   */
  async optimizeRoute(ctx: AuthContext, dto: OptimizeRouteDto): Promise<OptimizeRouteAnswer> {
    const member = await this.members.findByAccount(ctx.companyId, dto.account);
    if (!member) throw notFound(`data.account: member ${dto.account}`);
    const denial = routeAccessDenial(ctx, member.id);
    if (denial) throw forbidden(`data.account: ${denial}`);
    const startEndAtCompany = dto.startEndAtCompany ?? false;
    if (startEndAtCompany) {
      const company = await this.company.byId(ctx.companyId);
      if (company?.locationLat == null || company.locationLng == null) throw noCompanyLocation();
    }
    return this.runs.call(
      'optimizeroute',
      { memberId: member.id, day: dto.day, startEndAtCompany },
      { companyId: ctx.companyId, memberId: ctx.memberId },
      { profile: 'dispatch' },
    );
  }
}

/** -1 for `startEndAtCompany` while the company has no `location`. */
export const noCompanyLocation = () =>
  invalid('data.startEndAtCompany', 'the company has no location: set it with editcompany {location: {lat, lng}}');
