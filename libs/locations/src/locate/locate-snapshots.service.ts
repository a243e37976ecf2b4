import { AppConfig, xid32 } from '@app/core';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CompanySnapshot } from './company-snapshot';
import { MembersLocateRead } from './members-locate.read';

/** One company's cache entry: its snapshot and the refreshes queued on it. */
interface Entry {
  snapshot?: CompanySnapshot;
  /** settles when the last queued refresh has run: refreshes of one entry run one at a time */
  tail: Promise<unknown>;
  /** a refresh queued and not yet started: calls arriving now share it */
  pending?: Promise<CompanySnapshot | null>;
}

/**
 * Per-company snapshots of every member with its latest location, for `locate` (docs/locate.md,
 * *The snapshot*): instead of reading and converting all of a company's members on every call,
 * each call reads only the rows whose `xmin` is not older than the snapshot's horizon (one
 * statement, a few ms at 5,000 members), applies them, and answers from memory — the records'
 * JSON is rendered once per change.
 *
 * Never stale: each call waits for a refresh that STARTS after the call began (calls arriving
 * together share one), so an answer holds every write committed before the call. Refreshes of one
 * company run one at a time. A row deleted shows only as a count that moved: then, or when the
 * snapshot is older than `LOCATE_SNAPSHOT_MAX_AGE_MS`, the company is read whole again.
 * Companies are kept least-recently-used, up to `LOCATE_SNAPSHOT_MEMBERS` members in all per api
 * process (about 1.2 KB of heap each); each api instance keeps its own.
 */
@Injectable()
export class LocateSnapshots {
  private readonly entries: LRUCache<string, Entry>;
  /** Refresh statements run, whole reads among them: for tests and the bench. */
  readonly stats = { refreshes: 0, fullReads: 0 };

  constructor(
    private readonly read: MembersLocateRead,
    private readonly config: AppConfig,
  ) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: config.LOCATE_SNAPSHOT_MEMBERS,
      sizeCalculation: (e) => Math.max(1, e.snapshot?.size ?? 1),
    });
  }

  /** Members held in all companies' snapshots of this process. */
  get heldMembers(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.snapshot?.size ?? 0;
    return n;
  }

  /**
   * The company's snapshot holding every write committed before this call (read from the database
   * as needed).
   * @returns null when the company does not exist
   */
  current(companyId: string): Promise<CompanySnapshot | null> {
    let entry = this.entries.get(companyId);
    if (!entry) {
      entry = { tail: Promise.resolve() };
      this.entries.set(companyId, entry);
    }
    if (entry.pending) return entry.pending;
    const e = entry;
    const run = e.tail.then(() => {
      e.pending = undefined;
      return this.refresh(companyId, e);
    });
    e.pending = run;
    e.tail = run.catch(() => undefined);
    return run;
  }

  /** Brings the entry's snapshot up to date (or reads it whole); the company is re-sized in the cache. */
  private async refresh(companyId: string, e: Entry): Promise<CompanySnapshot | null> {
    try {
      const now = Date.now();
      const held = e.snapshot && now - e.snapshot.loadedAt <= this.config.LOCATE_SNAPSHOT_MAX_AGE_MS ? e.snapshot : undefined;
      let snapshot = held ? await this.readInto(companyId, held, now) : null;
      if (!snapshot) snapshot = await this.readInto(companyId, undefined, now);
      e.snapshot = snapshot ?? undefined;
      if (snapshot && this.entries.get(companyId) === e) this.entries.set(companyId, e);
      return snapshot;
    } catch (err) {
      e.snapshot = undefined; // never answer from a snapshot a failed refresh may have half-applied
      throw err;
    }
  }

  /**
   * One refresh statement: the rows changed since `held`'s horizon applied to it, or (no `held`) a
   * whole new snapshot.
   * @returns the snapshot; null when the company does not exist, or when `held` no longer matches
   *   the database's counts (the caller then reads whole)
   */
  private async readInto(companyId: string, held: CompanySnapshot | undefined, now: number): Promise<CompanySnapshot | null> {
    this.stats.refreshes++;
    if (!held) this.stats.fullReads++;
    const horizon = held ? xid32(held.horizon) : undefined;
    const [row] = await this.read.refresh(companyId, horizon, held && horizon !== undefined ? held.recentVersions(horizon) : undefined);
    if (!row) return null;
    const snapshot = held ?? new CompanySnapshot(row.horizon, now);
    snapshot.apply(row.rows ?? [], row.horizon);
    snapshot.setTeams(row.teams_config);
    if (!held) snapshot.countsRead(row);
    return snapshot.matches(row) ? snapshot : null;
  }
}
