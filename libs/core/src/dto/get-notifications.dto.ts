import { SinceLimitDto } from '../validation/since-limit.dto';

/** getnotifications: `since` (ms, inclusive) and `limit`. */
export class GetNotificationsDto extends SinceLimitDto {}
