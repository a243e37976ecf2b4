import { MAX_ZONE_POSITIONS, polygonInspectionIssue, polygonShapeIssue } from './zone-polygon';

const square = (x = 14.5, y = 46, d = 0.1) => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

describe('polygonShapeIssue (the GeoJSON rules of a zone polygon)', () => {
  it('passes a closed square, either winding, with a hole', () => {
    expect(polygonShapeIssue({ type: 'Polygon', coordinates: [square()] })).toBeNull();
    expect(polygonShapeIssue({ type: 'Polygon', coordinates: [[...square()].reverse()] })).toBeNull();
    expect(polygonShapeIssue({ type: 'Polygon', coordinates: [square(), square(14.52, 46.02, 0.02)] })).toBeNull();
  });

  it.each([
    ['not an object', 'x', '', /must be a GeoJSON Polygon/],
    ['an array', [square()], '', /must be a GeoJSON Polygon/],
    ['null', null, '', /must be a GeoJSON Polygon/],
    ['an extra key', { type: 'Polygon', coordinates: [square()], bbox: [0, 0, 1, 1] }, '.bbox', /unknown field/],
    ['another type', { type: 'MultiPolygon', coordinates: [[square()]] }, '.type', /must be "Polygon"/],
    ['no coordinates', { type: 'Polygon' }, '.coordinates', /non-empty array of linear rings/],
    ['no rings', { type: 'Polygon', coordinates: [] }, '.coordinates', /non-empty array/],
    ['a ring not an array', { type: 'Polygon', coordinates: [5] }, '.coordinates[0]', /must be a linear ring/],
    [
      'too few positions',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0]',
      /at least 4 positions.*\(has 3\)/,
    ],
    [
      'a position of three numbers',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0, 5],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0][0]',
      /two finite numbers/,
    ],
    [
      'a string coordinate',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            ['1', 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0][1]',
      /two finite numbers/,
    ],
    [
      'a NaN-like null',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, null],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0][1]',
      /two finite numbers/,
    ],
    [
      'lng beyond 180',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [180.5, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0][1][0]',
      /lng must be in \[-180, 180\]/,
    ],
    [
      'lat beyond -90',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, -91],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      '.coordinates[0][1][1]',
      /lat must be in \[-90, 90\]/,
    ],
    [
      'crossing the antimeridian',
      {
        type: 'Polygon',
        coordinates: [
          [
            [179, 0],
            [-179, 0],
            [-179, 1],
            [179, 0],
          ],
        ],
      },
      '.coordinates[0][1]',
      /antimeridian/,
    ],
    [
      'an open ring',
      {
        type: 'Polygon',
        coordinates: [
          square()
            .slice(0, 4)
            .concat([[14.5, 46.05]]),
        ],
      },
      '.coordinates[0]',
      /must be closed/,
    ],
    [
      'an open hole',
      {
        type: 'Polygon',
        coordinates: [
          square(),
          square(14.52, 46.02, 0.02)
            .slice(0, 4)
            .concat([[14.52, 46.03]]),
        ],
      },
      '.coordinates[1]',
      /must be closed/,
    ],
  ])('%s: the issue names its path and rule', (_label, value, path, rule) => {
    const issue = polygonShapeIssue(value);
    expect(issue?.path).toBe(path);
    expect(issue?.rule).toMatch(rule);
  });

  it(`refuses more than ${MAX_ZONE_POSITIONS} positions in all, before reading them`, () => {
    const ring = Array.from({ length: MAX_ZONE_POSITIONS }, (_, i) => [Math.cos(i) / 100, Math.sin(i) / 100]);
    ring.push(ring[0]);
    expect(polygonShapeIssue({ type: 'Polygon', coordinates: [ring] })).toEqual({
      path: '.coordinates',
      rule: `may have at most ${MAX_ZONE_POSITIONS} positions in all (has ${MAX_ZONE_POSITIONS + 1})`,
    });
    expect(polygonShapeIssue({ type: 'Polygon', coordinates: [ring.slice(1)] })?.path).not.toBe('.coordinates');
  });
});

describe('polygonInspectionIssue (PostGIS validity, then the area bound)', () => {
  it('passes a valid polygon of at most 10,000 km²', () => {
    expect(polygonInspectionIssue({ valid: true, reason: 'Valid Geometry', areaM2: 1e10 })).toBeNull();
  });

  it("names PostGIS' reason", () => {
    expect(polygonInspectionIssue({ valid: false, reason: 'Self-intersection[0.5 0.5]', areaM2: null })).toEqual({
      path: '',
      rule: 'must be a valid polygon; PostGIS says: Self-intersection[0.5 0.5]',
    });
  });

  it('refuses more than 10,000 km², saying how much it covers', () => {
    expect(polygonInspectionIssue({ valid: true, reason: 'Valid Geometry', areaM2: 12_308.8e6 })).toEqual({
      path: '',
      rule: 'must cover at most 10000 km² (covers 12309 km²)',
    });
  });
});
