/**
 * The one place OpenCV.js is loaded. Every other module asks for `loadOpenCV()` and gets the
 * initialised WebAssembly module; the first call pays the ~0.1–0.5 s start-up.
 */
import cvModule from '@techstark/opencv-js';

// The package's typings describe the API loosely; we keep our own narrow surface elsewhere.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenCV = any;

let ready: Promise<OpenCV> | undefined;

export function loadOpenCV(): Promise<OpenCV> {
  ready ??= (async () => {
    const mod: OpenCV = cvModule;
    if (mod instanceof Promise) return await mod;
    if (!mod.Mat) {
      await new Promise<void>((resolve) => {
        mod.onRuntimeInitialized = () => resolve();
      });
    }
    // The Emscripten module is a thenable whose then() calls back with the module itself, so
    // resolving a promise with it recurses forever (a busy microtask loop that hangs Node and
    // vitest). Drop then() once the runtime is up; nothing needs it afterwards.
    if (typeof mod.then === 'function') delete mod.then;
    return mod;
  })();
  return ready;
}
