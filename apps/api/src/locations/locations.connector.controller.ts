import { AuthContext } from '@app/core';
import {
  checkTracksRange,
  ConnectorLocationsQueryDto,
  ConnectorPosition,
  ConnectorPositionsService,
  ConnectorTrack,
  ConnectorTracksQueryDto,
  MemberTracksService,
  toConnectorTrack,
} from '@app/locations';
import { Controller, Get, Query } from '@nestjs/common';
import { Caller, ConnectorAuth, Examples } from '../envelope/decorators';
import { LIST_POSITIONS, LIST_TRACKS } from './locations.connector.examples';

/**
 * `/v1/locations` and `/v1/tracks` (CONTRACTS.md "Wave 3: connector for automation platforms";
 * docs/connector.md "Positions", "Tracks"): the role rules are locate's and gettracks' (a worker sees
 * itself and its team-mates).
 */
@Controller('v1')
@ConnectorAuth()
export class LocationsConnectorController {
  constructor(
    private readonly positions: ConnectorPositionsService,
    private readonly tracks: MemberTracksService,
  ) {}

  /** Latest positions of the members selected (every filter narrows), in creation order. */
  @Get('locations')
  @Examples(LIST_POSITIONS)
  async locations(@Caller() ctx: AuthContext, @Query() q: ConnectorLocationsQueryDto): Promise<{ data: { items: ConnectorPosition[] } }> {
    return { data: { items: await this.positions.list(ctx, { memberId: q.memberId, username: q.username, team: q.team }) } };
  }

  /** One member's tracks overlapping [from, until), oldest first; a member the caller may not view, or unknown → no items. */
  @Get('tracks')
  @Examples(LIST_TRACKS)
  async trackList(@Caller() ctx: AuthContext, @Query() q: ConnectorTracksQueryDto): Promise<{ data: { items: ConnectorTrack[] } }> {
    checkTracksRange(q.from, q.until, 'query');
    const members = await this.tracks.viewable(ctx, { ids: [q.memberId] });
    const entries = await this.tracks.entries(
      ctx.companyId,
      members.map((m) => m.id),
      q.from,
      q.until,
    );
    return { data: { items: entries.map(toConnectorTrack) } };
  }
}
