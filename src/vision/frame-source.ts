import type { RasterImage } from './image.ts';

/** One camera frame as it enters the pipeline. */
export interface Frame {
  readonly image: RasterImage;
  /** Milliseconds since the epoch when the frame was captured (or rendered). */
  readonly capturedAt: number;
  readonly sequence: number;
  /** The frame as the camera sent it, when it came as JPEG (MJPEG cameras, browsers): re-sent as is. */
  readonly jpeg?: Uint8Array;
}

/** Anything that yields frames: the synthetic table, a webcam, a file. */
export interface FrameSource {
  readonly name: string;
  /**
   * True when frames arrive at the camera's pace whether or not anyone asks (webcams, streams,
   * browsers): `next()` then resolves with the newest frame and older ones are dropped. False (or
   * absent) when a frame is made on request (synthetic table, still images, a file read flat out).
   */
  readonly live?: boolean;
  /**
   * Frames a live source received and replaced by a newer one before anybody asked (never
   * decoded). The live loop asks a source only when it can take a frame, so these are the
   * camera's frames it skipped.
   */
  readonly dropped?: number;
  /**
   * Takes back the pixels of a frame it gave, once nobody uses them any more (the live loop calls
   * it after the pipeline and the overlay JPEG): the source may fill them again.
   */
  recycle?(pixels: Uint8Array): void;
  /**
   * The pipeline expects to be free at `freeAt` (ms since the epoch): a live source may decode
   * its newest picture so as to have it ready then, rather than when `next()` asks.
   */
  prepare?(freeAt: number): void;
  /** Resolves with the next frame; rejects when the source has failed. */
  next(): Promise<Frame>;
  close(): Promise<void>;
}
