import helmet from 'helmet';

/**
 * The CSP source of a tile template's host: its scheme and host, with Leaflet's `{s}` subdomain
 * placeholder as a wildcard (`https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`);
 * the port kept.
 */
export function tileSource(template: string): string {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template);
  if (!m) throw new Error(`not an http(s) tile template: ${template}`);
  const host = m[2].replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '*');
  return `${m[1].toLowerCase()}://${host}`;
}

/**
 * The share pages' security headers: helmet's, with their own CSP — everything from our origin
 * (`'self'`), images also from the tile host when `CONSOLE_TILE_URL` is set, no inline script or
 * style, and no `upgrade-insecure-requests` (a page served over plain HTTP on a LAN must keep working;
 * DESIGN.md "Wave 3 traps").
 */
export function shareSecurityHeaders(tileUrl: string | undefined) {
  const img = ["'self'", 'data:', ...(tileUrl ? [tileSource(tileUrl)] : [])];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': img,
        'connect-src': ["'self'"],
        'font-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'self'"],
      },
    },
    // a shared link's page names who and when: the full URL (the token) is never sent on
    referrerPolicy: { policy: 'no-referrer' },
  });
}
