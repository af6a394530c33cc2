import { AppError } from './errors.js';

// One owner per serial device. The rig controller (CI-V) and the APRS TNC's PTT may name the
// same port, and opening a tty twice makes both sides read half the bytes. Whoever connects
// first holds it; the other is refused with the holder's name until it lets go.

export class DeviceClaims {
  private owners = new Map<string, string>();

  /** Claims `device` for `owner` (idempotent for the same owner); 409 when another holds it. */
  claim(device: string, owner: string): void {
    if (!device) return;
    const held = this.owners.get(device);
    if (held && held !== owner) {
      throw new AppError(409, 'device_busy', `${device} is held by ${held}; disconnect it there first, or use another port`, { device, held_by: held });
    }
    this.owners.set(device, owner);
  }

  release(owner: string, device?: string): void {
    for (const [d, o] of this.owners) if (o === owner && (device === undefined || d === device)) this.owners.delete(d);
  }

  holder(device: string): string | null {
    return this.owners.get(device) ?? null;
  }
}
