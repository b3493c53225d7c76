import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/**
 * The hub's security rules, behind one small interface: security headers, the Host check
 * (DNS rebinding) and the Origin check (other web sites), and the throttle on failed token
 * guesses. They are the table server's rules (docs/security.md); this file holds the hub's own
 * copy so the hub does not reach into src/server, and `HubSecurity` is the seam where the shared
 * helpers of the table server can be swapped in.
 */

export interface GuessThrottle {
  /** Whether this address has guessed wrong too often lately (answer 429 without checking). */
  blocked(address: string): boolean;
  /** A wrong token from this address. */
  failed(address: string): void;
}

export interface HubSecurity {
  /** Express middleware setting the security headers on every answer. */
  headers(req: Request, res: Response, next: NextFunction): void;
  /** The Host header names this server (always true unless it listens on loopback only). */
  hostAllowed(req: IncomingMessage): boolean;
  /** A browser's Origin, when it sends one, is this server's own. */
  originAllowed(req: IncomingMessage): boolean;
  readonly guesses: GuessThrottle;
}

export interface GuessLimits {
  /** Wrong tokens allowed per address in a burst, then one more every `refillMs`. */
  readonly burst: number;
  readonly refillMs: number;
}

export const DEFAULT_GUESS_LIMITS: GuessLimits = { burst: 10, refillMs: 6000 };

/** Failed attempts per client address: a token bucket of `burst`, refilled one per `refillMs`. */
export class AddressGuessThrottle implements GuessThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limits: GuessLimits = DEFAULT_GUESS_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  private bucket(address: string): { tokens: number; at: number } {
    const t = this.now();
    let b = this.buckets.get(address);
    if (!b) {
      if (this.buckets.size > 50_000) this.buckets.clear();
      b = { tokens: this.limits.burst, at: t };
      this.buckets.set(address, b);
    }
    b.tokens = Math.min(this.limits.burst, b.tokens + (t - b.at) / this.limits.refillMs);
    b.at = t;
    return b;
  }

  blocked(address: string): boolean {
    return this.bucket(address).tokens < 1;
  }

  failed(address: string): void {
    const b = this.bucket(address);
    b.tokens = Math.max(0, b.tokens - 1);
  }
}

const CSP = [
  "default-src 'self'",
  "img-src 'self' blob: data:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

function loopbackName(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** The hub's own implementation of its security rules. */
export function localHubSecurity(options: { loopbackOnly: boolean; guesses?: GuessLimits }): HubSecurity {
  const guesses = new AddressGuessThrottle(options.guesses);
  return {
    headers(_req, res, next) {
      res.set({
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        'Cross-Origin-Opener-Policy': 'same-origin',
      });
      next();
    },
    hostAllowed: (req) => !options.loopbackOnly || loopbackName(req.headers.host),
    originAllowed(req) {
      const origin = req.headers.origin;
      if (origin === undefined) return true;
      try {
        return new URL(origin).host === req.headers.host;
      } catch {
        return false;
      }
    },
    guesses,
  };
}
