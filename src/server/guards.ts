import type { IncomingMessage } from 'node:http';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { isStateChanging, newLaunchSecret, sameOriginGuard, upgradeOriginProblem } from './csrf.ts';
import { securityHeaders } from './headers.ts';
import {
  accessMiddleware,
  AuthThrottle,
  decideAccess,
  isLoopback,
  rateLimit,
  weakTokenProblem,
  type AccessTokens,
  type Role,
} from './security.ts';

/**
 * Every rule about who may reach a Vedette server, in one policy object and two entry points —
 * `httpGuards` for express and `guardUpgrade` for WebSocket upgrades — so that the live server,
 * the replay server and the hub enforce exactly the same rules (docs/security.md).
 */

export interface AccessPolicy {
  readonly tokens: AccessTokens;
  /** Listening on loopback only: the Host must name this machine (no DNS rebinding). */
  readonly loopbackOnly: boolean;
  /** HTTPS: origins are https:// and cookies Secure. */
  readonly secure: boolean;
  /** This launch's secret: Vedette's own pages carry it (csrf.ts). */
  readonly launchSecret: string;
  /** Wrong tokens per address, counted before any token is compared. */
  readonly throttle: AuthThrottle;
  /** Requests that change something, per second per address (burst 3×). */
  readonly writesPerSecond: number;
}

export class AccessPolicyError extends Error {
  override name = 'AccessPolicyError';
}

/**
 * The policy for a server listening on `host`. Refuses (AccessPolicyError, with what to do) a
 * non-loopback address without a player token, a spectator token without a player token, and
 * any token under 128 bits.
 */
export function accessPolicy(options: {
  readonly host: string;
  readonly tokens?: Partial<AccessTokens>;
  readonly secure: boolean;
  readonly writesPerSecond: number;
}): AccessPolicy {
  const loopbackOnly = isLoopback(options.host);
  const tokens: AccessTokens = {
    player: options.tokens?.player ?? null,
    spectator: options.tokens?.spectator ?? null,
  };
  if (!loopbackOnly && tokens.player === null)
    throw new AccessPolicyError(
      `listening on ${options.host} lets other machines in: an access token is required (vedette serve --lan makes one)`,
    );
  if (tokens.player === null && tokens.spectator !== null)
    throw new AccessPolicyError('a spectator link needs a player token too');
  const weak =
    (tokens.player !== null ? weakTokenProblem(tokens.player, '--token') : null) ??
    (tokens.spectator !== null ? weakTokenProblem(tokens.spectator, '--spectator-token') : null);
  if (weak) throw new AccessPolicyError(weak);
  if (tokens.spectator !== null && tokens.spectator === tokens.player)
    throw new AccessPolicyError('--spectator-token must differ from --token');
  return {
    tokens,
    loopbackOnly,
    secure: options.secure,
    launchSecret: newLaunchSecret(),
    throttle: new AuthThrottle(),
    writesPerSecond: options.writesPerSecond,
  };
}

/**
 * Express middleware, in order: security headers; host, throttle, token and role; same-origin
 * proof for anything that changes state; the per-address write rate. Mount before any body parser.
 */
export function httpGuards(policy: AccessPolicy): Router {
  const router = Router();
  router.use(securityHeaders());
  router.use(accessMiddleware(policy.tokens, policy.loopbackOnly, policy.secure, policy.throttle));
  router.use(sameOriginGuard({ secret: policy.launchSecret, secure: policy.secure }));
  const writeLimit = rateLimit(policy.writesPerSecond, policy.writesPerSecond * 3);
  router.use((req: Request, res: Response, next: NextFunction) =>
    isStateChanging(req.method) ? writeLimit(req, res, next) : next(),
  );
  return router;
}

/** A WebSocket upgrade: the role it gets, or the HTTP status and reason to refuse it with. */
export function guardUpgrade(
  policy: AccessPolicy,
  req: IncomingMessage,
): { readonly role: Role } | { readonly status: 401 | 403 | 429; readonly reason: string } {
  const foreign = upgradeOriginProblem(req, policy.secure);
  if (foreign !== null) return { status: 403, reason: `refused: ${foreign} may not open the live socket` };
  const decision = decideAccess(req, policy.tokens, policy.loopbackOnly, policy.throttle, false);
  if ('status' in decision) return { status: decision.status, reason: decision.error };
  return { role: decision.role };
}
