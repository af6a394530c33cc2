// What the Hamlib servers drive, as the station offers it: the rig and the rotator under a
// network client's external control, and the station's transmit rules. The radio area and the
// rotator area implement these (the composition root hands them over), so hamlib/ imports
// neither's code (only the radio's list of modes, through radio-api.ts) and stays the thin
// network front it is. Failures are thrown as the station's own errors (AppError: status, code,
// message); station-errors.ts turns them into Hamlib's RPRT codes.

export type RigVfo = 'A' | 'B';

/** The rig's two VFOs as a readback at most one poll interval old. Modes in the station's spelling ('USB-D'). */
export interface RigReading {
  a_hz: number | null;
  b_hz: number | null;
  a_mode: string | null;
  b_mode: string | null;
  split: boolean | null;
}

/** The rig under external control: the radio area, as a Hamlib client may drive it. `client` names the connection ("rigctld 127.0.0.1:50122"). */
export interface ExternalRig {
  /** The configured model ('rigA' an IC-705, 'rigB' an IC-9700): what \dump_state describes. */
  rigModel(): 'rigA' | 'rigB';
  externalRead(): Promise<RigReading>;
  externalSetFrequency(vfo: RigVfo, hz: number, client: string): Promise<void>;
  externalSetMode(vfo: RigVfo, mode: string, client: string): Promise<void>;
  externalSetSplit(on: boolean, client: string): Promise<void>;
  externalSetPtt(on: boolean, client: string): Promise<void>;
  externalReadPtt(): Promise<boolean>;
  /** The client disconnected: the rig is no longer held by it. */
  externalRelease(client: string): void;
}

export interface RotPosition {
  az_deg: number;
  el_deg: number;
}

/** The rotator under external control: the rotator area, as a Hamlib client may drive it (controller coordinates, limits applied by the rotator). */
export interface ExternalRotator {
  /** How far it travels, as controller coordinates ("min_az" may be negative with a south stop). */
  travelLimits(): { min_az_deg: number; max_az_deg: number; min_el_deg: number; max_el_deg: number };
  /** The last read-back position; throws when the rotator is not connected or never answered. */
  position(): RotPosition;
  goto(az_deg: number, el_deg: number): Promise<void>;
  halt(): Promise<void>;
  park(): Promise<void>;
}

/** The station's transmit rules for a network PTT: null when it may key, else why not. */
export type PttBlock = () => string | null;
