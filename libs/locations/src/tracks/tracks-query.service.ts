import { decodePolyline } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Track } from '../entities/track.entity';
import { TrackShare } from '../entities/track-share.entity';
import { TrackPoint } from './render';
import { splitRules } from './split';

/** A share token as we issue them: 128 random bits in hex. */
const TOKEN = /^[0-9a-f]{32}$/;
const { maxAccuracyM } = splitRules(5);

/** Reads stored tracks: gettracks' lists and the public share links. */
@Injectable()
export class TracksQueryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The company's tracks of these members that overlap [from, until) (ms): `start_ts < until` and
   * `end_ts >= from` — the open track's `end_ts` is its last fix so far. Oldest first (start, then id).
   */
  async forMembers(companyId: string, memberIds: string[], from: number, until: number): Promise<Track[]> {
    if (!memberIds.length) return [];
    return this.dataSource
      .getRepository(Track)
      .createQueryBuilder('t')
      .where('t.company_id = :companyId AND t.member_id IN (:...memberIds)', { companyId, memberIds })
      .andWhere('t.start_ts < :until AND t.end_ts >= :from', { from, until })
      .orderBy('t.start_ts')
      .addOrderBy('t.id')
      .getMany();
  }

  /**
   * The track of a public share token and its points: the stored fixes of its time span that were used
   * for it (`acc` ≤ 100 m or unknown), else — the fixes pruned after LOCATION_RETENTION_DAYS while
   * the track is kept — its polyline's points without time or elevation. Null for an unknown token.
   */
  async byShareToken(token: string): Promise<{ track: Track; points: TrackPoint[] } | null> {
    if (!TOKEN.test(token)) return null;
    const share = await this.dataSource.getRepository(TrackShare).findOneBy({ token });
    if (!share) return null;
    const track = await this.dataSource.getRepository(Track).findOneBy({ companyId: share.companyId, id: share.trackId });
    if (!track) return null;
    const rows: Array<{ ts: string; lat: number; lng: number; elv: number | null }> = await this.dataSource.query(
      `SELECT ts, lat, lng, elv FROM location_fixes
        WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts <= $4 AND (acc IS NULL OR acc <= $5) ORDER BY ts`,
      [track.companyId, track.memberId, track.startTs, track.endTs, maxAccuracyM],
    );
    const points = rows.length
      ? rows.map((r) => ({ ts: Number(r.ts), lat: r.lat, lng: r.lng, elv: r.elv }))
      : decodePolyline(track.shortEncoded).map((p) => ({ ...p, ts: null, elv: null }));
    return { track, points };
  }
}
