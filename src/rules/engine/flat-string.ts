/**
 * Strings built by `+` or template literals are kept by V8 as trees of halves (cons strings):
 * a reason like "57.6 in from Unit 0's front edge to …" is a dozen heap objects until something
 * reads it character by character. Verdicts are kept (a table's all-pairs answers are ~10,000
 * of them, each with its checks), and every object a young-generation collection finds alive is
 * copied: flattening a kept string into one sequence (reading a character does that in place,
 * and the collector then drops the emptied tree) leaves one object to copy instead of a dozen.
 * The text is the same.
 */
let sink = 0;

/** `s`, flattened in place (the same string value; anything but a string is passed through). */
export function flatString(s: string): string {
  // Short strings are never trees (V8 makes trees of 13 characters or more).
  if (typeof s === 'string' && s.length > 12) sink = (sink + s.charCodeAt(0)) | 0;
  return s;
}

/** Every string of a list flattened (the same list). */
export function flatStrings(list: readonly string[]): readonly string[] {
  if (Array.isArray(list)) for (let i = 0; i < list.length; i++) flatString(list[i] as string);
  return list;
}
