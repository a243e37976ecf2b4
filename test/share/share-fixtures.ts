import { Fix, TrackBuilder } from '@app/locations';
import { readGpxFixes } from '../support/gpx';
import { action, createMember, TestApi, TestCompany } from '../support/api';

/** A member's longest built track (most points), and its share token. */
export interface SharedTrack {
  member: { uid: string; key: string; username: string };
  /** the Track entry gettracks answers */
  track: any;
  token: string;
  fixes: Fix[];
}

/**
 * A member named `name` drives a real trace (test/fixtures/gpx, shifted to end `endsAgoMs` ago, whole
 * seconds), pushed through pushlocations; the tracks are built with the worker's own fix consumer
 * (TrackBuilder, on the api's module) and read back with gettracks.
 */
export async function sharedTrack(
  api: TestApi,
  company: TestCompany,
  opts: { name: string; file?: string; endsAgoMs?: number; unitDistance?: 'SI' | 'US' },
): Promise<SharedTrack> {
  const member = await createMember(api, company, { name: opts.name });
  if (opts.unitDistance) await action(api, 'editaccount', { uid: member.uid, unit_distance: opts.unitDistance }, { key: company.key });
  const raw = readGpxFixes(opts.file ?? 'korita-zbevnica.gpx').sort((a, b) => a.ts - b.ts);
  const delta = Date.now() - (opts.endsAgoMs ?? 3_600_000) - raw[raw.length - 1].ts;
  const fixes = raw.map((f) => ({ ...f, ts: Math.round((f.ts + delta) / 1000) * 1000 }));
  for (let i = 0; i < fixes.length; i += 1000) {
    const locations = fixes.slice(i, i + 1000).map((f) => ({ ts: f.ts, lat: f.lat, lng: f.lng, ...(f.elv !== null ? { elv: f.elv } : {}) }));
    const res = await action<any>(api, 'pushlocations', { locations }, { key: member.key });
    if (res.body.status !== 0 || res.body.accepted !== locations.length) throw new Error(`pushlocations: ${JSON.stringify(res.body)}`);
  }
  await api.app.get(TrackBuilder).onFixes({ companyId: company.companyUid, memberId: member.uid, fromTs: fixes[0].ts, toTs: fixes.at(-1)!.ts });
  const res = await action<any>(api, 'gettracks', { uids: [member.uid], from: fixes[0].ts - 60_000, until: Date.now() + 60_000 }, { key: company.key });
  const track = [...(res.body.tracks ?? [])].sort((a: any, b: any) => b.waypoint_count - a.waypoint_count)[0];
  if (!track) throw new Error(`no track built: ${JSON.stringify(res.body)}`);
  return { member, track, token: String(track.share_url).split('/').pop()!, fixes };
}

/** What a browser sends when it opens a link (Chromium's navigation Accept). */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

/** The JSON block a share page embeds for its script. */
export function pageData(html: string): any {
  const m = /<script type="application\/json" id="share-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no share-data block in the page');
  return JSON.parse(m[1]);
}
