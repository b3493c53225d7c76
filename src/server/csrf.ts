import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { requestCookie, sameSecret } from './security.ts';

/**
 * Cross-site requests. Vedette listens on this machine by default, and any web page the player
 * visits can send requests to 127.0.0.1 — a plain HTML form can POST `text/plain` without asking
 * anyone. So every request that changes something must prove it comes from Vedette's own page:
 *
 * - its Origin (and Sec-Fetch-Site, and Referer when there is no Origin) must be this server
 *   itself, exactly: scheme, host and port — `null` origins (sandboxed frames, file pages) too are
 *   refused;
 * - a browser's request must also carry this launch's secret, which only Vedette's own pages have:
 *   it is set as an HttpOnly, SameSite=Strict cookie on every answer, so another site's page
 *   never sends it (or the `X-Vedette-Session` header, for a page that wants to say it).
 *
 * Programs that are not browsers (curl, scripts, the tests) send neither Origin nor Sec-Fetch-Site
 * nor Referer nor a browser's User-Agent; no web page can make a browser send such a request, so
 * they need only the access token (LAN mode). WebSocket upgrades get the same Origin check.
 */

export const SESSION_COOKIE = 'vedette_session';
export const SESSION_HEADER = 'x-vedette-session';

/** A new secret for one start of the server (256 bits). */
export function newLaunchSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** Whether the request changes something (anything but GET, HEAD, OPTIONS). */
export function isStateChanging(method: string | undefined): boolean {
  return !SAFE_METHODS.includes((method ?? 'GET').toUpperCase());
}

/** This server's own origin as a browser writes it, from the Host the request was sent to. */
export function ownOrigin(req: IncomingMessage, secure: boolean): string | null {
  const host = req.headers.host;
  return host ? `${secure ? 'https' : 'http'}://${host.toLowerCase()}` : null;
}

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? null : u.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Why a request comes from somewhere other than this server's own pages, or null when nothing
 * says so. Looks at Origin, then Sec-Fetch-Site, then (without Origin) Referer.
 */
export function foreignOrigin(req: IncomingMessage, secure: boolean): string | null {
  const own = ownOrigin(req, secure);
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (origin === 'null') return 'a page with a hidden origin (a sandboxed frame or a file)';
    const given = originOf(origin);
    if (given === null || given !== own) return `a page of ${origin}`;
  }
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    return `a ${site} page (Sec-Fetch-Site: ${site})`;
  const referer = req.headers.referer;
  if (origin === undefined && typeof referer === 'string') {
    const from = originOf(referer);
    if (from !== null && from !== own) return `a page of ${from}`;
  }
  return null;
}

/**
 * Whether the request comes from a web browser: browsers send Origin or Sec-Fetch-Site on every
 * request that changes something, a Referer on most, and a User-Agent starting with "Mozilla/".
 */
export function fromBrowser(req: IncomingMessage): boolean {
  const ua = req.headers['user-agent'];
  return (
    req.headers.origin !== undefined ||
    req.headers['sec-fetch-site'] !== undefined ||
    req.headers.referer !== undefined ||
    (typeof ua === 'string' && ua.startsWith('Mozilla/'))
  );
}

/** Whether the request carries this launch's secret (cookie or header). */
export function carriesLaunchSecret(req: IncomingMessage, secret: string): boolean {
  const header = req.headers[SESSION_HEADER];
  const given = typeof header === 'string' ? header : requestCookie(req, SESSION_COOKIE);
  return given !== undefined && given.length < 200 && sameSecret(given, secret);
}

export interface SameOriginOptions {
  /** This launch's secret (`newLaunchSecret()`). */
  readonly secret: string;
  /** Served over HTTPS: origins are https:// and the cookie is Secure. */
  readonly secure: boolean;
}

/**
 * Express middleware: hands every visitor this launch's secret as a SameSite=Strict cookie, and
 * refuses (403, with the reason) a state-changing request from another origin, or from a browser
 * without the secret. Mount it after the access check and before anything reads a body.
 */
export function sameOriginGuard(options: SameOriginOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const has = carriesLaunchSecret(req, options.secret);
    if (!has)
      res.cookie(SESSION_COOKIE, options.secret, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: options.secure,
      });
    if (!isStateChanging(req.method)) return next();
    const foreign = foreignOrigin(req, options.secure);
    if (foreign !== null)
      return void res
        .status(403)
        .json({ error: `refused: ${foreign} may not change this table (cross-site request)` });
    if (!has && fromBrowser(req))
      return void res.status(403).json({
        error:
          'refused: this request does not come from a Vedette page of this start (cross-site request, or a page ' +
          'opened before Vedette restarted: reload the page)',
      });
    next();
  };
}

/**
 * The Origin check of a WebSocket upgrade: a browser always sends Origin with one, and it must be
 * this server's own. Returns the reason to refuse, or null.
 */
export function upgradeOriginProblem(req: IncomingMessage, secure: boolean): string | null {
  return foreignOrigin(req, secure);
}
