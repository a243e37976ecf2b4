import { toPoint } from '@app/core';
import { escapeLike, getPlacesSql, knnCandidates } from './locations-nearest-places.read';
import { toPlaceRowView, toPlaceView } from './place-view';

describe('getplaces statement, and place rows to views', () => {
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

  it('names one statement text per set of filters: same name ⇔ same text, whatever the values', () => {
    const texts = new Map<string, string>();
    for (const query of [undefined, '', 'Depot', "a%'b"])
      for (const uids of [undefined, ['x'], ['y', 'z']])
        for (const teams of [undefined, [1], [2, 3]])
          for (const max of [1, 500]) {
            const [sql, , name] = getPlacesSql({ companyId: 'C', memberId: 'M', max, query, uids, teams });
            expect(texts.get(name) ?? sql).toBe(sql);
            texts.set(name, sql);
          }
    expect(texts.size).toBe(8);
    expect(new Set(texts.values()).size).toBe(8);
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

  it('toPlaceRowView answers what toPlaceView answers for the same place, field for field and in the same key order', () => {
    const row = {
      id: 'P',
      name: 'Depot',
      address: 'Street 1',
      city: 'Ljubljana',
      state: 'LJ',
      postalcode: '1000',
      countryCode: 'SI',
      phone: '+38611234567',
      email: 'a@b.si',
      radius: 50,
      color: '#00FF00',
      linkedForms: 'f1,f2',
      data: [
        { key: 'gate', val: 'B' },
        { key: 'floor', val: '2' },
      ],
      teams: [1, 3],
      createdAt: 1000,
      updatedAt: 2000,
      creatorId: 'M',
      creatorName: 'Ann',
    };
    for (const [lat, lng] of [
      [46.1, 14.2],
      [null, null],
    ]) {
      const { creatorId: _, creatorName, ...fields } = row;
      const viaEntity = toPlaceView({ ...fields, location: lat === null ? null : toPoint({ lat, lng: lng! }) }, creatorName);
      expect(JSON.stringify(toPlaceRowView({ ...row, lat, lng }))).toBe(JSON.stringify(viaEntity));
    }
    expect(JSON.stringify(toPlaceRowView({ ...row, updatedAt: null, creatorName: null, data: null!, teams: null!, lat: 1, lng: 2 }))).toBe(
      JSON.stringify(toPlaceView({ ...row, updatedAt: null, data: null!, teams: null!, location: toPoint({ lat: 1, lng: 2 }) }, null)),
    );
  });
});
