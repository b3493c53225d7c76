import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { tableForToken, tokenHash } from '../store/tables.ts';
import { sameSecret, tokenOf } from '../../server/security.ts';
import type { HubSecurity } from './security.ts';

/**
 * Who is asking the hub. Three roles:
 *
 * - **organiser** (the `--organiser-token`): everything, including adding tables and their tokens;
 * - **table** (that table's own token): publishes its live picture and replicates its own battles
 *   (the table comes from the token, never from the request), and reads like a spectator;
 * - **spectator** (the `--spectator-token`, or anyone when the hub is `--public`): reads only.
 *
 * A token comes as `Authorization: Bearer`, `X-Vedette-Token`, `?token=` (then moved into an
 * HttpOnly SameSite=Strict cookie and dropped from the address) or that cookie. Wrong tokens are
 * counted per address and an address that keeps guessing is answered 429 before any check.
 */

export type HubRole = 'organiser' | 'table' | 'spectator';

export interface Caller {
  readonly role: HubRole;
  /** The table a table token belongs to. */
  readonly table: string | null;
}

export interface HubTokens {
  readonly organiser: string;
  /** Null: no spectator token; then spectators get in only when `public`. */
  readonly spectator: string | null;
  /** Anyone may watch (read) without a token. */
  readonly public: boolean;
}

export const HUB_COOKIE = 'vedette_hub';

/** The token a request carries, as the table server reads it, with the hub's own cookie. */
export function hubTokenOf(req: IncomingMessage): { token: string | undefined; fromQuery: boolean } {
  return tokenOf(req, HUB_COOKIE);
}

export type AccessAnswer = Caller | { readonly refuse: 401 | 403 | 429; readonly why: string };

/** Resolves callers, caching table tokens for a short while (a renewed token stops working within `cacheMs`). */
export class HubAccess {
  private readonly cache = new Map<string, { table: string | null; until: number }>();

  constructor(
    private readonly pool: pg.Pool,
    readonly tokens: HubTokens,
    readonly security: HubSecurity,
    private readonly cacheMs = 10_000,
  ) {}

  forget(): void {
    this.cache.clear();
  }

  private async tableOf(token: string): Promise<string | null> {
    const key = tokenHash(token).toString('base64');
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.table;
    const table = await tableForToken(this.pool, token);
    if (this.cache.size > 10_000) this.cache.clear();
    // Wrong tokens are not cached: each one costs the guesser a throttle token instead.
    if (table) this.cache.set(key, { table, until: Date.now() + this.cacheMs });
    return table;
  }

  async resolve(req: IncomingMessage): Promise<AccessAnswer> {
    if (!this.security.hostAllowed(req)) return { refuse: 403, why: 'unknown host' };
    const address = req.socket.remoteAddress ?? '?';
    const { token } = hubTokenOf(req);
    if (token === undefined || token === '') {
      if (this.tokens.public) return { role: 'spectator', table: null };
      return { refuse: 401, why: 'a token is needed: open the link the organiser gave you' };
    }
    if (this.security.guesses.blocked(address))
      return { refuse: 429, why: 'too many wrong tokens from this address: wait a minute' };
    if (token.length <= 200) {
      if (sameSecret(token, this.tokens.organiser)) return { role: 'organiser', table: null };
      if (this.tokens.spectator !== null && sameSecret(token, this.tokens.spectator))
        return { role: 'spectator', table: null };
      const table = await this.tableOf(token);
      if (table) return { role: 'table', table };
    }
    this.security.guesses.failed(address);
    return { refuse: 401, why: 'this token is not valid here' };
  }

  /** Express middleware: sets `res.locals.caller`, or answers 401/403/429; refuses foreign origins on writes. */
  middleware(secure: boolean) {
    return (req: Request, res: Response, next: NextFunction): void => {
      const write = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
      if (write && !this.security.originAllowed(req))
        return void res.status(403).json({ error: 'this request comes from another web site' });
      this.resolve(req).then(
        (answer) => {
          if ('refuse' in answer) {
            if (
              req.method === 'GET' &&
              !req.path.includes('/api/') &&
              req.accepts(['json', 'html']) === 'html'
            )
              return void res
                .status(answer.refuse)
                .type('html')
                .send(`<!doctype html><title>Vedette hub</title><p>Vedette hub: ${answer.why}.</p>`);
            return void res.status(answer.refuse).json({ error: answer.why });
          }
          (res.locals as { caller?: Caller }).caller = answer;
          const { token, fromQuery } = hubTokenOf(req);
          if (fromQuery && token) {
            res.cookie(HUB_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', secure });
            if (req.method === 'GET' && req.accepts('html')) {
              const url = new URL(req.originalUrl, 'http://x');
              url.searchParams.delete('token');
              return void res.redirect(303, url.pathname + url.search);
            }
          }
          if (write && answer.role === 'spectator')
            return void res.status(403).json({ error: 'a spectator may only watch' });
          next();
        },
        (err: unknown) => next(err),
      );
    };
  }
}

export function callerOf(res: Response): Caller {
  const c = (res.locals as { caller?: Caller }).caller;
  if (!c) throw new Error('no caller: HubAccess.middleware must run first');
  return c;
}

/** Express guard: only these roles. */
export function only(...roles: HubRole[]) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const c = callerOf(res);
    if (!roles.includes(c.role))
      return void res.status(403).json({ error: `only ${roles.join(' or ')} may do this` });
    next();
  };
}
