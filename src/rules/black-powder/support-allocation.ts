import { friendsOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { BpContext } from './context.ts';
import { isEngaged, supportVerdict } from './support.ts';

/**
 * Who supports whom across the whole table. Each supporter supports only one unit, and each
 * engaged unit takes at most one supporter per quarter (+1 rear, +1 per flank): the slots
 * (unit, quarter) and the units that could fill them form a bipartite graph, and the allocation
 * is a maximum matching of it (augmenting paths, in table order), so the table's total support
 * is as large as the players could make it. Only firm supports ('yes') are allocated.
 *
 * Returns, per engaged unit id, the supporter's name in each quarter it fills.
 */
export function supportAllocation(ctx: BpContext): Map<string, Record<string, string>> {
  const engaged = ctx.state.units.filter((u) => isEngaged(ctx, u));
  // Candidate slots of every possible supporter, as "unitId|quarter".
  const slotsOf = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const e of engaged)
    for (const f of friendsOf(ctx.state, e)) {
      const v = supportVerdict(ctx, f, e);
      if (v.answer !== 'yes') continue;
      const q = v.facts.quarter as string;
      const list = slotsOf.get(f.id) ?? [];
      list.push(`${e.id}|${q}`);
      slotsOf.set(f.id, list);
      names.set(f.id, f.name);
    }
  const holder = new Map<string, string>(); // slot → supporter id
  const tryAssign = (f: string, seen: Set<string>): boolean => {
    for (const slot of slotsOf.get(f) ?? []) {
      if (seen.has(slot)) continue;
      seen.add(slot);
      const other = holder.get(slot);
      if (other === undefined || tryAssign(other, seen)) {
        holder.set(slot, f);
        return true;
      }
    }
    return false;
  };
  for (const f of slotsOf.keys()) tryAssign(f, new Set());
  const out = new Map<string, Record<string, string>>();
  for (const [slot, f] of holder) {
    const [eId, q] = slot.split('|') as [string, string];
    const by = out.get(eId) ?? {};
    by[q] = names.get(f) ?? f;
    out.set(eId, by);
  }
  return out;
}

/** Total support for an engaged unit (+1 rear, +1 per flank, at most +3), each supporter counted for one unit only. */
export function supportTotal(ctx: BpContext, e: TableUnit): { total: number; by: Record<string, string> } {
  const by = supportAllocation(ctx).get(e.id) ?? {};
  return { total: Math.min(3, Object.keys(by).length), by };
}
