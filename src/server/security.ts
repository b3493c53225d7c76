import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * Who may do what. Small, readable pieces used by app.ts:
 * tokens and roles, the HTTP and WebSocket-upgrade checks, token buckets for message rates, and
 * path resolution that cannot leave its folder.
 */

/** A `player` may change the table (scenario, camera, battle); a `spectator` only watches and measures. */
export type Role = 'player' | 'spectator';

export interface AccessTokens {
  /** Token for full control; null: no token needed (loopback without --token): everyone is a player. */
  readonly player: string | null;
  /** Token for the read-only spectator link; null: no spectator link. */
  readonly spectator: string | null;
}

export const TOKEN_COOKIE = 'vedette_token';

/** A random URL-safe token (128 bits). */
export function newToken(): string {
  return randomBytes(16).toString('base64url');
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The role a token grants, or null when it grants nothing. */
export function roleFor(tokens: AccessTokens, token: string | undefined): Role | null {
  if (tokens.player === null) return 'player';
  if (token === undefined || token.length > 200) return null;
  if (sameSecret(token, tokens.player)) return 'player';
  if (tokens.spectator !== null && sameSecret(token, tokens.spectator)) return 'spectator';
  return null;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The token a request carries: `Authorization: Bearer`, `X-Vedette-Token`, `?token=`, or the cookie. */
export function tokenOf(req: IncomingMessage): { token: string | undefined; fromQuery: boolean } {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  const header = req.headers['x-vedette-token'];
  if (typeof header === 'string') return { token: header, fromQuery: false };
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  if (query !== null) return { token: query, fromQuery: true };
  return { token: cookieValue(req.headers.cookie, TOKEN_COOKIE), fromQuery: false };
}

/**
 * Refuses requests whose Host header does not name this server when it listens on loopback only:
 * a web page elsewhere cannot reach it through DNS rebinding.
 */
export function hostAllowed(req: IncomingMessage, loopbackOnly: boolean): boolean {
  if (!loopbackOnly) return true;
  const host = req.headers.host;
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** A browser's Origin, when it sends one, must be this server (no other site may open our socket). */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export interface Access {
  readonly role: Role;
}

/** The role of a request (set by `accessMiddleware`). */
export function roleOf(res: Response): Role {
  return (res.locals as { role?: Role }).role ?? 'spectator';
}

/**
 * HTTP access: checks the host, the token and the role. A valid `?token=` is moved into an
 * HttpOnly, SameSite=Strict cookie and the browser is sent to the same address without it, so the
 * page's own requests and its WebSocket carry the token without the page knowing it.
 * Spectators may only read (GET/HEAD).
 */
export function accessMiddleware(tokens: AccessTokens, loopbackOnly: boolean, secure = false) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hostAllowed(req, loopbackOnly)) return void res.status(403).json({ error: 'unknown host' });
    const { token, fromQuery } = tokenOf(req);
    const role = roleFor(tokens, token);
    if (role === null) {
      const why =
        'an access token is needed: open the link printed by `vedette serve --lan` (or scan its QR code)';
      if (req.method === 'GET' && !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html') {
        res.status(401).type('html').send(`<!doctype html><title>Vedette</title><p>Vedette: ${why}.</p>`);
      } else res.status(401).json({ error: why });
      return;
    }
    (res.locals as { role?: Role }).role = role;
    if (fromQuery && token !== undefined && tokens.player !== null) {
      res.cookie(TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', secure });
      if (req.method === 'GET' && req.accepts('html')) {
        const url = new URL(req.originalUrl, 'http://x');
        url.searchParams.delete('token');
        return void res.redirect(303, url.pathname + url.search);
      }
    }
    if (role === 'spectator' && !['GET', 'HEAD', 'OPTIONS'].includes(req.method)) {
      return void res.status(403).json({ error: 'a spectator link is read-only' });
    }
    next();
  };
}

/** The role of a WebSocket upgrade request, or the HTTP status to refuse it with. */
export function upgradeAccess(
  req: IncomingMessage,
  tokens: AccessTokens,
  loopbackOnly: boolean,
): Role | 401 | 403 {
  if (!hostAllowed(req, loopbackOnly) || !originAllowed(req)) return 403;
  return roleFor(tokens, tokenOf(req).token) ?? 401;
}

/** A token bucket: `burst` tokens, refilled at `ratePerSecond`. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(cost = 1): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

/** Per-client-address rate limit for requests that change things (express middleware). */
export function rateLimit(ratePerSecond: number, burst: number) {
  const buckets = new Map<string, TokenBucket>();
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = req.socket.remoteAddress ?? '?';
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size > 10_000) buckets.clear();
      bucket = new TokenBucket(ratePerSecond, burst);
      buckets.set(key, bucket);
    }
    if (!bucket.take()) return void res.status(429).json({ error: 'too many requests: slow down' });
    next();
  };
}

export class PathError extends Error {}

/**
 * A file named by a client, inside `root`: a plain name (letters, digits, `-`, `_`, `.`), no
 * separators, no `..`, not absolute; the extension is added when missing. Throws PathError otherwise.
 */
export function resolveInside(root: string, name: string, extension: string): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 100)
    throw new PathError('a file name of 1–100 characters is needed');
  if (isAbsolute(name) || name.includes('/') || name.includes('\\') || name.includes('\0')) {
    throw new PathError('give a file name, not a path');
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..'))
    throw new PathError(`not an allowed file name: ${name}`);
  const file = name.endsWith(extension) ? name : name + extension;
  const base = resolve(root);
  const full = resolve(base, file);
  const rel = relative(base, full);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep))
    throw new PathError('that file is outside its folder');
  return full;
}
