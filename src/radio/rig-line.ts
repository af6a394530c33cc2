import type { RigDriver } from './rig.js';
import type { RigLink } from './settings.js';
import { badRequest, type AppError } from '../util/errors.js';

// A rig, opened: its driver ready to take commands, over whatever carries them (a CI-V line on
// USB or the IC-705's Wi-Fi, Yaesu's CAT on a serial device, a rigctld on TCP). RigConnection
// (rig-connection.ts) opens one per radio, watches it go away and reopens it; only opening,
// closing and "it went away" differ between the kinds, and each kind's opener lives beside its driver.

/** A link to a radio, opened: what the operator calls it, and its end. */
export interface OpenLink {
  /** What the operator recognises: the device path, lan://host:port, rigctld://host:port. */
  readonly label: string;
  /** Once, when the line goes away by itself (unplug, radio off, rigctld gone); not after close(). */
  onLost(fn: (why: string) => void): void;
  close(): Promise<void>;
}

/** A rig ready to take commands over its open link. */
export interface RigLine extends OpenLink {
  readonly rig: RigDriver;
}

/** Opens the link a radio's settings name (L: what an open link carries). */
export interface LinkOpener<L extends OpenLink> {
  open(link: RigLink): Promise<L>;
  /** The serial device the link holds (one owner per device), null when none. */
  resource(link: RigLink): string | null;
  /** 400 when the link cannot open anything (no device, no address, no model); `field` prefixes the field named. */
  check(link: RigLink, field?: string): void;
}

export type RigLines = LinkOpener<RigLine>;

/** An open that failed; retry false when no retry helps until the operator changes a setting (a wrong model, a missing program). */
export class RigOpenError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'RigOpenError';
  }
}

/** The 400 of a link with no serial device; field is the prefix of a second radio's fields ("uplink_rig."). */
export const noSerialDevice = (field = ''): AppError =>
  badRequest(`no serial device is set: choose one in the radio settings (${field}serial_device; GET /api/v1/radio/ports lists candidates)`, { field: `${field}serial_device` }, 'no_serial_device');
