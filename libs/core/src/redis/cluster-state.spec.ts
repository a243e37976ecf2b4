import { clusterState, parseClusterMasters } from './cluster-state';

/** `CLUSTER NODES` of a 3-master cluster (Redis 7), as seen from :7001, with :7002 failing and a replica. */
const NODES = [
  'a1 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460',
  'b2 127.0.0.1:7002@17002 master,fail? - 1700000000000 1699999990000 2 disconnected 5461-10922',
  'c3 127.0.0.1:7000@17000,node-c master - 0 1700000000000 3 connected 10923-16383 [42->-b2]',
  'd4 127.0.0.1:7003@17003 slave a1 0 1700000000000 1 connected',
  '',
].join('\n');

describe('cluster state for /health/ready', () => {
  it('lists the masters by address with their slots; failing or disconnected ones are down; replicas left out', () => {
    expect(parseClusterMasters(NODES)).toEqual([
      { address: '127.0.0.1:7000', status: 'up', slots: 5461 },
      { address: '127.0.0.1:7001', status: 'up', slots: 5461 },
      { address: '127.0.0.1:7002', status: 'down', slots: 5462 },
    ]);
  });

  it('reads state, served slots and known nodes from CLUSTER INFO', () => {
    const info =
      'cluster_enabled:1\r\ncluster_state:fail\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:10922\r\ncluster_known_nodes:4\r\n';
    expect(clusterState(info, NODES)).toEqual({ state: 'fail', slotsOk: 10922, knownNodes: 4, masters: parseClusterMasters(NODES) });
    expect(clusterState('', '')).toEqual({ state: 'unknown', slotsOk: 0, knownNodes: 0, masters: [] });
  });
});
