import { escapeLike, getPlacesSql, knnCandidates, toPlaceRowView } from './place-queries';

describe('place queries', () => {
  it('escapeLike makes % _ and \\ literal for LIKE … ESCAPE', () => {
    expect(escapeLike('50% off_now\\x')).toBe('50\\% off\\_now\\\\x');
    expect(escapeLike('plain')).toBe('plain');
  });

  it('knnCandidates takes 10 % + 10 more than asked (the sphere-vs-ellipsoid slack)', () => {
    expect(knnCandidates(1)).toBe(12);
    expect(knnCandidates(500)).toBe(560);
    expect(knnCandidates(5000)).toBe(5510);
  });

  it('getPlacesSql binds every value (never interpolates) and adds only the filters asked for', () => {
    const [plain, p0] = getPlacesSql({ companyId: 'C', memberId: 'M', max: 500 });
    expect(p0).toEqual(['C', 'M', 560, 500]);
    expect(plain).not.toMatch(/ILIKE|ANY\(\$5/);
    expect(plain).toMatch(/ORDER BY p\.location <-> \(SELECT at FROM me\) LIMIT \$3/);

    const [sql, params] = getPlacesSql({ companyId: 'C', memberId: 'M', max: 2, query: "a%'b", uids: ['x'], teams: [1, 2] });
    expect(params).toEqual(['C', 'M', 13, 2, "%a\\%'b%", ['x'], [1, 2]]);
    expect(sql).toContain(`p.name ILIKE $5 ESCAPE '\\'`);
    expect(sql).toContain('p.id = ANY($6::text[])');
    expect(sql).toContain('t::int = ANY($7::int[])');
    expect(sql).not.toContain("a%'b");
    // every branch sees the same filters: nearest, by name (no position), unlocated
    expect(sql.match(/p\.company_id = \$1 AND p\.deleted_at IS NULL AND p\.name ILIKE/g)).toHaveLength(3);
  });

  it('an empty query filters nothing', () => {
    expect(getPlacesSql({ companyId: 'C', memberId: 'M', max: 5, query: '' })[1]).toHaveLength(4);
  });

  it('toPlaceRowView reads lat/lng columns as the location, null when either is missing', () => {
    const row = {
      id: 'P',
      name: 'N',
      address: '',
      city: '',
      state: '',
      postalcode: '',
      countryCode: '',
      phone: '',
      email: '',
      radius: 0,
      color: '',
      linkedForms: '',
      data: [],
      teams: [],
      createdAt: 1,
      updatedAt: null,
      creatorId: null,
      creatorName: null,
    };
    expect(toPlaceRowView({ ...row, lat: 46.1, lng: 14.2 }).location).toEqual({ lat: 46.1, lng: 14.2 });
    expect(toPlaceRowView({ ...row, lat: null, lng: null }).location).toBeNull();
  });
});
