import { Api } from './api';
import { Firing, Job, JOB_ACTIONS, PositionRecord, StreamEvent } from './model';
import { Store } from './store';

interface AlertData {
  alert: { id: string; title: string; message: string };
  member: { uid: string; name: string; username: string };
}

/**
 * Applies the stream's events to the store: `snapshot` (every visible member's position), `position`,
 * job events (rows change live), `alerttriggered` (the feed; staff then learn the firing's id from
 * getalertfirings, since the event carries the rule, not the firing). Others are ignored.
 */
export class LiveEvents {
  private snapshotSeen!: () => void;
  /** resolves at the first snapshot */
  readonly firstSnapshot = new Promise<void>((r) => (this.snapshotSeen = r));

  constructor(
    private readonly store: Store,
    private readonly api: Api,
  ) {}

  handle(event: string, data: unknown): void {
    if (event === 'snapshot') {
      const s = data as { members: PositionRecord[] };
      this.store.applyPositions(s.members ?? []);
      this.snapshotSeen();
      return;
    }
    if (event === 'position') return this.store.applyPositions([data as PositionRecord]);
    if ((JOB_ACTIONS as readonly string[]).includes(event)) return this.store.applyJobEvent(data as StreamEvent<Job[]>);
    if (event === 'alerttriggered') void this.alert(data as StreamEvent<AlertData>);
  }

  private async alert(e: StreamEvent<AlertData>): Promise<void> {
    const d = e.data;
    const firing: Firing = {
      firingId: null,
      eventId: e.id,
      ruleId: d.alert.id,
      memberUid: d.member.uid,
      title: d.alert.title,
      message: d.alert.message,
      ts: e.ts,
    };
    if (!this.store.members.has(d.member.uid))
      this.store.putMembers([{ uid: d.member.uid, username: d.member.username, name: d.member.name }]);
    this.store.addFiring(firing);
    if (!this.store.isStaff()) return;
    try {
      const { firings } = await this.api.action<{ firings: Array<{ id: string; memberUid: string; ts: number }> }>('getalertfirings', {
        since: Math.max(0, e.ts - 15 * 60_000),
        ruleId: d.alert.id,
        limit: 100,
      });
      const known = new Set(this.store.firings.map((f) => f.firingId));
      const match = firings.find((f) => f.memberUid === d.member.uid && !known.has(f.id));
      if (match) {
        firing.firingId = match.id;
        firing.ts = match.ts;
        this.store.emit({ topic: 'firings' });
      }
    } catch {
      // the entry stays, without its firing id
    }
  }
}
