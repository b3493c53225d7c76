/**
 * One message of a table's live stream, as the table's own server sent it to its viewers:
 * binary (a JPEG frame) or text (JSON: `hello`, `state`, `error`, and whatever later versions
 * add — threat overlays included). The hub never changes a message; it only reads the `type` of
 * text messages to know which ones belong to a frame (a `state` follows its frame) and which
 * describe the table (`hello`).
 */

export type LiveKind = 'frame' | 'state' | 'hello' | 'other';

export interface LiveMessage {
  readonly kind: LiveKind;
  readonly binary: boolean;
  readonly data: Buffer;
}

export function classify(data: Buffer, binary: boolean): LiveMessage {
  if (binary) return { kind: 'frame', binary, data };
  let kind: LiveKind = 'other';
  // Enough of the text to find "type" without parsing a whole state message twice.
  const head = data.subarray(0, 64).toString('utf8');
  const m = /"type"\s*:\s*"([a-zA-Z]+)"/.exec(head);
  if (m?.[1] === 'state') kind = 'state';
  else if (m?.[1] === 'hello') kind = 'hello';
  else if (!m) {
    try {
      const type = (JSON.parse(data.toString('utf8')) as { type?: unknown }).type;
      kind = type === 'state' ? 'state' : type === 'hello' ? 'hello' : 'other';
    } catch {
      kind = 'other';
    }
  }
  return { kind, binary, data };
}
