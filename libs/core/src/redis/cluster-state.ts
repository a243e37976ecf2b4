/** One master of a Redis Cluster as `CLUSTER NODES` describes it (the view of the node asked). */
export interface ClusterMaster {
  /** `host:port` the node announces for clients */
  address: string;
  /** `up`, or `down` when the node asked flags it `fail`/`fail?` or its link is disconnected */
  status: 'up' | 'down';
  /** hash slots it serves (of 16,384) */
  slots: number;
}

/** What the api reports of a Redis Cluster in `/health/ready`. */
export interface ClusterState {
  /** `cluster_state` of `CLUSTER INFO`: `ok` when every slot is served */
  state: string;
  /** `cluster_slots_ok` of `CLUSTER INFO` */
  slotsOk: number;
  /** `cluster_known_nodes` */
  knownNodes: number;
  masters: ClusterMaster[];
}

/** `field:value` lines of `CLUSTER INFO` (or `INFO`) as a map. */
export function parseInfoFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) out.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return out;
}

/** Slots a `CLUSTER NODES` slot item stands for (`5461`, `0-5460`; `[…]` migrating markers count 0). */
function slotCount(item: string): number {
  if (item.startsWith('[')) return 0;
  const [from, to] = item.split('-').map(Number);
  return to === undefined ? 1 : to - from + 1;
}

/**
 * The masters in `CLUSTER NODES` output (Redis 7: `<id> <ip:port@cport[,hostname]> <flags> <master>
 * <ping-sent> <pong-recv> <config-epoch> <link-state> <slot> …`), ordered by address.
 */
export function parseClusterMasters(text: string): ClusterMaster[] {
  const masters: ClusterMaster[] = [];
  for (const line of text.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8) continue;
    const flags = fields[2].split(',');
    if (!flags.includes('master')) continue;
    const address = fields[1].split('@')[0];
    const failing = flags.includes('fail') || flags.includes('fail?') || fields[7] !== 'connected';
    masters.push({ address, status: failing ? 'down' : 'up', slots: fields.slice(8).reduce((n, item) => n + slotCount(item), 0) });
  }
  return masters.sort((a, b) => a.address.localeCompare(b.address));
}

/** {@link ClusterState} from the replies to `CLUSTER INFO` and `CLUSTER NODES`. */
export function clusterState(info: string, nodes: string): ClusterState {
  const fields = parseInfoFields(info);
  return {
    state: fields.get('cluster_state') ?? 'unknown',
    slotsOk: Number(fields.get('cluster_slots_ok') ?? 0),
    knownNodes: Number(fields.get('cluster_known_nodes') ?? 0),
    masters: parseClusterMasters(nodes),
  };
}
