// What IcomLanSession offers its users (lan-hub, wifi-rig, tests), apart from the class itself:
// a module of its own so the session's parts (control, CI-V and audio channels) can name the
// session's state without importing the session.
import type { Clock } from '../../util/clock.js';
import type { Pacer } from './audio-tx.js';
import type { LanTimings } from './timings.js';

export interface LanSessionOptions {
  host: string;
  /** The radio's control port (its "Control port" setting), 50001 by default. */
  controlPort: number;
  username: string;
  password: string;
  /** Protocol timers run on it (default systemClock). */
  clock?: Clock;
  timings?: Partial<LanTimings>;
  /** Shown on the radio as the connected client, default 'satstation' (15 characters at most). */
  clientName?: string;
  /** null/undefined: no audio stream (radio control only). Codec: 16-bit linear PCM mono both ways. */
  audio?: { sampleRate: number } | null;
  /** Real-time pacing of TX audio (tests may inject one). */
  pacer?: Pacer;
}

export type LanOpenResult =
  | { kind: 'open'; radio: { name: string; mac: string; civ_port: number; audio_port: number | null } }
  | { kind: 'unreachable'; message: string }
  | { kind: 'login_rejected'; message: string }
  | { kind: 'busy'; message: string }
  | { kind: 'failed'; message: string };

export type LanSessionState = 'new' | 'connecting' | 'login' | 'streams' | 'open' | 'closing' | 'closed' | 'lost';

export interface LanSessionStats {
  state: string;
  rx_packets: number;
  tx_packets: number;
  retransmits_requested: number;
  retransmits_answered: number;
  duplicates: number;
  last_rx_at: number | null;
  rtt_ms: number | null;
}
