import type { Role } from './security.ts';

/**
 * Who may open a live connection, by role and by address. Players and spectators have separate
 * budgets, so spectators can never fill the places players need; and one address may hold only a
 * few spectator connections, so one machine cannot take every spectator's place either.
 */

export interface ConnectionLimits {
  /** Open connections with the player role. */
  readonly maxPlayers: number;
  /** Open connections with the spectator role. */
  readonly maxSpectators: number;
  /** Spectator connections from one client address. */
  readonly maxSpectatorsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxPlayers: 64,
  maxSpectators: 64,
  maxSpectatorsPerAddress: 8,
};

export interface Refusal {
  /** 503: the role's places are all taken; 429: this address holds its share. */
  readonly status: 429 | 503;
  readonly reason: string;
}

export class ConnectionAdmission {
  private readonly open: Record<Role, number> = { player: 0, spectator: 0 };
  private readonly spectatorsFrom = new Map<string, number>();

  constructor(private readonly limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS) {}

  /** Takes a place for a new connection, or says why not. Call `release` when it closes. */
  admit(role: Role, address: string): Refusal | null {
    if (role === 'player') {
      if (this.open.player >= this.limits.maxPlayers)
        return { status: 503, reason: `all ${this.limits.maxPlayers} player connections are in use` };
      this.open.player++;
      return null;
    }
    if (this.open.spectator >= this.limits.maxSpectators)
      return { status: 503, reason: `all ${this.limits.maxSpectators} spectator places are taken` };
    const fromHere = this.spectatorsFrom.get(address) ?? 0;
    if (fromHere >= this.limits.maxSpectatorsPerAddress)
      return {
        status: 429,
        reason: `${address} already watches through ${fromHere} connections (at most ${this.limits.maxSpectatorsPerAddress})`,
      };
    this.open.spectator++;
    this.spectatorsFrom.set(address, fromHere + 1);
    return null;
  }

  release(role: Role, address: string): void {
    this.open[role] = Math.max(0, this.open[role] - 1);
    if (role !== 'spectator') return;
    const left = (this.spectatorsFrom.get(address) ?? 1) - 1;
    if (left > 0) this.spectatorsFrom.set(address, left);
    else this.spectatorsFrom.delete(address);
  }

  count(role: Role): number {
    return this.open[role];
  }
}
