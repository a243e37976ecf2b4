import { SinceLimitDto } from './since-limit.dto';

/** getnotifications: `since` (ms, inclusive) and `limit`. */
export class GetNotificationsDto extends SinceLimitDto {}
