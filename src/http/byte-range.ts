// The `Range` request header for one resource (RFC 9110 §14.1.2), pure. One range is honoured
// (`bytes=a-b`, `bytes=a-`, `bytes=-n`); several ranges, another unit or a malformed header are
// ignored, which the RFC allows: the whole file goes with a 200. A range that starts past the
// end is unsatisfiable (416, `Content-Range: bytes */size`).

export type ByteRange = { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: ByteRange = { kind: 'whole' };

export function parseByteRange(header: string, size: number): ByteRange {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return WHOLE;
  if (m[1] === '') {
    // The last n bytes.
    const n = Number(m[2]);
    if (n === 0) return { kind: 'unsatisfiable' };
    return size === 0 ? { kind: 'unsatisfiable' } : { kind: 'range', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return WHOLE; // invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
