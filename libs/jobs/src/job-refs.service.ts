import { AuthContext, invalid } from '@app/core';
import { CompanyService, MembersService } from '@app/members';
import { PlacesService } from '@app/places';
import { Injectable } from '@nestjs/common';
import { JobWrite } from './job-input';
import { AssigneeChange } from './job-write';

/**
 * Checks what job writes refer to — assignee (`worker` username / `receiverUid`), `dispatcherUid`,
 * `placeUid`, `teamId` — against the caller's company, with one query per kind for a whole batch.
 */
@Injectable()
export class JobRefs {
  constructor(
    private readonly members: MembersService,
    private readonly company: CompanyService,
    private readonly places: PlacesService,
  ) {}

  /**
   * @returns per write, the assignee it asks for (member id, null to unassign, undefined untouched).
   * @throws DomainError invalid naming the field: an unknown or inactive assignee, `worker` and
   *   `receiverUid` naming different members, an unknown dispatcher, place or team.
   */
  async resolve(ctx: AuthContext, writes: readonly JobWrite[]): Promise<AssigneeChange[]> {
    const usernames = new Set<string>();
    const ids = new Set<string>();
    const places = new Set<string>();
    let needTeams = false;
    for (const write of writes) {
      const f = write.fields;
      if (f.worker) usernames.add(f.worker.toLowerCase());
      if (f.receiverUid) ids.add(f.receiverUid);
      if (f.dispatcherUid) ids.add(f.dispatcherUid);
      if (f.placeUid) places.add(f.placeUid);
      if (f.teamId) needTeams = true;
    }
    const found = await this.members.findActive(ctx.companyId, { usernames: [...usernames], ids: [...ids] });
    const byName = new Map(found.map((m) => [m.username.toLowerCase(), m.id]));
    const byId = new Set(found.map((m) => m.id));
    const knownPlaces = await this.places.existingIds(ctx.companyId, [...places]);
    const teams = needTeams ? await this.company.teamIds(ctx.companyId) : new Set<number>();

    return writes.map(({ fields: f, path }) => {
      if (f.teamId && !teams.has(f.teamId))
        throw invalid(`${path}.teamId`, `team ${f.teamId} is not in the company's teams_config (0 = no team)`);
      if (f.placeUid && !knownPlaces.has(f.placeUid)) throw invalid(`${path}.placeUid`, 'no such place');
      if (f.dispatcherUid && !byId.has(f.dispatcherUid))
        throw invalid(`${path}.dispatcherUid`, 'must be the uid of an active member of the company');
      let fromWorker: AssigneeChange;
      let fromUid: AssigneeChange;
      if (f.worker !== undefined) {
        fromWorker = f.worker === '' ? null : byName.get(f.worker.toLowerCase());
        if (fromWorker === undefined) throw invalid(`${path}.worker`, 'must be the username of an active member of the company');
      }
      if (f.receiverUid !== undefined) {
        fromUid = f.receiverUid === '' ? null : byId.has(f.receiverUid) ? f.receiverUid : undefined;
        if (fromUid === undefined) throw invalid(`${path}.receiverUid`, 'must be the uid of an active member of the company');
      }
      if (f.worker !== undefined && f.receiverUid !== undefined && fromWorker !== fromUid) {
        throw invalid(`${path}.receiverUid`, 'worker and receiverUid name different members');
      }
      return f.worker !== undefined ? fromWorker : fromUid;
    });
  }
}
