import { CreateFoundation1795298701562 } from './1795298701562-CreateFoundation';

/** Every migration, in order (listed explicitly: STYLE.md §12). */
export const MIGRATIONS = [CreateFoundation1795298701562];
