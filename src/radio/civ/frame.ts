// One CI-V frame on the wire: FE FE <to> <from> <cmd> [sub-command and data...] FD.
// The rig answers a set with FB (OK) or FA (NG) and no data; FC is what a transceiver puts on
// the bus when it detects a collision. Replies go to the sender's address; transceive
// broadcasts (knob turned on the radio) go to 00.

export const CIV = { PREAMBLE: 0xfe, EOM: 0xfd, OK: 0xfb, NG: 0xfa, JAM: 0xfc, CONTROLLER: 0xe0, BROADCAST: 0x00 } as const;

/** Icom factory CI-V addresses of the radios we drive. */
export const RIG_ADDR = { IC705: 0xa4, IC9700: 0xa2 } as const;

export interface CivFrame {
  to: number;
  from: number;
  cmd: number;
  /** The bytes after cmd and before FD: sub-command(s) first, then data. */
  data: Uint8Array;
}

const EMPTY = new Uint8Array(0);

// FE, FD and FC would restart, end or jam the frame on the receiving side; anything past a
// byte is a bug. (Icom data never contains them: BCD digits, small codes, ASCII text; FF does
// occur, as "no data" in a reply.)
function checkByte(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xff || v === CIV.JAM || v === CIV.EOM || v === CIV.PREAMBLE) {
    throw new RangeError(`CI-V frame: ${what} ${v} is not a byte that may appear inside a frame`);
  }
}

/** Bytes a frame with n data bytes occupies: FE FE to from cmd data FD. */
export const frameLength = (dataLen: number): number => dataLen + 6;

/**
 * Writes one frame into out at offset without allocating; returns the offset just past FD.
 * Throws RangeError when out has no room or a byte would break the framing.
 */
export function writeFrame(out: Uint8Array, offset: number, to: number, from: number, cmd: number, data: ArrayLike<number>, dataLen: number = data.length): number {
  if (!Number.isInteger(dataLen) || dataLen < 0 || dataLen > data.length) throw new RangeError(`CI-V frame: dataLen ${dataLen} outside 0..${data.length}`);
  const end = offset + frameLength(dataLen);
  if (!Number.isInteger(offset) || offset < 0 || end > out.length) throw new RangeError(`CI-V frame: ${frameLength(dataLen)} bytes at ${offset} do not fit in ${out.length}`);
  checkByte(to, 'to address');
  checkByte(from, 'from address');
  checkByte(cmd, 'command');
  out[offset] = CIV.PREAMBLE;
  out[offset + 1] = CIV.PREAMBLE;
  out[offset + 2] = to;
  out[offset + 3] = from;
  out[offset + 4] = cmd;
  let p = offset + 5;
  for (let i = 0; i < dataLen; i++) {
    const b = data[i];
    checkByte(b, `data[${i}]`);
    out[p++] = b;
  }
  out[p++] = CIV.EOM;
  return p;
}

/** A new buffer holding exactly one frame. */
export function encodeFrame(to: number, from: number, cmd: number, data: ArrayLike<number> = EMPTY): Uint8Array {
  const out = new Uint8Array(frameLength(data.length));
  writeFrame(out, 0, to, from, cmd, data);
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));

/** "FE FE A4 E0 25 00 00 00 80 45 01 FD" for debug logs; raw bytes are printed as they are. */
export function formatFrame(f: CivFrame | Uint8Array): string {
  const parts: string[] = [];
  if (f instanceof Uint8Array) {
    for (const b of f) parts.push(HEX[b]);
    return parts.join(' ');
  }
  parts.push('FE', 'FE', HEX[f.to & 0xff], HEX[f.from & 0xff], HEX[f.cmd & 0xff]);
  for (const b of f.data) parts.push(HEX[b]);
  parts.push('FD');
  return parts.join(' ');
}
