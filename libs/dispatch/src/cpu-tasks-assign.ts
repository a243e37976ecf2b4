/**
 * The CPU pool's tasks of distributejobs and autoassign (CONTRACTS.md "Worker results": CPU-heavy work
 * never runs on the loop that drains webhooks). Loaded by every pool thread: pure modules only — no
 * Nest, TypeORM or connections (the `@app/core` augmentation below is type-only).
 */
import type {} from '@app/core';
import { AssignInput, AssignOutput, assignJobs } from './assign';
import { ClusterPreview, clusterPoints, clusterPreview, renderClusterSvg, sphericalMean } from './cluster';
import { GeoPoint } from './types';

/** distributejobs' clustering: the points (degrees) and how to group them. */
export interface ClusterTaskInput {
  points: GeoPoint[];
  /**
   * `distance` / `size`: k-means++ on the sphere into `k` clusters (`size` balanced, no cluster above
   * ⌈1.1·n/k⌉). `groups`: the clusters are given — `groups[i]` is point i's cluster index 0..k-1 (the
   * `zones` method: a zone or team per cluster); only the centres are computed.
   */
  method: 'distance' | 'size' | 'groups';
  k: number;
  groups?: number[];
  seed?: number;
  /** ms the search may take (`clusterPoints`' `budgetMs`: no new restart after it); unset = all restarts */
  budgetMs?: number;
}

/** The clusters and their map preview. */
export interface ClusterTaskOutput {
  /** point i → cluster index 0..k-1 */
  assignment: number[];
  /** each cluster's spherical mean (degrees) */
  centers: GeoPoint[];
  /** the map preview: points coloured by cluster, centres marked, a scale bar */
  svg: string;
  /** the same clusters for the preview page: positions, centres and hulls per region */
  preview: ClusterPreview;
}

declare module '@app/core' {
  interface CpuTasks {
    /** distributejobs: k-means++ on the sphere (or given groups), their centres and the SVG map. */
    'dispatch.cluster': { input: ClusterTaskInput; output: ClusterTaskOutput };
    /** autoassign and createjobs with autoassign: the jobs of one day onto the available workers. */
    'dispatch.assign': { input: AssignInput; output: AssignOutput };
  }
}

/**
 * Clusters the points (`clusterPoints`: Arthur & Vassilvitskii 2007 k-means++, on the sphere after
 * Dhillon & Modha 2001), or takes the given groups and computes their spherical means, then renders
 * the map previews (`renderClusterSvg`, and `clusterPreview` for the preview page).
 * @throws Error when `groups` is missing for `method: 'groups'` (a caller bug).
 */
export function clusterTask(input: ClusterTaskInput): ClusterTaskOutput {
  let assignment: number[];
  let centers: GeoPoint[];
  if (input.method === 'groups') {
    if (!input.groups || input.groups.length !== input.points.length) throw new Error('dispatch.cluster: groups must name every point');
    assignment = input.groups;
    const members: GeoPoint[][] = Array.from({ length: input.k }, () => []);
    input.points.forEach((p, i) => members[assignment[i]].push(p));
    centers = members.map((m) => sphericalMean(m));
  } else {
    ({ assignment, centers } = clusterPoints(input.points, {
      k: input.k,
      method: input.method,
      seed: input.seed,
      budgetMs: input.budgetMs,
    }));
  }
  return {
    assignment,
    centers,
    svg: renderClusterSvg({ points: input.points, assignment, centers }),
    preview: clusterPreview(input.points, assignment, centers),
  };
}

/** Runs {@link assignJobs} (regret insertion, then moves between workers: see docs/autoassign.md). */
export function assignTask(input: AssignInput): AssignOutput {
  return assignJobs(input);
}
