import express, { Request } from 'express';
import { tileSource } from './share-csp';
import { escapeHtml, jsonForScript, prefersHtml, tilesConfig } from './share-html';
import { distanceText, durationText, speedText } from './track-page';

describe('share pages: HTML helpers', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(`<b a="x">'&'</b>`)).toBe('&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
  });

  it('embeds JSON that no string can break out of', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script>', line: '\u2028' });
    expect(text).not.toContain('<');
    expect(text).not.toContain('\u2028');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>', line: '\u2028' });
  });

  it('prefers HTML only when the client puts text/html before the data type', () => {
    // a request with express' own accepts() (its request prototype), as the app has it
    const req = (accept?: string) =>
      Object.setPrototypeOf({ headers: accept === undefined ? {} : { accept } }, express.request) as Request;
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    expect(prefersHtml(req(browser), 'application/geo+json')).toBe(true);
    expect(prefersHtml(req('*/*'), 'application/geo+json')).toBe(false);
    expect(prefersHtml(req(undefined), 'application/geo+json')).toBe(false);
    expect(prefersHtml(req('application/json'), 'application/geo+json')).toBe(false);
    expect(prefersHtml(req('application/geo+json, text/html;q=0.5'), 'application/geo+json')).toBe(false);
    expect(prefersHtml(req('text/html'))).toBe(true);
  });

  it('tiles: the template with a credit line; the CSP source of its host', () => {
    expect(tilesConfig(undefined)).toBeNull();
    expect(tilesConfig('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual({
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
    expect(tilesConfig('http://10.0.0.5:8080/t/{z}/{x}/{y}.png')!.attribution).toBe('Map tiles: 10.0.0.5:8080');
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileSource('HTTP://10.0.0.5:8080/t/{z}/{x}/{y}.png')).toBe('http://10.0.0.5:8080');
  });

  it('track figures in the member’s units', () => {
    expect(distanceText(850.4, 'SI')).toBe('850 m');
    expect(distanceText(12_440, 'SI')).toBe('12.4 km');
    expect(distanceText(12_440, 'US')).toBe('7.7 mi');
    expect(durationText(40_000)).toBe('40 s');
    expect(durationText(12 * 60_000)).toBe('12 min');
    expect(durationText(88 * 60_000)).toBe('1 h 28 min');
    expect(speedText(2.5, 'SI')).toBe('9.0 km/h');
    expect(speedText(2.5, 'US')).toBe('5.6 mph');
  });
});
