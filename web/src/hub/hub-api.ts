import type { BoardTable } from '../../../src/hub/store/board.ts';

/** The hub's REST answers the pages read (same origin; the token rides in the hub's cookie). */

export type { BoardTable };

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin' });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!res.ok) throw new Error((body as { error?: string } | null)?.error ?? `${url}: HTTP ${res.status}`);
  return body as T;
}

export function board(): Promise<{ at: number; tables: BoardTable[] }> {
  return getJson('/hub/api/board');
}

/** "live", "trouble" (camera retrying or failed), or "offline", with words for people. */
export function tableState(t: BoardTable): { state: 'live' | 'trouble' | 'offline'; text: string } {
  if (!t.live) return { state: 'offline', text: 'offline' };
  if (t.camera && t.camera !== 'live') return { state: 'trouble', text: `camera ${t.camera}` };
  return { state: 'live', text: 'live' };
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<'className' | 'textContent' | 'href' | 'title', string>> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props))
    if (v !== undefined) (e as unknown as Record<string, string>)[k] = v;
  e.append(...children);
  return e;
}

export function clock(t: number): string {
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}
