import { AppConfig, AuthContext, invalid } from '@app/core';
import { GetTracksDto, publicBaseUrl, TrackEntry, TracksQueryService, toTrackEntry } from '@app/locations';
import { mayViewMember, MembersService } from '@app/members';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** gettracks' longest range, ms (CONTRACTS.md "gettracks"). */
export const MAX_TRACKS_RANGE_MS = 31 * 24 * 3600 * 1000;

/** A member the caller asked for, as found. */
interface Found {
  id: string;
  username: string;
}

/** Track actions (spec "Tracks"). */
@Controller('api')
export class TracksController {
  constructor(
    private readonly tracks: TracksQueryService,
    private readonly members: MembersService,
    private readonly config: AppConfig,
  ) {}

  /**
   * gettracks: the tracks overlapping [from, until) of the members the caller may view (getaccounts'
   * rule: workers see themselves and team-mates; active members only), oldest first. `uids` → a flat
   * `tracks` list (others left out); else `accounts` (uids or usernames) → `{<key as sent>: [tracks]}`
   * (`[]` for a member that is unknown, of another company, or not viewable).
   */
  @Action('gettracks')
  async gettracks(@Caller() ctx: AuthContext, @Data() dto: GetTracksDto) {
    if (dto.until < dto.from) throw invalid('data.until', 'must not be before data.from');
    if (dto.until - dto.from > MAX_TRACKS_RANGE_MS) throw invalid('data.until', 'the range from data.from may span at most 31 days');
    if (dto.uids === undefined && dto.accounts === undefined) throw invalid('data.uids', 'required (or the deprecated data.accounts)');
    const keys = dto.uids ?? dto.accounts ?? [];
    const viewable = await this.viewable(ctx, dto.uids ? { ids: keys } : { ids: keys, usernames: keys });
    const list = await this.tracks.forMembers(
      ctx.companyId,
      viewable.map((m) => m.id),
      dto.from,
      dto.until,
    );
    const base = publicBaseUrl(this.config);
    const entries = list.map((t) => toTrackEntry(t, base, dto.withCourse ?? false));
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

  /** The active members of the caller's company among these ids/usernames that the caller may view. */
  private async viewable(ctx: AuthContext, opts: { ids: string[]; usernames?: string[] }): Promise<Found[]> {
    const [found, [self]] = await Promise.all([
      this.members.findActive(ctx.companyId, opts),
      this.members.findActive(ctx.companyId, { ids: [ctx.memberId] }),
    ]);
    const actor = { id: ctx.memberId, role: ctx.role, teams: self?.teams ?? [], isOwner: ctx.isOwner };
    return found.filter((m) => mayViewMember(actor, { id: m.id, role: m.role, teams: m.teams, isOwner: false }));
  }
}
