import { action, createCompany, TestApi, TestCompany } from '../support/api';
import { startApiProcess, stopAllChildren } from '../support/proc-child';
import { useWorkerStack } from '../support/worker-stack';
import { BROWSER_ACCEPT, pageData, sharedTrack, SharedTrack } from './share-fixtures';

/**
 * The share pages through HTTP (issue #27 item 5; docs/share-pages.md): the track link negotiates a
 * page (a browser) against GeoJSON (everyone else) with `.gpx` unchanged; the cluster preview page
 * draws regions with labels and a legend and names no job or customer; the bundle is served from our
 * origin under the pages' own CSP. The in-process api, the BUILT worker (distributejobs), real
 * PostgreSQL and Redis. Needs `npm run build` (the worker, and the share pages' bundle).
 */
const PREFIX = `fieldwork-share-pages-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

describe('share pages', () => {
  const stack = useWorkerStack(PREFIX, { WORKER_TEST_KINDS: 'true', CPU_POOL_THREADS: '1' });
  let api: TestApi;
  let company: TestCompany;
  let shared: SharedTrack;

  beforeAll(async () => {
    api = stack.api;
    company = await createCompany(api, { timezone: 'Europe/Ljubljana', name: 'Acme Plumbing d.o.o.' });
    shared = await sharedTrack(api, company, { name: 'Ana <b>Novak</b> & "Co"' });
  }, 120_000);
  afterAll(() => stopAllChildren());

  const get = (path: string, accept?: string) => fetch(`${api.url}${path}`, { headers: accept ? { accept } : {} });

  describe('the track link: content negotiation', () => {
    it('a browser (Accept text/html first) gets a page: the member, the day, the figures, the map’s data, our bundle', async () => {
      const res = await get(`/share/tracks/${shared.token}`, BROWSER_ACCEPT);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
      expect(res.headers.get('vary')).toMatch(/Accept/i);
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('<body data-page="track">');
      // the name escaped, never markup
      expect(html).toContain('<h1>Ana &lt;b&gt;Novak&lt;/b&gt; &amp; &quot;Co&quot;</h1>');
      expect(html).not.toContain('<b>Novak</b>');
      const day = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Ljubljana' }).format(
        shared.track.start_ts,
      );
      expect(html).toContain(day);
      expect(html).toContain('(Europe/Ljubljana)');
      expect(html).toMatch(/<dt>Distance<\/dt><dd>\d+(\.\d)? k?m<\/dd>/);
      expect(html).toContain(`<a href="${shared.token}.gpx">Download GPX</a>`);
      expect(html).toContain('<div id="map"');
      // our bundle, from our origin
      const js = /<script src="(\/share\/assets\/share-[A-Z0-9]+\.js)" defer><\/script>/.exec(html)?.[1];
      const css = /<link rel="stylesheet" href="(\/share\/assets\/share-[A-Z0-9]+\.css)">/.exec(html)?.[1];
      expect(js).toBeDefined();
      expect(css).toBeDefined();
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      // the data the script draws: every point of the track, start and end marked with their times
      const data = pageData(html);
      expect(data).toMatchObject({ page: 'track', tiles: null });
      expect(data.line).toHaveLength(shared.track.waypoint_count);
      expect(data.start.at).toEqual(data.line[0]);
      expect(data.end.at).toEqual(data.line.at(-1));
      expect(data.start.label).toMatch(/^\d\d:\d\d$/);
    });

    it('the same URL still answers GeoJSON to everyone else: geo+json asked, */*, no Accept, application/json', async () => {
      const reference = await (await get(`/share/tracks/${shared.token}.geojson`)).text();
      for (const accept of ['application/geo+json', '*/*', undefined, 'application/json', 'application/geo+json, text/html;q=0.5']) {
        const res = await get(`/share/tracks/${shared.token}`, accept);
        expect({ accept, status: res.status, type: res.headers.get('content-type') }).toEqual({
          accept,
          status: 200,
          type: expect.stringMatching(/^application\/geo\+json/),
        });
        expect(await res.text()).toBe(reference);
      }
      expect(JSON.parse(reference)).toMatchObject({ type: 'Feature', geometry: { type: 'LineString' } });
    });

    it('.gpx and .geojson are unchanged, even for a browser', async () => {
      const gpx = await get(`/share/tracks/${shared.token}.gpx`, BROWSER_ACCEPT);
      expect(gpx.status).toBe(200);
      expect(gpx.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
      expect(gpx.headers.get('content-disposition')).toBe(`attachment; filename="track-${shared.track.id}.gpx"`);
      expect(await gpx.text()).toMatch(/^<\?xml/);
      const geojson = await get(`/share/tracks/${shared.token}.geojson`, BROWSER_ACCEPT);
      expect(geojson.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    });

    it('an unknown token: an HTML 404 page for a browser, the JSON 1001/404 for everyone else', async () => {
      const page = await get(`/share/tracks/${'0'.repeat(32)}`, BROWSER_ACCEPT);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('This link is unknown or has expired.');
      for (const accept of [undefined, '*/*', 'application/geo+json']) {
        const res = await get(`/share/tracks/${'0'.repeat(32)}`, accept);
        expect({ accept, status: res.status, body: await res.json() }).toEqual({
          accept,
          status: 404,
          body: { status: 1001, error: expect.stringContaining('not found') },
        });
      }
    });

    it('the member’s units: miles for a US member', async () => {
      const us = await sharedTrack(api, company, { name: 'Bo US', unitDistance: 'US' });
      const html = await (await get(`/share/tracks/${us.token}`, BROWSER_ACCEPT)).text();
      expect(html).toMatch(/<dt>Distance<\/dt><dd>\d+\.\d mi<\/dd>/);
      expect(html).toMatch(/<dt>Average speed<\/dt><dd>\d+\.\d mph<\/dd>/);
    });
  });

  describe('served from our origin under the pages’ CSP', () => {
    it('the bundle is served with long caching; unknown assets are a 404 in the share links’ shape', async () => {
      const html = await (await get(`/share/tracks/${shared.token}`, BROWSER_ACCEPT)).text();
      const js = /<script src="([^"]+)"/.exec(html)![1];
      const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)![1];
      const script = await get(js);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect(script.headers.get('cache-control')).toMatch(/immutable/);
      const text = await script.text();
      expect(text).toContain('leaflet'); // Leaflet bundled in, no CDN
      expect(text).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs|jsdelivr)/);
      const style = await get(css);
      expect(style.headers.get('content-type')).toMatch(/^text\/css/);
      expect(await style.text()).toContain('.leaflet-container');
      const missing = await get('/share/assets/nope.js');
      expect({ status: missing.status, body: await missing.json() }).toEqual({ status: 404, body: { status: 1001, error: expect.any(String) } });
    });

    it('CSP: self only without tiles, no upgrade-insecure-requests; the other routes keep helmet’s', async () => {
      for (const path of [`/share/tracks/${shared.token}`, '/share/assets/nope.js', `/share/tracks/${shared.token}.gpx`]) {
        const csp = (await get(path, BROWSER_ACCEPT)).headers.get('content-security-policy')!;
        expect({ path, csp }).toEqual({ path, csp: expect.stringContaining("script-src 'self'") });
        expect(csp).toContain("img-src 'self' data:;");
        expect(csp).toContain("style-src 'self'");
        expect(csp).not.toContain('upgrade-insecure-requests');
        expect(csp).not.toContain('unsafe-inline');
      }
      expect((await get('/health/live')).headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    });

    it('with CONSOLE_TILE_URL the tile host is allowed for images and the page draws on its tiles', async () => {
      const other = await startApiProcess({ CONSOLE_TILE_URL: 'https://{s}.tile.example.test/{z}/{x}/{y}.png', QUEUE_PREFIX: PREFIX });
      const res = await fetch(`${other.url}/share/tracks/${shared.token}`, { headers: { accept: BROWSER_ACCEPT } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("img-src 'self' data: https://*.tile.example.test;");
      expect(pageData(await res.text()).tiles).toEqual({
        url: 'https://{s}.tile.example.test/{z}/{x}/{y}.png',
        attribution: 'Map tiles: tile.example.test',
      });
      await other.child.stop();
    });
  });

  describe('the cluster preview', () => {
    /** Strings of the jobs and the company that a public link must never carry. */
    const SECRETS = [
      'Fjordview Bakery',
      'Ulica Svetega Duha 17',
      'Marjetka Zupančič',
      '+386 40 123 456',
      'marjetka@bakery.test',
      'gate code 4711',
      'ring twice',
      'Acme Plumbing',
      'cust-order-99',
    ];

    let c: TestCompany;
    let ids: string[];
    let token: string;
    let regions: Array<{ jobs: string[] }>;

    beforeAll(async () => {
      c = await createCompany(api, { name: 'Acme Plumbing North' });
      const around = [
        { lat: 46.05, lng: 14.5 },
        { lat: 45.55, lng: 13.73 },
        { lat: 46.55, lng: 15.64 },
      ];
      const jobs = Array.from({ length: 24 }, (_, i) => {
        const base = around[i % 3];
        return {
          destinationName: `Fjordview Bakery #${i}`,
          destinationText: `Ulica Svetega Duha 17, unit ${i}`,
          destinationLat: base.lat + ((i * 7) % 10) * 0.004,
          destinationLng: base.lng + ((i * 3) % 10) * 0.005,
          contactName: 'Marjetka Zupančič',
          contactPhone: '+386 40 123 456',
          contactEmail: 'marjetka@bakery.test',
          textDispatcher: 'gate code 4711',
          textReceiver: 'ring twice',
          customFields: [{ key: 'order', val: 'cust-order-99' }],
        };
      });
      const created = await action<any>(api, 'createjobs', { jobs }, { key: c.key });
      expect(created.body.status).toBe(0);
      ids = created.body.jobs.map((j: { id: string }) => j.id);
      const res = await action<any>(api, 'distributejobs', { jobs: Object.fromEntries(ids.map((id) => [id, {}])), regions: 3 }, { key: c.key });
      expect(res.body.status).toBe(0);
      regions = res.body.clusters;
      token = /\/share\/clusters\/([0-9a-f]{32})\.svg$/.exec(res.body.maplink)![1];
    }, 120_000);

    it('a page drawn like the console’s regions: a legend of every region with its count, labelled regions in the data', async () => {
      const res = await get(`/share/clusters/${token}`, BROWSER_ACCEPT);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('<body data-page="clusters">');
      expect(html).toContain('<p class="share-sub">24 jobs in 3 regions</p>');
      expect(html).toContain('<aside class="share-legend" aria-label="Legend"><h2>Regions</h2>');
      regions.forEach((r, j) => {
        expect(html).toMatch(new RegExp(`<li data-region="${j + 1}">.*?<span class="region-name">Region ${j + 1}</span><span class="region-count">${r.jobs.length} jobs?</span></li>`));
      });
      const data = pageData(html);
      expect(data.page).toBe('clusters');
      expect(data.regions.map((r: any) => [r.n, r.points.length])).toEqual(regions.map((r, j) => [j + 1, r.jobs.length]));
      for (const r of data.regions) {
        expect(r.colour).toMatch(/^#[0-9a-f]{6}$/);
        expect(r.hull.length).toBeGreaterThanOrEqual(3);
        expect(Object.keys(r).sort()).toEqual(['centre', 'colour', 'hull', 'ink', 'n', 'points']);
      }
      expect(html).toContain(`<a href="${token}.svg">Map as SVG</a>`);
    });

    it('the SVG (the maplink) has hulls, labelled centres with counts and the legend', async () => {
      const svg = await (await get(`/share/clusters/${token}.svg`)).text();
      expect([...svg.matchAll(/<polygon class="region"/g)]).toHaveLength(3);
      regions.forEach((r, j) => expect(svg).toContain(`>Region ${j + 1} · ${r.jobs.length} jobs</text>`));
    });

    it('names no job and no customer: not in the page, its data, the SVG, the script or the stylesheet', async () => {
      const html = await (await get(`/share/clusters/${token}`, BROWSER_ACCEPT)).text();
      const svg = await (await get(`/share/clusters/${token}.svg`)).text();
      const js = await (await get(/<script src="([^"]+)"/.exec(html)![1])).text();
      const css = await (await get(/<link rel="stylesheet" href="([^"]+)"/.exec(html)![1])).text();
      const served = { html, data: JSON.stringify(pageData(html)), svg, js, css };
      for (const [what, text] of Object.entries(served)) {
        for (const secret of [...SECRETS, ...ids, 'Fjordview', 'Zupan']) {
          expect({ what, secret, found: text.includes(secret) }).toEqual({ what, secret, found: false });
        }
      }
    });

    it('unknown or expired: a 404 page for a browser, JSON otherwise', async () => {
      const page = await get(`/share/clusters/${'0'.repeat(32)}`, BROWSER_ACCEPT);
      expect([page.status, page.headers.get('content-type')]).toEqual([404, expect.stringMatching(/^text\/html/)]);
      const json = await get(`/share/clusters/${'0'.repeat(32)}`);
      expect({ status: json.status, body: await json.json() }).toEqual({ status: 404, body: { status: 1001, error: expect.any(String) } });
    });

    it('a map stored before regions were kept shows its SVG', async () => {
      await stack.db.query(`UPDATE cluster_maps SET regions = NULL WHERE token = $1`, [token]);
      const html = await (await get(`/share/clusters/${token}`, BROWSER_ACCEPT)).text();
      expect(html).toContain(`<img src="${token}.svg" alt="Map of the job regions">`);
      expect(html).not.toContain('id="share-data"');
    });
  });
});
