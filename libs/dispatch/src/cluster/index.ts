/** Clustering for `distributejobs`: spherical k-means (`distance`), size-balanced (`size`), and the SVG map. */
export { clusterPoints, clusterCenters, clusterSse, DEFAULT_RESTARTS } from './cluster-points';
export type { ClusterOptions, ClusterResult } from './cluster-points';
export { balancedCapacity } from './balance';
export { sphericalMean } from './sphere';
export { renderClusterSvg, clusterColour, readableOn } from './svg';
export { clusterPreview } from './preview';
export type { ClusterPreview, ClusterPreviewRegion, PreviewLatLng } from './preview';
export { convexHull } from './hull';
export type { ClusterSvgInput } from './svg';
