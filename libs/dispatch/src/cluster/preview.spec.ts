import { XMLValidator } from 'fast-xml-parser';
import { convexHull } from './hull';
import { clusterPreview } from './preview';
import { readableOn, renderClusterSvg } from './svg';

describe('convexHull', () => {
  it('keeps the corners, in order around the hull, and drops inner and collinear points', () => {
    const square = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
      [1, 1],
      [1, 0],
    ] as Array<[number, number]>;
    const hull = convexHull(square);
    expect(new Set(hull.map((p) => p.join(',')))).toEqual(new Set(['0,0', '2,0', '2,2', '0,2']));
    // in order around it: the shoelace area is the square's (a crossing order would give less)
    const area = hull.reduce((a, [x, y], i) => a + x * hull[(i + 1) % hull.length][1] - hull[(i + 1) % hull.length][0] * y, 0);
    expect(Math.abs(area) / 2).toBe(4);
    expect(convexHull([])).toEqual([]);
    expect(convexHull([[1, 1]])).toEqual([[1, 1]]);
  });
});

describe('clusterPreview', () => {
  const points = [
    { lat: 46.05, lng: 14.5 },
    { lat: 46.06, lng: 14.51 },
    { lat: 46.04, lng: 14.52 },
    { lat: 46.051, lng: 14.509 },
    { lat: 45.8, lng: 15.97 },
  ];
  const assignment = [0, 0, 0, 0, 1];
  const centers = [
    { lat: 46.05, lng: 14.51 },
    { lat: 45.8, lng: 15.97 },
  ];

  it('groups positions by region (answer order), rounds to 1e-5°, and gives each a hull', () => {
    const preview = clusterPreview(points, assignment, centers);
    expect(preview.v).toBe(1);
    expect(preview.regions.map((r) => r.points.length)).toEqual([4, 1]);
    expect(preview.regions[0].hull).toHaveLength(3); // the inner point is not on the hull
    expect(preview.regions[1]).toEqual({ points: [[45.8, 15.97]], centre: [45.8, 15.97], hull: [[45.8, 15.97]] });
    expect(JSON.stringify(preview)).not.toMatch(/\d\.\d{6,}/);
  });

  it('keeps a region across the antimeridian in one piece', () => {
    const across = clusterPreview(
      [
        { lat: -17, lng: 179.9 },
        { lat: -17, lng: -179.9 },
      ],
      [0, 0],
      [{ lat: -17, lng: 180 }],
    );
    const lngs = across.regions[0].points.map((p) => p[1]);
    expect(Math.max(...lngs) - Math.min(...lngs)).toBeCloseTo(0.2, 6);
  });

  it('refuses an assignment that does not match', () => {
    expect(() => clusterPreview(points, [0], centers)).toThrow(RangeError);
    expect(() => clusterPreview(points, [0, 0, 0, 0, 5], centers)).toThrow(RangeError);
  });
});

describe('renderClusterSvg: drawn like the console’s regions', () => {
  it('a hull per region, labelled centres with counts, a legend of every region; names nothing', () => {
    const svg = renderClusterSvg({
      points: [
        { lat: 46.05, lng: 14.5 },
        { lat: 46.06, lng: 14.51 },
        { lat: 46.04, lng: 14.52 },
        { lat: 45.8, lng: 15.97 },
      ],
      assignment: [0, 0, 0, 1],
      centers: [
        { lat: 46.05, lng: 14.51 },
        { lat: 45.8, lng: 15.97 },
      ],
    });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect([...svg.matchAll(/<polygon class="region"/g)]).toHaveLength(1); // one point: no hull
    expect(svg).toContain('>Region 1 · 3 jobs</text>');
    expect(svg).toContain('>Region 2 · 1 job</text>');
    expect(svg).toMatch(/<g class="centre" data-cluster="1">.*>1<\/text>.*>3 jobs<\/text><\/g>/);
    expect(svg).toContain('<title>4 jobs in 2 regions</title>');
  });

  it('labels read on their colour', () => {
    expect(readableOn('#ffe119')).toBe('#111');
    expect(readableOn('#000075')).toBe('#fff');
    expect(readableOn('hsl(1,2%,3%)')).toBe('#fff');
  });
});
