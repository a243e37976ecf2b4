import { AuthContext } from '@app/core';
import { Injectable } from '@nestjs/common';
import { ConnectorPosition, locateQueryOf, matchesPositionFilter, PositionsFilter, toConnectorPosition } from './connector-position';
import { LocateRepository } from './locate.repository';
import { LocateService } from './locate.service';

/**
 * `GET /v1/locations` (docs/connector.md "Positions"): the members `locate` selects for the caller —
 * its role rule (a worker: itself and its team-mates), active members only, creation order — narrowed
 * by every filter sent, each with its latest position and the live stream's member state.
 */
@Injectable()
export class ConnectorPositionsService {
  constructor(
    private readonly locate: LocateService,
    private readonly repo: LocateRepository,
  ) {}

  /** The positions of the members `f` selects that the caller may see (none selected → []). */
  async list(ctx: AuthContext, f: PositionsFilter): Promise<ConnectorPosition[]> {
    const members = (await this.locate.locate(ctx, locateQueryOf(f))).filter((r) => matchesPositionFilter(r, f));
    const rows = await this.repo.latestPositions(
      ctx.companyId,
      members.map((m) => m.uid),
    );
    const now = Date.now();
    return members.map((m) => toConnectorPosition(m, rows.get(m.uid), now));
  }
}
