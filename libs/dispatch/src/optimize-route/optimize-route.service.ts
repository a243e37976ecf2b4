import { AuthContext, forbidden, invalid, notFound, WorkerResultsService } from '@app/core';
import { CompanyService, MembersService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { routeAccessDenial } from '../dispatch-policy';
import { OptimizeRouteDto } from '../dto/optimize-route.dto';
import { OptimizeRouteAnswer, OptimizeRouteParams } from './optimize-route.types';

/**
 * optimizeroute, the api's side (CONTRACTS.md "Dispatch"): resolves `account` in the caller's
 * company, checks the caller may optimize that route and that `startEndAtCompany` has a company
 * location, then runs the `optimizeroute` kind in the worker and waits for its answer
 * (`DISPATCH_TIMEOUT_MS`; past it -99/503 "dispatch did not finish within N s; nothing was changed").
 * These checks are made here only: the run's parameters carry their outcome (the member's id, the
 * company's location) and the worker does not repeat them.
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
    let params: OptimizeRouteParams = { memberId: member.id, day: dto.day, startEndAtCompany: false };
    if (dto.startEndAtCompany) {
      const company = await this.company.byId(ctx.companyId);
      if (company?.locationLat == null || company.locationLng == null) throw noCompanyLocation();
      params = { ...params, startEndAtCompany: true, companyLocation: { lat: company.locationLat, lng: company.locationLng } };
    }
    return this.runs.call(
      'optimizeroute',
      params,
      { companyId: ctx.companyId, memberId: ctx.memberId },
      { profile: 'dispatch' },
    );
  }
}

/** -1 for `startEndAtCompany` while the company has no `location`. */
const noCompanyLocation = () =>
  invalid('data.startEndAtCompany', 'the company has no location: set it with editcompany {location: {lat, lng}}');
