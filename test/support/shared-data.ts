import path from 'node:path';

/** The shared GPX traces and schema (`<repo root>/../shared/data/gpx`; CI clones with `shared/` beside it). */
export const SHARED_GPX_DIR = path.resolve(__dirname, '../../../shared/data/gpx');
