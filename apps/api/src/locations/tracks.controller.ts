import { AuthContext, invalid } from '@app/core';
import { checkTracksRange, GetTracksDto, MemberTracksService, TrackEntry } from '@app/locations';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** Track actions (spec "Tracks"). */
@Controller('api')
export class TracksController {
  constructor(private readonly tracks: MemberTracksService) {}

  /**
   * gettracks: the tracks overlapping [from, until) of the members the caller may view (getaccounts'
   * rule: workers see themselves and team-mates; active members only), oldest first. `uids` → a flat
   * `tracks` list (others left out); else `accounts` (uids or usernames) → `{<key as sent>: [tracks]}`
   * (`[]` for a member that is unknown, of another company, or not viewable).
   */
  @Action('gettracks')
  async gettracks(@Caller() ctx: AuthContext, @Data() dto: GetTracksDto) {
    checkTracksRange(dto.from, dto.until, 'data');
    if (dto.uids === undefined && dto.accounts === undefined) throw invalid('data.uids', 'required (or the deprecated data.accounts)');
    const keys = dto.uids ?? dto.accounts ?? [];
    const viewable = await this.tracks.viewable(ctx, dto.uids ? { ids: keys } : { ids: keys, usernames: keys });
    const entries = await this.tracks.entries(
      ctx.companyId,
      viewable.map((m) => m.id),
      dto.from,
      dto.until,
      dto.withCourse ?? false,
    );
    if (dto.uids) return { status: 0, tracks: entries };

    const byMember = new Map<string, TrackEntry[]>();
    for (const e of entries) byMember.set(e.owner_uid, [...(byMember.get(e.owner_uid) ?? []), e]);
    const accounts: Record<string, TrackEntry[]> = {};
    for (const key of keys) {
      const member = viewable.find((m) => m.id === key) ?? viewable.find((m) => m.username.toLowerCase() === key.toLowerCase());
      accounts[key] = member ? (byMember.get(member.id) ?? []) : [];
    }
    return { status: 0, accounts };
  }
}
