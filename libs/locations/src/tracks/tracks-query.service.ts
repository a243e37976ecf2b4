import { decodePolyline } from '@app/core';
import { Injectable } from '@nestjs/common';
import { Track } from '../entities/track.entity';
import { TrackPoint } from './render';
import { splitRules } from './split';
import { TracksRepository } from './tracks.repository';

/** A share token as we issue them: 128 random bits in hex. */
const TOKEN = /^[0-9a-f]{32}$/;
const { maxAccuracyM } = splitRules(5);

/** Reads stored tracks: gettracks' lists and the public share links. */
@Injectable()
export class TracksQueryService {
  constructor(private readonly repo: TracksRepository) {}

  /**
   * The company's tracks of these members that overlap [from, until) (ms): `start_ts < until` and
   * `end_ts >= from` — the open track's `end_ts` is its last fix so far. Oldest first (start, then id).
   * A routed read: from the read replica once it has replayed past this call's start, else the primary.
   */
  forMembers(companyId: string, memberIds: string[], from: number, until: number): Promise<Track[]> {
    return this.repo.forMembersRouted(companyId, memberIds, from, until);
  }

  /**
   * The track of a public share token and its points: the stored fixes of its time span that were used
   * for it (`acc` ≤ 100 m or unknown), else — the fixes pruned after LOCATION_RETENTION_DAYS while
   * the track is kept — its polyline's points without time or elevation. Null for an unknown token.
   */
  async byShareToken(token: string): Promise<{ track: Track; points: TrackPoint[] } | null> {
    if (!TOKEN.test(token)) return null;
    const share = await this.repo.shareByToken(token);
    if (!share) return null;
    const track = await this.repo.track(share.companyId, share.trackId);
    if (!track) return null;
    const fixes: TrackPoint[] = await this.repo.trackFixes(track, maxAccuracyM);
    const points = fixes.length ? fixes : decodePolyline(track.shortEncoded).map((p) => ({ ...p, ts: null, elv: null }));
    return { track, points };
  }
}
