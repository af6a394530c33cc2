/**
 * The bytes as an ArrayBuffer a worker job can take over (transfer) instead of copying: the view's
 * own buffer when the view is all of it, else a copy (a slice of Node's pooled small buffers, or
 * of a larger one, must not hand over its neighbours).
 */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy.buffer;
}
