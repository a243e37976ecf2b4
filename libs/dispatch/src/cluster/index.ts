/** Clustering for `distributejobs`: spherical k-means (`distance`), size-balanced (`size`), and the SVG map. */
export { clusterPoints, clusterCenters, clusterSse, DEFAULT_RESTARTS } from './cluster-points';
export type { ClusterOptions, ClusterResult } from './cluster-points';
export { balancedCapacity } from './balance';
export { sphericalMean } from './sphere';
export { renderClusterSvg } from './svg';
export type { ClusterSvgInput } from './svg';
