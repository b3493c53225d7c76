import type {
  ErrorMessage,
  HelloMessage,
  ServerMessage,
  StateMessage,
} from '../../../src/server/protocol.ts';

/**
 * Parses a text message from the server. The server is ours, but a page must not fall over on a
 * message from a newer or older server: anything that is not a recognisable message becomes
 * null and is reported by the caller, and a state message is checked for the fields we draw with.
 */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  switch (value['type']) {
    case 'state':
      return isState(value) ? (value as unknown as StateMessage) : null;
    case 'hello':
      return typeof value['scenario'] === 'string' && typeof value['source'] === 'string'
        ? (value as unknown as HelloMessage)
        : null;
    case 'error':
      return typeof value['message'] === 'string' ? (value as unknown as ErrorMessage) : null;
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isState(value: Record<string, unknown>): boolean {
  const camera = value['camera'];
  const pose = value['pose'];
  return (
    isFiniteNumber(value['frame']) &&
    isRecord(camera) &&
    isFiniteNumber(camera['imageWidth']) &&
    isFiniteNumber(camera['imageHeight']) &&
    Array.isArray(camera['distortion']) &&
    (pose === null ||
      (isRecord(pose) && Array.isArray(pose['rotation']) && Array.isArray(pose['translation']))) &&
    Array.isArray(value['units']) &&
    value['units'].every(
      (u: unknown) =>
        isRecord(u) && typeof u['id'] === 'string' && Array.isArray(u['bases']) && u['bases'].every(isRecord),
    ) &&
    (value['measurement'] === null || value['measurement'] === undefined || isRecord(value['measurement']))
  );
}
