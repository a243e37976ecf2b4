import { AppConfig, AuthContext, WorkerResultsService } from '@app/core';
import { Injectable } from '@nestjs/common';
import { ClusterMapsRepository, StoredClusterMap } from './cluster-maps.repository';
import { DistributeCluster } from './distribute.kind';
import { DistributeJobsDto } from '../dto/distribute.dto';

/** distributejobs' answer (spec "distributejobs"). */
export interface DistributeAnswer {
  clusters: DistributeCluster[];
  /** `{PUBLIC_BASE_URL}/share/clusters/<token>.svg`, valid 7 days */
  maplink: string;
}

/** The api side of distributejobs and its map links. */
@Injectable()
export class DistributeService {
  constructor(
    private readonly runs: WorkerResultsService,
    private readonly maps: ClusterMapsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Clusters the jobs in the worker (the `distributejobs` run kind).
   * @throws DomainError invalid (unknown ids, jobs without coordinates); RunUnfinishedError (-99/503)
   *   past `DISPATCH_TIMEOUT_MS`.
   */
  async distribute(ctx: AuthContext, dto: DistributeJobsDto): Promise<DistributeAnswer> {
    const { clusters, mapToken } = await this.runs.call(
      'distributejobs',
      { jobs: dto.ids, regions: dto.regions, method: dto.method ?? 'distance' },
      { companyId: ctx.companyId, memberId: ctx.memberId },
      { profile: 'dispatch' },
    );
    const base = (this.config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${this.config.PORT}`).replace(/\/+$/, '');
    return { clusters, maplink: `${base}/share/clusters/${mapToken}.svg` };
  }

  /** The SVG of a live map token, or null (unknown or expired: the share route answers 404). */
  mapSvg(token: string): Promise<string | null> {
    return this.maps.svg(token);
  }

  /**
   * The SVG and the regions (positions, centres, hulls; no names) of a live map token for the preview
   * page, or null (unknown or expired: the share route answers 404).
   */
  mapPreview(token: string): Promise<StoredClusterMap | null> {
    return this.maps.map(token);
  }
}
