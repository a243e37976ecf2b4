import { consoleCsp, tileSource } from './console-csp';

describe('the console CSP', () => {
  it('allows only our origin without tiles, and never upgrades requests', () => {
    const csp = consoleCsp(undefined);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/upgrade-insecure-requests|unsafe-inline|unsafe-eval/);
  });

  it('adds the tile host to img-src, {s} as a wildcard subdomain', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tileSource('http://{s}.tiles.lan:8080/{z}/{x}/{y}.png')).toBe('http://*.tiles.lan:8080');
    expect(consoleCsp('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org;",
    );
    expect(consoleCsp('')).toBe(consoleCsp(undefined));
  });
});
