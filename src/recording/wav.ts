// The WAV container of a recording (pure): the 44-byte header of 16-bit mono PCM, and the two
// size fields a file cut by a kill -9 needs patched. The writer patches them every few seconds
// (audio-sink.ts), so the sizes in a cut file lag its data; the sizes below come from the file's
// length instead, which is what the data really is.

export const WAV_HEADER_BYTES = 44;
/** Where the RIFF chunk's size (the file's length less 8) and the data chunk's size sit. */
export const WAV_RIFF_SIZE_AT = 4;
export const WAV_DATA_SIZE_AT = 40;

/**
 * The largest size a 32-bit field holds. A recording never gets there (16 kHz mono is 115 MB an
 * hour), but a size that would overflow says "unknown length, read to the end" this way, as
 * streaming writers do, rather than wrapping round to a short file.
 */
const MAX_SIZE = 0xffffffff;

const BYTES_PER_SAMPLE = 2;

export interface WavSizes {
  /** The RIFF chunk's size field: everything after its first 8 bytes. */
  riffBytes: number;
  /** The data chunk's size field: whole samples only. */
  dataBytes: number;
}

/** The size fields for a file of `fileBytes` bytes: a trailing odd byte (half a sample) is left out. */
export function wavSizes(fileBytes: number): WavSizes {
  const data = Math.max(0, fileBytes - WAV_HEADER_BYTES);
  return sizesForData(data - (data % BYTES_PER_SAMPLE));
}

function sizesForData(dataBytes: number): WavSizes {
  return { riffBytes: Math.min(MAX_SIZE, WAV_HEADER_BYTES - 8 + dataBytes), dataBytes: Math.min(MAX_SIZE, dataBytes) };
}

/** The two fields to write into a file of `fileBytes` bytes: each its offset and its 4 bytes. */
export function wavSizePatches(fileBytes: number): Array<{ offset: number; bytes: Buffer }> {
  const s = wavSizes(fileBytes);
  return [
    { offset: WAV_RIFF_SIZE_AT, bytes: u32(s.riffBytes) },
    { offset: WAV_DATA_SIZE_AT, bytes: u32(s.dataBytes) },
  ];
}

/** The header of 16-bit mono PCM at `sampleRate` with `dataBytes` of samples after it. */
export function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  const s = sizesForData(dataBytes);
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(s.riffBytes, WAV_RIFF_SIZE_AT);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16); // the fmt chunk's size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * BYTES_PER_SAMPLE, 28); // bytes a second
  h.writeUInt16LE(BYTES_PER_SAMPLE, 32); // bytes a frame
  h.writeUInt16LE(8 * BYTES_PER_SAMPLE, 34); // bits a sample
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(s.dataBytes, WAV_DATA_SIZE_AT);
  return h;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n, 0);
  return b;
}
