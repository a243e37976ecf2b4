import { Injectable } from '@nestjs/common';
import { AnyRunHandler, RunHandler, RunKind } from './run-kinds';

/**
 * kind → handler, filled at module init by the domain modules (and, with `WORKER_TEST_KINDS=true`,
 * the test kinds: `TestRunKinds`). The worker's executor looks kinds up here; the api only needs
 * the types.
 */
@Injectable()
export class RunKindRegistry {
  private readonly handlers = new Map<string, AnyRunHandler>();

  /** Registers `kind`'s handler. @throws Error when the kind is registered twice (a wiring bug). */
  register<K extends RunKind, C>(kind: K, handler: RunHandler<K, C>): void {
    if (this.handlers.has(kind)) throw new Error(`run kind ${kind} registered twice`);
    this.handlers.set(kind, handler as unknown as AnyRunHandler);
  }

  /** The handler of `kind`, or undefined when none is registered in this process. */
  get(kind: string): AnyRunHandler | undefined {
    return this.handlers.get(kind);
  }
}
