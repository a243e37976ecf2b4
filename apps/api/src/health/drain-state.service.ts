import { Injectable } from '@nestjs/common';

/** Set when the instance received SIGTERM: readiness fails first, then the server closes. */
@Injectable()
export class DrainState {
  draining = false;
}
