import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * Who may do what. Small, readable pieces used by app.ts (and meant for any other Vedette server):
 * tokens and roles, the HTTP and WebSocket-upgrade checks, throttling of wrong tokens, token
 * buckets for message rates, and path resolution that cannot leave its folder.
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

/** Least strength of an access token, in bits (a guess per ms for the age of the universe falls short). */
export const MIN_TOKEN_BITS = 128;

/** A random URL-safe token: 192 bits, so it clears MIN_TOKEN_BITS whatever characters it happens to use. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * How many bits a token is worth, estimated from its length and the kinds of characters in it
 * (hex digits, decimal digits, lower case, upper case, `-`/`_`, other symbols). A token that
 * repeats itself (fewer distinct characters than half of what its length and alphabet allow) is
 * worth only what its distinct characters are.
 */
export function tokenBits(token: string): number {
  if (token.replace(/-/g, '').length === 0) return 0;
  let alphabet: number;
  // Hex, with or without dashes (a UUID): the dashes carry nothing.
  if (/^[0-9a-f-]+$/.test(token) || /^[0-9A-F-]+$/.test(token)) {
    token = token.replace(/-/g, '');
    alphabet = /^[0-9]*$/.test(token) ? 10 : 16;
  } else {
    alphabet = 0;
    if (/[0-9]/.test(token)) alphabet += 10;
    if (/[a-z]/.test(token)) alphabet += 26;
    if (/[A-Z]/.test(token)) alphabet += 26;
    if (/[-_]/.test(token)) alphabet += 2;
    if (/[^0-9a-zA-Z_-]/.test(token)) alphabet += 33;
  }
  const distinct = new Set(token).size;
  const length = distinct < 0.5 * Math.min(alphabet, token.length) ? distinct : token.length;
  return length * Math.log2(alphabet);
}

/** Why a token given on the command line is too weak, or null when it is strong enough. */
export function weakTokenProblem(token: string, option: string): string | null {
  const bits = tokenBits(token);
  if (bits >= MIN_TOKEN_BITS) return null;
  return (
    `${option} is too weak: about ${Math.floor(bits)} bits, and an access token needs at least ${MIN_TOKEN_BITS} ` +
    `(for example 22 or more random letters and digits). Leave ${option} out and Vedette makes a strong one.`
  );
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Compares two secrets in constant time: both are hashed first, so neither the length of the
 * guess nor where it first differs changes how long the comparison takes.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
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

/**
 * The token a request carries: `Authorization: Bearer`, `X-Vedette-Token`, the cookie, or `?token=`
 * (only honoured on a page load, which swaps it for the cookie: see `accessMiddleware`). The hub
 * reads its own cookie the same way.
 */
export function tokenOf(
  req: IncomingMessage,
  cookieName = TOKEN_COOKIE,
): { token: string | undefined; fromQuery: boolean } {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return { token: auth.slice(7).trim(), fromQuery: false };
  const header = req.headers['x-vedette-token'];
  if (typeof header === 'string') return { token: header, fromQuery: false };
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  if (query !== null) return { token: query, fromQuery: true };
  return { token: cookieValue(req.headers.cookie, cookieName), fromQuery: false };
}

/** The value of one cookie of a request, if it has it. */
export function requestCookie(req: IncomingMessage, name: string): string | undefined {
  return cookieValue(req.headers.cookie, name);
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

/** The role of a request (set by `accessMiddleware`). */
export function roleOf(res: Response): Role {
  return (res.locals as { role?: Role }).role ?? 'spectator';
}

/**
 * Wrong tokens, counted per client address *before* any token is compared: an address that has
 * guessed wrong `burst` times may try again only at `ratePerSecond` (its right token included),
 * so guessing costs time whatever the token. Addresses are forgotten once they have cooled down.
 */
export class AuthThrottle {
  private readonly failures = new Map<string, TokenBucket>();

  constructor(
    private readonly burst = 10,
    private readonly ratePerSecond = 0.5,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this address must wait before its next attempt is even looked at. */
  blocked(address: string): boolean {
    const bucket = this.failures.get(address);
    return bucket !== undefined && !bucket.peek(1);
  }

  /** Seconds until `address` may try again (0 when it may now). */
  waitSeconds(address: string): number {
    const bucket = this.failures.get(address);
    return bucket ? Math.ceil(bucket.secondsUntil(1)) : 0;
  }

  /** A wrong token from this address. */
  failed(address: string): void {
    let bucket = this.failures.get(address);
    if (!bucket) {
      if (this.failures.size > 10_000) this.forgetCooled();
      bucket = new TokenBucket(this.ratePerSecond, this.burst, this.now);
      this.failures.set(address, bucket);
    }
    bucket.take();
  }

  private forgetCooled(): void {
    for (const [address, bucket] of this.failures) if (bucket.full()) this.failures.delete(address);
    if (this.failures.size > 10_000) this.failures.clear();
  }
}

/** The address a request comes from, for per-address limits. */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '?';
}

const NEEDS_TOKEN =
  'an access token is needed: open the link printed by `vedette serve --lan` (or scan its QR code)';

/** What the access check decided about one request (HTTP or WebSocket upgrade). */
export type AccessDecision =
  | { readonly role: Role; readonly tokenFromQuery: string | null }
  | { readonly status: 401 | 403 | 429; readonly error: string };

/**
 * The access check shared by HTTP requests and WebSocket upgrades: the Host, then the throttle of
 * wrong tokens (before any token is compared), then the token itself. A `?token=` in the address
 * is honoured only when `pageLoad` (a browser opening a link), and is then to be swapped for the
 * cookie; anywhere else tokens travel in a header or the cookie, never in URLs.
 */
export function decideAccess(
  req: IncomingMessage,
  tokens: AccessTokens,
  loopbackOnly: boolean,
  throttle: AuthThrottle,
  pageLoad: boolean,
): AccessDecision {
  if (!hostAllowed(req, loopbackOnly)) return { status: 403, error: 'unknown host' };
  if (tokens.player === null) return { role: 'player', tokenFromQuery: null };
  const address = clientAddress(req);
  if (throttle.blocked(address))
    return {
      status: 429,
      error: `too many wrong access tokens from ${address}: wait ${throttle.waitSeconds(address)} s`,
    };
  const { token, fromQuery } = tokenOf(req);
  if (fromQuery && !pageLoad)
    return {
      status: 401,
      error: 'send the access token in the Authorization header or the cookie, not in the address',
    };
  const role = roleFor(tokens, token);
  if (role === null) {
    if (token !== undefined && token.length > 0) throttle.failed(address);
    return { status: 401, error: NEEDS_TOKEN };
  }
  return { role, tokenFromQuery: fromQuery ? (token ?? null) : null };
}

/** A browser opening a page (not the API, not a script): the only place a `?token=` link is accepted. */
function isPageLoad(req: Request): boolean {
  return req.method === 'GET' && !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html';
}

/**
 * HTTP access: checks the host, the throttle, the token and the role. A valid `?token=` on a page
 * load is moved into an HttpOnly, SameSite=Strict cookie and the browser is sent to the same
 * address without it, so the token leaves the address bar at its first use and the page's own
 * requests and its WebSocket carry it without the page knowing it. Spectators may only read.
 */
export function accessMiddleware(
  tokens: AccessTokens,
  loopbackOnly: boolean,
  secure = false,
  throttle: AuthThrottle = new AuthThrottle(),
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const pageLoad = isPageLoad(req);
    const decision = decideAccess(req, tokens, loopbackOnly, throttle, pageLoad);
    if ('status' in decision) {
      if (decision.status === 429) res.set('Retry-After', String(throttle.waitSeconds(clientAddress(req))));
      if (decision.status === 401 && pageLoad)
        return void res
          .status(401)
          .type('html')
          .send(`<!doctype html><title>Vedette</title><p>Vedette: ${decision.error}.</p>`);
      return void res.status(decision.status).json({ error: decision.error });
    }
    (res.locals as { role?: Role }).role = decision.role;
    if (decision.tokenFromQuery !== null) {
      res.cookie(TOKEN_COOKIE, decision.tokenFromQuery, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure,
      });
      const url = new URL(req.originalUrl, 'http://x');
      url.searchParams.delete('token');
      return void res.redirect(303, url.pathname + url.search);
    }
    if (decision.role === 'spectator' && !['GET', 'HEAD', 'OPTIONS'].includes(req.method)) {
      return void res.status(403).json({ error: 'a spectator link is read-only' });
    }
    next();
  };
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
    this.refill();
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }

  /** Whether `cost` could be taken now, without taking it. */
  peek(cost = 1): boolean {
    this.refill();
    return this.tokens >= cost;
  }

  /** Seconds until `cost` can be taken. */
  secondsUntil(cost = 1): number {
    this.refill();
    return Math.max(0, (cost - this.tokens) / this.ratePerSecond);
  }

  /** Whether the bucket has refilled completely (nothing taken lately). */
  full(): boolean {
    this.refill();
    return this.tokens >= this.burst;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
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
