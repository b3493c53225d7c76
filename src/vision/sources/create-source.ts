import type { CameraProfile } from '../../camera/profile.ts';
import { loadCameraProfile } from '../../camera/profile.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { FrameSource } from '../frame-source.ts';
import { ImageFilesSource } from './image-files.ts';
import { SyntheticSource } from './synthetic-source.ts';

/** Which camera to watch the table with. */
export type SourceSpec =
  | { readonly kind: 'synthetic'; readonly moving: boolean; readonly resolution?: '720p' | '1080p' | '4k' }
  | { readonly kind: 'images'; readonly paths: readonly string[]; readonly cameraPath: string };

export interface LiveSource {
  readonly source: FrameSource;
  readonly camera: CameraProfile;
}

export async function createSource(spec: SourceSpec, scenario: Scenario): Promise<LiveSource> {
  switch (spec.kind) {
    case 'synthetic': {
      const source = await SyntheticSource.create(scenario, {
        moving: spec.moving,
        ...(spec.resolution ? { resolution: spec.resolution } : {}),
      });
      return { source, camera: source.camera };
    }
    case 'images':
      return { source: new ImageFilesSource(spec.paths), camera: loadCameraProfile(spec.cameraPath) };
  }
}
