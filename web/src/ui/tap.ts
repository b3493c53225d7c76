/** A pointer that moves further than this between down and up is a drag, not a tap (CSS px). */
export const TAP_SLOP_CSS = 12;

/**
 * Calls `onTap` for a primary-button tap or click on `el`: pointer down and up with the same
 * pointer, close together. A drag (a finger panning the page) is not a tap.
 */
export function onTap(el: HTMLElement, onTap: (e: PointerEvent) => void): void {
  let down: { id: number; x: number; y: number } | null = null;
  el.addEventListener('pointerdown', (e) => {
    if (!e.isPrimary || e.button > 0) return;
    down = { id: e.pointerId, x: e.clientX, y: e.clientY };
  });
  el.addEventListener('pointerup', (e) => {
    const start = down;
    down = null;
    if (
      !start ||
      start.id !== e.pointerId ||
      Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_SLOP_CSS
    )
      return;
    onTap(e);
  });
  el.addEventListener('pointercancel', () => (down = null));
}
