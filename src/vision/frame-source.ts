import type { RasterImage } from './image.ts';

/** One camera frame as it enters the pipeline. */
export interface Frame {
  readonly image: RasterImage;
  /** Milliseconds since the epoch when the frame was captured (or rendered). */
  readonly capturedAt: number;
  readonly sequence: number;
}

/** Anything that yields frames: the synthetic table, a webcam, a file. */
export interface FrameSource {
  readonly name: string;
  /** Resolves with the next frame; rejects when the source has failed. */
  next(): Promise<Frame>;
  close(): Promise<void>;
}
