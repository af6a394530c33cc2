// A byte stream to an outside thing, whatever carries it: a serial device (serial-driver.ts) and
// a TCP connection (tcp-driver.ts) are both one, so a request/reply layer written against it
// (the rotator's exchange) serves a controller on a cable and Hamlib's rotctld on the network.

export interface ByteConnection {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Bytes as they arrive (any split). */
  onData(fn: (chunk: Uint8Array) => void): void;
  /** Once, when the connection closes: err set when it went away by itself (unplugged, peer gone), null on our close(). */
  onClose(fn: (err: Error | null) => void): void;
}
