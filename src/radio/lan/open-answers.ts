// What the radio's answers while a session opens mean: who is using it, what to ask for in the
// stream request, and what a refusal says, in words. Pure: packets in, decisions and text out.
import { ERR_REFUSED, SAMPLE_RATE_BITS, formatIp, maskAllows, type LanPacket, type RadioCap } from './packets.js';
import type { LanOpenResult } from './session-types.js';

type Conninfo = Extract<LanPacket, { kind: 'conninfo' }>;
type Status = Extract<LanPacket, { kind: 'status' }>;
type Audio = { sampleRate: number } | null;

/** A duration for messages: "1.5 s". */
export const secs = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** The radio's name: its capabilities', else its conninfo's. */
export const radioNameOf = (caps: RadioCap | null, ci: Conninfo | null): string => caps?.name || ci?.name || 'radio';

/**
 * Null when the radio is free for us, else why not. A radio still busy with a client of our name
 * at our address is us (an earlier session it has not let go of yet): that is not busy.
 */
export function busyMessage(ci: Conninfo | null, radioName: string, us: { clientName: string; localAddress: string }): string | null {
  if (!ci || ci.busy === 0) return null;
  if (ci.computer === us.clientName && formatIp(ci.ip) === us.localAddress) return null;
  const who = ci.computer ? ` by ${ci.computer}${ci.ip ? ` (${formatIp(ci.ip)})` : ''}` : ci.ip ? ` by ${formatIp(ci.ip)}` : ' by another client';
  return ci.busy === 1 ? `${radioName} is in use${who}` : `${radioName} is not available (busy ${ci.busy})`;
}

export interface StreamRates {
  /** We ask for TX audio. */
  txOk: boolean;
  rxSampleRate: number;
  txSampleRate: number;
  /** The radio's capabilities do not list the audio rate we ask for (asked anyway; worth a warning). */
  unlisted: boolean;
}

/** The codecs' sample rates for our stream request. */
export function streamRates(caps: RadioCap | null, audio: Audio): StreamRates {
  // TX only when the radio lists any TX rate (wfview tests "> 1", which would also refuse a radio offering 24 kHz alone).
  const txOk = audio !== null && (caps ? caps.txSampleMask !== 0 : true);
  const unlisted = audio !== null && caps !== null && maskAllows(caps.rxSampleMask, audio.sampleRate) === false;
  // Without audio: RX audio is still asked for (every known client does), at a rate the radio lists, lowest first.
  const idleRate = caps ? (SAMPLE_RATE_BITS.map(([r]) => r).sort((a, b) => a - b).find((r) => maskAllows(caps.rxSampleMask, r)) ?? 8000) : 8000;
  return { txOk, rxSampleRate: audio ? audio.sampleRate : idleRate, txSampleRate: txOk && audio ? audio.sampleRate : 0, unlisted };
}

/** Null when status gave us the streams we asked for, else why open() fails. */
export function statusRefusal(s: Status, radioName: string, audio: Audio): Extract<LanOpenResult, { kind: 'busy' | 'failed' }> | null {
  if (s.error === ERR_REFUSED) {
    const fmt = audio ? `; or it does not take ${audio.sampleRate} Hz audio` : '';
    return { kind: 'busy', message: `${radioName} refused the connection: it is in use by another client, or still holds an earlier session (it lets go within a minute, or restart the radio)${fmt}` };
  }
  if (s.disconnected) return { kind: 'failed', message: `stream request: ${radioName} answered "disconnected"` };
  if (s.error !== 0) return { kind: 'failed', message: `stream request: ${radioName} answered with error 0x${s.error.toString(16)}` };
  if (!s.civPort) return { kind: 'failed', message: `stream request: ${radioName} gave no CI-V port` };
  if (audio && !s.audioPort) return { kind: 'failed', message: `stream request: ${radioName} gave no audio port` };
  return null;
}
