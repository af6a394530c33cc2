// Icom's network login "passcode": the user name and password travel as a 16-byte field where
// each byte is a table lookup of (character code + position). It is an obfuscation, not a
// cipher: anyone on the Wi-Fi can read the password back. Both wfview (icomudpbase.h) and
// kappanhang (passcode.go) carry the same table; the radio compares the encoded bytes.
//
// Pure: no imports, no allocation beyond the 16-byte result.

/** The substitution for codes 32..126 (printable ASCII); every other index maps to 0. */
const TABLE_HEX =
  '475d4c42662023464e57453d677660416239592d687e7c657d4929727378216e5a5e4a3e712c2a543c3a634f' +
  '437527795b3570486b566f34326c30616d7b2f4b64382b2e50403f55333725772426746a28534d69225c4431' +
  '36583b7a515f52';

const TABLE = (() => {
  const t = new Uint8Array(160); // indices 0..158 are reachable
  for (let i = 0; i < 95; i++) t[32 + i] = parseInt(TABLE_HEX.slice(i * 2, i * 2 + 2), 16);
  return t;
})();

/** Length of the encoded field in the login (0x80) and conninfo (0x90) packets. */
export const PASSCODE_LEN = 16;

/**
 * Encodes s (UTF-8 bytes, the first 16) the way the radio expects: byte i becomes
 * TABLE[b + i], where an index past 126 wraps to 32 + index % 127. Unused bytes stay 0.
 */
export function passcode(s: string, out: Uint8Array = new Uint8Array(PASSCODE_LEN), offset = 0): Uint8Array {
  const bytes = new TextEncoder().encode(s);
  const n = Math.min(bytes.length, PASSCODE_LEN);
  for (let i = 0; i < PASSCODE_LEN; i++) out[offset + i] = 0;
  for (let i = 0; i < n; i++) {
    let p = bytes[i] + i;
    if (p > 126) p = 32 + (p % 127);
    out[offset + i] = TABLE[p];
  }
  return out;
}
