/**
 * A bench helper run as a child process, one request at a time over IPC: the createjobs client
 * (bench/createjobs-client.ts) and the createjobs baseline (bench/createjobs-baseline.ts). Each keeps
 * its work off the api's process: its event loop and its heap.
 *
 * Protocol: the parent sends the child's configuration and gets `{ ready: true }`; each request is
 * answered by one message, in order; `{ stop: true }` ends the child (after `onStop`).
 */
import { ChildProcess, fork } from 'node:child_process';

/** The parent's end of a forked helper: `ask` sends one request and resolves with its answer. */
export interface IpcChild<Req, Res> {
  ask(request: Req): Promise<Res>;
  stop(): void;
}

/**
 * The child's end, called by the helper's module when it runs as a forked child: waits for its
 * configuration, builds its handler with `setup`, then answers each request with `handle(request)`.
 * A handler that throws answers `failed(error)`.
 */
export function serveIpc<Cfg, Req, Res>(
  setup: (cfg: Cfg) => { handle: (request: Req) => Promise<Res>; failed: (err: Error) => Res; onStop?: () => Promise<unknown> },
): void {
  process.once('message', (cfg: Cfg) => {
    const { handle, failed, onStop } = setup(cfg);
    process.on('message', (msg: Req & { stop?: boolean }) => {
      if (msg.stop) {
        void (onStop?.() ?? Promise.resolve()).finally(() => process.exit(0));
        return;
      }
      handle(msg).then(
        (r) => process.send!(r),
        (err: Error) => process.send!(failed(err)),
      );
    });
    process.send!({ ready: true });
  });
}

/**
 * Forks `modulePath` (with this process' node and ts-node flags), sends it `cfg` and resolves once it
 * is ready. The child is in `children` while it runs (the bench's clean-up kills them on a signal).
 * @param rejection an answer's error text, if it is one: the request's promise rejects with it
 * @throws Error when the child exits before it is ready (a pending request rejects when it exits)
 */
export function forkIpcChild<Cfg, Req extends object, Res>(
  label: string,
  modulePath: string,
  cfg: Cfg,
  children: Set<ChildProcess>,
  rejection: (answer: Res) => string | undefined = () => undefined,
): Promise<IpcChild<Req, Res>> {
  const child = fork(modulePath, [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  let pending: { resolve: (r: Res) => void; reject: (e: Error) => void } | undefined;
  const failed = (err: Error) => {
    pending?.reject(err);
    pending = undefined;
  };
  child.once('exit', (code) => {
    children.delete(child);
    failed(new Error(`the ${label} exited with ${code}`));
  });
  child.once('error', failed);
  return new Promise((resolve, reject) => {
    child.once('message', () => {
      child.on('message', (r: Res) => {
        const p = pending;
        pending = undefined;
        const error = rejection(r);
        if (error !== undefined) p?.reject(new Error(`the ${label} failed: ${error}`));
        else p?.resolve(r);
      });
      resolve({
        ask: (request) =>
          new Promise<Res>((res, rej) => {
            pending = { resolve: res, reject: rej };
            child.send(request);
          }),
        stop: () => {
          if (child.connected) child.send({ stop: true });
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the ${label} exited with ${code} before it was ready`)));
    child.send(cfg as object);
  });
}
