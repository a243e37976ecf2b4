import { invalid, RunContext, RunKindRegistry } from '@app/core';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { ClusterPreview } from '../cluster';
import type { GeoPoint } from '../types';
import { JobsAutoassignRead } from '../autoassign/jobs-autoassign.read';
import type { DistributeMethod } from '../dto/distribute.dto';
import { ClusterMapsRepository } from './cluster-maps.repository';
import { DispatchZoneSource } from './zone-source.service';

/** How many ids an error names at most. */
const NAMED = 10;

/** `a, b, c` of the first {@link NAMED} ids, with the total when there are more. */
export function nameIds(ids: readonly string[]): string {
  return ids.length > NAMED ? `${ids.slice(0, NAMED).join(', ')} … (${ids.length} in all)` : ids.join(', ');
}

/** distributejobs' run parameters (validated by the api's DTO). */
export interface DistributeParams {
  /** job ids, in the order sent */
  jobs: string[];
  /** 1..min(n, 100); ignored by `zones` */
  regions?: number;
  method: DistributeMethod;
}

/** One cluster as the action answers it (spec "distributejobs"). */
export interface DistributeCluster {
  /** degrees: the spherical mean of the cluster's jobs */
  center_lat: number;
  center_lng: number;
  /** job ids, in the order sent */
  jobs: string[];
  method: DistributeMethod;
}

/** The worker's result: the clusters and the token of the stored map (the api makes the link). */
export interface DistributeResult {
  clusters: DistributeCluster[];
  mapToken: string;
}

interface Computed {
  clusters: DistributeCluster[];
  svg: string;
  preview: ClusterPreview;
}

declare module '@app/core' {
  interface RunKinds {
    distributejobs: { params: DistributeParams; result: DistributeResult };
  }
}

/** The seed of distributejobs' restarts: the same jobs give the same clusters. */
const SEED = 1;

/**
 * The `distributejobs` run kind (CONTRACTS.md "Dispatch"): reads the jobs' positions (own, else their
 * place's), clusters them in the CPU pool (`dispatch.cluster`), and stores the map preview in the run's
 * writing transaction. Writes no job.
 */
@Injectable()
export class DistributeJobsKind implements OnModuleInit {
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly reads: JobsAutoassignRead,
    private readonly maps: ClusterMapsRepository,
    private readonly zones: DispatchZoneSource,
  ) {}

  onModuleInit(): void {
    this.registry.register('distributejobs', {
      compute: (params, ctx) => this.compute(params, ctx),
      write: async (manager, computed: Computed, ctx) => ({
        clusters: computed.clusters,
        mapToken: await this.maps.store(manager, ctx.companyId, computed.svg, computed.preview),
      }),
    });
  }

  /**
   * @throws DomainError invalid naming `data.jobs`: unknown ids (another company's too), jobs without
   *   coordinates — up to 10 of them named.
   */
  async compute(params: DistributeParams, ctx: RunContext): Promise<Computed> {
    const rows = new Map((await this.reads.jobsByIds(ctx.companyId, params.jobs)).map((r) => [r.id, r]));
    const unknown = params.jobs.filter((id) => !rows.has(id));
    if (unknown.length) throw invalid('data.jobs', `unknown job ids: ${nameIds(unknown)}`);
    const jobs = params.jobs.map((id) => rows.get(id)!);
    const noPoint = jobs.filter((j) => j.lat === null || j.lng === null).map((j) => j.id);
    if (noPoint.length) throw invalid('data.jobs', `jobs without coordinates (own or their place's): ${nameIds(noPoint)}`);
    const points: GeoPoint[] = jobs.map((j) => ({ lat: j.lat!, lng: j.lng! }));

    let out;
    if (params.method === 'zones') {
      const zones = await this.zones.zonesOf(ctx.companyId, points);
      // one cluster per first linked zone, else per team, in order of first appearance
      const keys = new Map<string, number>();
      const groups = jobs.map((j, i) => {
        const key = zones[i].zoneIds.length ? `zone:${zones[i].zoneIds[0]}` : `team:${j.teamId}`;
        if (!keys.has(key)) keys.set(key, keys.size);
        return keys.get(key)!;
      });
      out = await ctx.cpu.run('dispatch.cluster', { points, method: 'groups', k: keys.size, groups });
    } else {
      out = await ctx.cpu.run('dispatch.cluster', {
        points,
        method: params.method,
        k: params.regions!,
        seed: SEED,
        budgetMs: clusterBudgetMs(ctx.writeBy, Date.now()),
      });
    }
    const clusters: DistributeCluster[] = out.centers.map((c) => ({
      center_lat: c.lat,
      center_lng: c.lng,
      jobs: [],
      method: params.method,
    }));
    out.assignment.forEach((k, i) => clusters[k].jobs.push(jobs[i].id));
    return { clusters, svg: out.svg, preview: out.preview };
  }
}

/**
 * The clustering's time budget, ms: half of what is left before the run's write deadline (`writeBy`,
 * ms epoch), at least 1 s — the restarts stop there, leaving the rest for the SVG, the write and
 * slack. Small inputs finish all their restarts long before it (2,000 jobs × 20 regions: well under
 * 1 s); `size` at 5,000 jobs × 100 regions would otherwise run past `DISPATCH_TIMEOUT_MS`
 * (docs/clustering.md). The first restart (and `size`'s first balancing) always runs whole.
 */
export function clusterBudgetMs(writeBy: number, now: number): number {
  return Math.max(1000, Math.floor((writeBy - now) / 2));
}
