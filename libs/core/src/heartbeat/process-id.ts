import { hostname } from 'node:os';

/**
 * This process' id, `<hostname>:<pid>:<start ms>`: a worker's heartbeat row (`worker_heartbeats.id`)
 * and the owner its webhook delivery claims name (`webhook_deliveries.claimed_by`), so the
 * reconciler can release the claims of a worker whose heartbeat stopped. One per process.
 */
export const PROCESS_ID = `${hostname()}:${process.pid}:${Date.now()}`;
