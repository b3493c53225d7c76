import type { NextFunction, Request, Response } from 'express';

/**
 * Security headers on every answer:
 *
 * - `X-Content-Type-Options: nosniff`: a browser never runs an answer as a script or page it
 *   was not labelled as (an exported CSV, a picture, a JSON error).
 * - `Referrer-Policy: no-referrer`: addresses never leave in a Referer (a token link included).
 * - `Content-Security-Policy`: scripts, styles, pictures and connections only from this server
 *   (and the page's own blob:/data: pictures and camera stream); no plugins; forms post only here.
 *   `frame-ancestors 'none'` — no other site may show Vedette in a frame (clickjacking) — except
 *   the streamer overlay, which Vedette's own pages may frame (`'self'`); streaming software such
 *   as OBS loads it as a page of its own, which is not framing and is unaffected.
 * - `X-Frame-Options`, the same rule for browsers older than frame-ancestors.
 */

/** Pages that Vedette's own pages may show in a frame (documented in docs/security.md). */
export const FRAMEABLE_PAGES: readonly string[] = ['/overlay.html'];

/** The policy for one page; `host` (the request's Host) names this server's WebSocket address. */
export function contentSecurityPolicy(path: string, host?: string): string {
  const frameable = FRAMEABLE_PAGES.includes(path);
  const sockets = host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The overlay page has one inline <style>; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    // 'self' covers ws:/wss: to this host in current browsers; older ones need them named.
    `connect-src 'self'${sockets}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameable ? "'self'" : "'none'"}`,
  ].join('; ');
}

/** Express middleware setting the headers above. Mount it first, so refusals carry them too. */
export function securityHeaders() {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.set('X-Content-Type-Options', 'nosniff');
    res.set('Referrer-Policy', 'no-referrer');
    res.set('Content-Security-Policy', contentSecurityPolicy(req.path, req.headers.host));
    res.set('X-Frame-Options', FRAMEABLE_PAGES.includes(req.path) ? 'SAMEORIGIN' : 'DENY');
    res.set('Cross-Origin-Opener-Policy', 'same-origin');
    next();
  };
}
