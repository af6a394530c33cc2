// Every timing and size of the Icom network protocol in one place. The periods are the ones the
// radio and wfview use (include/packettypes.h): pings every 500 ms, idle packets every 100 ms
// when nothing else was sent, a retransmit pass every 100 ms, the login token renewed every
// minute. The rest are our own bounds, chosen so a lost radio is noticed in seconds and no
// stage can hang.

export interface LanTimings {
  /** Our ping on every stream (PING_PERIOD). The radio pings us every 100 ms and we answer each. */
  ping_ms: number;
  /** A tracked idle packet when nothing else was sent this long (IDLE_PERIOD): control and CI-V streams. */
  idle_ms: number;
  /** How often gaps we saw are asked for again, and how often answers are checked (RETRANSMIT_PERIOD). */
  retransmit_ms: number;
  /** "Are you there" (and "are you ready") repeated until the radio answers (AREYOUTHERE_PERIOD). */
  are_you_there_ms: number;
  /** Token renewal on the control stream (TOKEN_RENEWAL). */
  token_renew_ms: number;
  /** No answer to a renewal this long: logged (the retransmit machinery keeps trying). */
  token_ack_ms: number;
  /** Nothing at all from one of the radio's streams for this long: the session is lost. */
  stale_ms: number;
  /** Control stream: no "I am here" within this long means the host is unreachable. */
  connect_ms: number;
  /** From "I am ready" to the login answer, the radio list and the stream ports (status). */
  login_ms: number;
  /** Capabilities arrived but no conninfo: request the stream after this long anyway. */
  conninfo_wait_ms: number;
  /** CI-V and audio sockets: handshake ("I am ready") within this long. */
  stream_ms: number;
  /** CI-V "open" repeated this often until the first CI-V data arrives (wfview resends every 100 ms). */
  civ_open_retry_ms: number;
  /** How many CI-V opens at most (then the radio's retransmit requests are relied on). */
  civ_open_attempts: number;
  /** close(): wait this long for the token-removal answer before the disconnects. */
  close_ack_ms: number;
  /** Received packets after a gap are held this long for the missing one, then released in order. */
  reorder_hold_ms: number;
  /** TX audio: packet length in ms (AUDIO_PERIOD). */
  audio_packet_ms: number;
  /** TX audio: how far ahead of real time packets are sent, so event-loop stalls do not underrun the radio. */
  audio_lead_ms: number;
  /** TX audio the radio buffers before playing (the stream request's txBufferMs; wfview's default). */
  tx_buffer_ms: number;
  /** PTT is held this long past the buffer's play-out: the network's delay, so the last flag goes out whole. */
  tx_tail_ms: number;
}

export const LAN_TIMINGS: LanTimings = Object.freeze({
  ping_ms: 500,
  idle_ms: 100,
  retransmit_ms: 100,
  are_you_there_ms: 500,
  token_renew_ms: 60_000,
  token_ack_ms: 3_000,
  stale_ms: 5_000,
  connect_ms: 3_000,
  login_ms: 5_000,
  conninfo_wait_ms: 1_000,
  stream_ms: 3_000,
  civ_open_retry_ms: 100,
  civ_open_attempts: 10,
  close_ack_ms: 500,
  reorder_hold_ms: 300,
  audio_packet_ms: 20,
  audio_lead_ms: 60,
  tx_buffer_ms: 150,
  tx_tail_ms: 50,
});

/** Sizes: every buffer is bounded. */
export const LAN_LIMITS = Object.freeze({
  /** Sent packets kept per stream to answer retransmit requests (a power of two). */
  tx_history: 256,
  /** Received sequence numbers remembered per stream for duplicate detection (a power of two). */
  rx_window: 256,
  /** Gaps tracked at once; more means a broken link: forget them all and resynchronise (MAX_MISSING). */
  max_missing: 50,
  /** Times one missing packet is asked for before it is given up (wfview asks 4 times). */
  retransmit_attempts: 4,
  /** Packets held out of order at most. */
  reorder_max: 64,
  /** Seq numbers one retransmit request may make us resend. */
  retransmit_burst: 64,
  /** Largest payload in one CI-V or audio packet (wfview splits audio at 1364 bytes). */
  max_payload: 1364,
  /** Datagrams larger than this are not ours. */
  max_datagram: 2048,
});

export function resolveTimings(over?: Partial<LanTimings>): LanTimings {
  const t = { ...LAN_TIMINGS };
  if (over) for (const k of Object.keys(over) as Array<keyof LanTimings>) {
    const v = over[k];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) t[k] = v;
  }
  return t;
}
