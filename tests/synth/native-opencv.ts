import { createRequire } from 'node:module';

/**
 * OpenCV.js loaded with Node's own require, initialised, and with its self-resolving then()
 * removed. Under vitest, importing '@techstark/opencv-js' the normal way never settles (the
 * module runner awaits the Emscripten thenable), so these tests mock the package with this.
 */
export async function nativeOpenCvModule(): Promise<Record<string, unknown>> {
  const mod = createRequire(import.meta.url)('@techstark/opencv-js') as Record<string, unknown>;
  if (!mod.Mat) await new Promise<void>((resolve) => (mod.onRuntimeInitialized = () => resolve()));
  delete mod.then;
  return mod;
}
