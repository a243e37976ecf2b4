import { AppConfig, AuthContext } from '@app/core';
import { callerRefOf, mayViewMember, MembersService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { publicBaseUrl, TrackEntry, toTrackEntry } from './track-view';
import { TracksQueryService } from './tracks-query.service';

/** A member a tracks call names, as found. */
export interface TracksMember {
  id: string;
  username: string;
}

/**
 * Tracks for a caller (gettracks, `GET /v1/tracks`): the members it may view — getaccounts' rule
 * (workers see themselves and their team-mates; active members of the company only) — and their
 * Track entries — read from the replica once it has replayed past the call (docs/scaling.md, "Read
 * replica"), else the primary; who may be viewed is always read on the primary.
 */
@Injectable()
export class MemberTracksService {
  constructor(
    private readonly tracks: TracksQueryService,
    private readonly members: MembersService,
    private readonly config: AppConfig,
  ) {}

  /**
   * The active members of the caller's company among these ids (and usernames, case-insensitive)
   * that the caller may view; unknown, deactivated, other companies' and unviewable ones left out.
   */
  async viewable(ctx: AuthContext, opts: { ids: string[]; usernames?: string[] }): Promise<TracksMember[]> {
    const [found, [self]] = await Promise.all([
      this.members.findActive(ctx.companyId, opts),
      this.members.findActive(ctx.companyId, { ids: [ctx.memberId] }),
    ]);
    const actor = callerRefOf(ctx, self?.teams ?? []);
    return found
      .filter((m) => mayViewMember(actor, { id: m.id, role: m.role, teams: m.teams, isOwner: false }))
      .map((m) => ({ id: m.id, username: m.username }));
  }

  /**
   * The Track entries of these members (already checked by {@link viewable}) overlapping [from, until)
   * (ms), oldest first (start, then id); `course_encoded` only with `withCourse`.
   */
  async entries(companyId: string, memberIds: string[], from: number, until: number, withCourse = false): Promise<TrackEntry[]> {
    const list = await this.tracks.forMembers(companyId, memberIds, from, until);
    const base = publicBaseUrl(this.config);
    return list.map((t) => toTrackEntry(t, base, withCourse));
  }
}
