/**
 * A camera source's failure. `permanent` failures (ffmpeg not installed, a file that does not
 * exist, a video that ended and does not loop) are not retried; any other failure is, with back-off.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export function isPermanent(err: unknown): boolean {
  return err instanceof SourceError && err.permanent;
}
