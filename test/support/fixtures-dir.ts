import path from 'node:path';

/** The real GPX traces and the GPX 1.1 schema kept in the repository (`test/fixtures/gpx`, README there). */
export const GPX_FIXTURES_DIR = path.resolve(__dirname, '../fixtures/gpx');
