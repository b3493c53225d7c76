import * as tf from '@tensorflow/tfjs';

/**
 * The one kernel training needs that TensorFlow.js's WebAssembly backend lacks: the gradient of
 * a 2-D convolution with respect to its filter (Conv2DBackpropFilter). Registered for 'wasm' so
 * the forward pass and the input gradient stay in XNNPACK; this part runs as plain loops over
 * the backend's own memory. NHWC, any stride and padding, dilation 1. Checked against the CPU
 * backend in tests/vision/learned-reader.test.ts.
 */

interface WasmBackendMemory {
  typedArrayFromHeap(info: tf.TensorInfo): Float32Array;
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
}

interface FilterGradAttrs {
  strides: number | [number, number];
  pad: 'valid' | 'same' | number;
  dataFormat: 'NHWC' | 'NCHW';
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
  filterShape: [number, number, number, number];
}

let registered = false;

export function registerWasmConvFilterGradient(): void {
  if (registered || tf.getKernel('Conv2DBackpropFilter', 'wasm')) return;
  registered = true;
  tf.registerKernel({
    kernelName: 'Conv2DBackpropFilter',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const memory = backend as unknown as WasmBackendMemory;
      const { x, dy } = inputs as { x: tf.TensorInfo; dy: tf.TensorInfo };
      const a = attrs as unknown as FilterGradAttrs;
      if (a.dataFormat === 'NCHW') throw new Error('Conv2DBackpropFilter on wasm: NCHW is not supported');
      const [fh, fw, cin, cout] = a.filterShape;
      const conv = tf.backend_util.computeConv2DInfo(
        x.shape as [number, number, number, number],
        a.filterShape,
        a.strides,
        1,
        a.pad,
        a.dimRoundingMode,
        false,
        'channelsLast',
      );
      const xs = memory.typedArrayFromHeap(x);
      const ds = memory.typedArrayFromHeap(dy);
      const out = memory.makeOutput([fh, fw, cin, cout], 'float32');
      const o = memory.typedArrayFromHeap(out);
      o.fill(0);
      const [n, h, w] = x.shape as [number, number, number, number];
      const { outHeight, outWidth, strideHeight, strideWidth } = conv;
      const top = conv.padInfo.top;
      const left = conv.padInfo.left;
      const acc = new Float64Array(cout);
      for (let ky = 0; ky < fh; ky++) {
        for (let kx = 0; kx < fw; kx++) {
          for (let ci = 0; ci < cin; ci++) {
            acc.fill(0);
            for (let b = 0; b < n; b++) {
              for (let oy = 0; oy < outHeight; oy++) {
                const iy = oy * strideHeight - top + ky;
                if (iy < 0 || iy >= h) continue;
                for (let ox = 0; ox < outWidth; ox++) {
                  const ix = ox * strideWidth - left + kx;
                  if (ix < 0 || ix >= w) continue;
                  const xv = xs[((b * h + iy) * w + ix) * cin + ci]!;
                  if (xv === 0) continue;
                  const d = ((b * outHeight + oy) * outWidth + ox) * cout;
                  for (let co = 0; co < cout; co++) acc[co]! += xv * ds[d + co]!;
                }
              }
            }
            const base = ((ky * fw + kx) * cin + ci) * cout;
            for (let co = 0; co < cout; co++) o[base + co] = acc[co]!;
          }
        }
      }
      return out;
    },
  });
}
