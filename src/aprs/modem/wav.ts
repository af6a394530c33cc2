// A canonical RIFF/WAVE file: 44-byte header, PCM (format 1), 16-bit signed little-endian, mono.
// Pure: answers the bytes; the caller writes them.

export const WAV_HEADER_BYTES = 44;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function wavBytes(samples: Int16Array, sampleRate: number): Uint8Array {
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 0xffffffff / 2) throw new RangeError(`WAV sample rate must be a positive integer, got ${sampleRate}`);
  const dataBytes = samples.length * 2;
  if (WAV_HEADER_BYTES - 8 + dataBytes > 0xffffffff) throw new RangeError(`WAV data of ${dataBytes} bytes exceeds the RIFF 4 GiB limit`);
  const out = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, WAV_HEADER_BYTES - 8 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // channels
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  if (LITTLE_ENDIAN_HOST) out.set(new Uint8Array(samples.buffer, samples.byteOffset, dataBytes), WAV_HEADER_BYTES);
  else for (let i = 0; i < samples.length; i++) v.setInt16(WAV_HEADER_BYTES + i * 2, samples[i], true);
  return out;
}
