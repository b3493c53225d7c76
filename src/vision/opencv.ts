/**
 * The one place OpenCV.js is loaded. Every other module asks for `loadOpenCV()` and gets the
 * initialised WebAssembly module; the first call pays the ~0.1–0.5 s start-up.
 */

// The package's typings describe the API loosely; we keep our own narrow surface elsewhere.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenCV = any;

let ready: Promise<OpenCV> | undefined;

/**
 * The Emscripten module is a thenable whose then() calls back with the module itself, so anything
 * that awaits it, or a namespace object that copies its properties, recurses forever: a busy
 * microtask loop that hangs Node. vitest's module runner wraps CommonJS packages in exactly such a
 * namespace and awaits it on `import`, so under Node the package is loaded with a plain require().
 */
async function importOpenCV(): Promise<{ mod: OpenCV }> {
  // Boxed: returning the thenable itself from an async function would start the recursion.
  if (typeof process !== 'undefined' && typeof process.versions?.node === 'string') {
    const { createRequire } = await import('node:module');
    return { mod: createRequire(import.meta.url)('@techstark/opencv-js') };
  }
  const ns: OpenCV = await import('@techstark/opencv-js');
  return { mod: ns.default ?? ns };
}

export function loadOpenCV(): Promise<OpenCV> {
  ready ??= (async () => {
    const { mod } = await importOpenCV();
    if (!mod.Mat) {
      await new Promise<void>((resolve) => {
        mod.onRuntimeInitialized = () => resolve();
      });
    }
    // Drop then() once the runtime is up (see above); nothing needs it afterwards.
    if (typeof mod.then === 'function') delete mod.then;
    return mod;
  })();
  return ready;
}
