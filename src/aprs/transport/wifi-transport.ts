import type { AprsSettings } from '../settings.js';
import { TransportStartError, type AprsTransport, type TransportStatus } from './transport.js';
import { DirewolfTransport, type TransportOptions } from './make-transport.js';
import { AfskModulator } from '../modem/afsk.js';
import { LAN_AUDIO_RATE_HZ, RECONNECT, endpointKey, openWifiRig, type LanLeaser, type RigPair, type RigSnapshot, type WifiRig } from '../../radio/radio-api.js';
import { Reconnect } from '../../util/reconnect.js';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';
import { monotonicMs } from '../../util/monotonic.js';

// APRS through the IC-705's Wi-Fi (LAN) session, no sound card and no TNC in the transmit path.
// Receive: the rig's audio stream feeds a decode-only Dire Wolf on standard input, whose frames
// come back over KISS as on USB. Transmit: our own HDLC + Bell 202 modem, PTT over CI-V on the
// same session, audio paced in real time, PTT off in every outcome. The rig's state is
// snapshotted before setup and put back on disconnect and on a failed setup.

const log = logger('aprs:wifi');

const OWNER = 'the APRS station (Wi-Fi)';
/** Frames waiting to go out; more are refused (a stuck transmitter must not queue a backlog). */
const TX_QUEUE_MAX = 8;
/** Receive audio counts as flowing while the last packet is this recent. */
const RX_ACTIVE_MS = 2000;
/** Mode for packet over the LAN: the data mode takes its modulation from the WLAN audio. */
export const LAN_PACKET_MODE = 'FM-D';

export interface WifiTransportOptions extends TransportOptions {
  lan: LanLeaser;
  /** Where setup tunes VFO A (the target's frequency); null leaves the frequency alone. */
  tuneHz: () => number | null;
}

type State = 'stopped' | 'connecting' | 'idle' | 'transmitting' | 'reconnecting';

export class WifiTransport implements AprsTransport {
  readonly kind = 'wifi' as const;
  readonly endpoint: string;
  private readonly rx: DirewolfTransport;
  private readonly modem: AfskModulator;
  private rig: WifiRig | null = null;
  private snapshot: RigSnapshot | null = null;
  private queue: Uint8Array[] = [];
  private pumping = false;
  private keyed = false;
  private want = false;
  private state: State = 'stopped';
  private lastError: string | null = null;
  private lastRxAudioAt = -Infinity;
  private readonly retry: Reconnect;

  constructor(
    private readonly s: AprsSettings,
    private readonly o: WifiTransportOptions,
  ) {
    this.retry = new Reconnect(o.clock, RECONNECT);
    this.endpoint = endpointKey({ host: s.wifi_host, port: s.wifi_control_port });
    this.rx = new DirewolfTransport(s, { kind: 'none' }, o, LAN_AUDIO_RATE_HZ);
    this.modem = new AfskModulator({ sampleRate: LAN_AUDIO_RATE_HZ, txDelayMs: s.afsk_txdelay_ms, tailMs: s.afsk_tail_ms });
  }

  async start(): Promise<void> {
    this.want = true;
    this.state = 'connecting';
    try {
      await this.openSession();
      await this.rx.start().catch((err) => {
        const msg = `the decode-only Dire Wolf did not start: ${errorMessage(err)}`;
        throw err instanceof TransportStartError ? new TransportStartError(msg, err.code, err.details) : new Error(msg);
      });
    } catch (err) {
      this.want = false;
      await this.teardown();
      this.lastError = errorMessage(err);
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.want = false;
    this.retry.cancel();
    this.queue = [];
    this.rig?.audioTx.abort();
    await this.unkey();
    await this.rx.stop().catch(() => {});
    await this.teardown();
  }

  /** Emergency stop: audio stops now, PTT off goes ahead of every queued CI-V command. */
  kill(): void {
    this.want = false;
    this.retry.cancel();
    this.queue = [];
    this.rig?.audioTx.abort();
    void this.unkey().finally(() => this.teardown());
    this.rx.kill();
  }

  send(ax25: Uint8Array): boolean {
    if (!this.rig || this.queue.length >= TX_QUEUE_MAX) return false;
    this.queue.push(ax25.slice());
    void this.pump();
    return true;
  }

  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.rx.onFrame(fn);
  }

  /** Satellite retune when the radio controller is not connected: the transport's own rig writes the pair. */
  async tune(p: RigPair): Promise<void> {
    if (!this.rig) throw new Error('the LAN session is not up');
    await this.rig.writePair(p);
  }

  status(): TransportStatus {
    const r = this.rx.status();
    const up = this.rig !== null;
    return {
      sidecar_running: r.sidecar_running,
      kiss_connected: up && r.kiss_connected,
      modem_state: `${this.state}: Bell 202 AFSK 1200 (satstation modem, TX) + Dire Wolf decode-only (RX) on ${LAN_AUDIO_RATE_HZ / 1000} kHz LAN audio`,
      control_endpoint: this.endpoint,
      sidecar_command: r.sidecar_command,
      output_tail: r.output_tail,
      sidecar: r.sidecar,
      last_error: this.lastError ?? r.last_error,
      ptt_unavailable: false,
      audio_rx_active: up && monotonicMs() - this.lastRxAudioAt < RX_ACTIVE_MS,
      audio_tx_active: this.rig?.audioTx.active ?? false,
      owned_resource: up ? `${this.endpoint} (${this.rig!.radioName} LAN session: CI-V PTT, audio)` : null,
    };
  }

  // --- the session --------------------------------------------------------------------------

  private async openSession(): Promise<void> {
    const rig = await openWifiRig(this.o.lan, OWNER, this.s);
    try {
      // A session that dropped mid-transmit may have left the radio keyed: unkey before anything.
      await rig.ptt(false);
      // The first snapshot is the operator's state; a reconnect keeps it and sets up again.
      this.snapshot ??= await rig.snapshot();
      const hz = this.o.tuneHz();
      if (hz !== null) await rig.tuneReceive(hz, LAN_PACKET_MODE);
    } catch (err) {
      await this.restoreWith(rig);
      await rig.release();
      throw new Error(`rig setup over Wi-Fi failed (${errorMessage(err)}); the previous rig state was restored`);
    }
    if (!this.want) {
      await this.restoreWith(rig);
      await rig.release();
      return;
    }
    rig.onAudio((pcm) => {
      if (this.rig !== rig) return;
      this.lastRxAudioAt = monotonicMs(); // network time: the app clock may be fixed
      this.rx.feedAudio(pcm);
    });
    rig.onLost((why) => this.lost(rig, why));
    this.rig = rig;
    this.retry.up();
    this.lastError = null;
    this.state = 'idle';
    log.info(`${rig.radioName} at ${this.endpoint}: APRS over Wi-Fi ready`);
  }

  private lost(rig: WifiRig, why: string): void {
    if (this.rig !== rig) return;
    this.rig = null;
    this.queue = [];
    // Nothing more can go over a dead session: the audio stops, and the next session unkeys first.
    rig.audioTx.abort();
    this.keyed = false;
    this.lastError = `${why}; transmit stopped, reconnecting`;
    this.state = 'reconnecting';
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (!this.want) return;
    this.retry.schedule(() => {
      if (!this.want || this.rig) return;
      this.openSession().catch((err) => {
        this.lastError = `reconnecting to ${this.endpoint}: ${errorMessage(err)}`;
        this.scheduleRetry();
      });
    });
  }

  /** Rig state back as the operator had it, the lease let go. Never throws. */
  private async teardown(): Promise<void> {
    const rig = this.rig;
    this.rig = null;
    this.state = 'stopped';
    if (rig) await this.restoreWith(rig);
    await rig?.release().catch(() => {});
  }

  private async restoreWith(rig: WifiRig): Promise<void> {
    const snap = this.snapshot;
    if (!snap) return;
    try {
      await rig.restore(snap);
      this.snapshot = null;
    } catch (err) {
      this.lastError = `restoring the rig state over Wi-Fi failed: ${errorMessage(err)}`;
    }
  }

  // --- transmit -----------------------------------------------------------------------------

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length && this.rig) {
        const frame = this.queue.shift()!;
        await this.transmit(this.rig, frame);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async transmit(rig: WifiRig, frame: Uint8Array): Promise<void> {
    // One transmission at a time, so the modulator's buffer stays ours until play() resolves.
    const pcm = this.modem.modulate([frame]);
    try {
      await rig.ptt(true);
      this.keyed = true;
      this.state = 'transmitting';
      const r = await rig.audioTx.play(pcm);
      if (r.kind === 'lost') this.lastError = `the LAN session was lost mid-transmit (${r.reason}); PTT released`;
    } catch (err) {
      this.lastError = `transmit over Wi-Fi failed: ${errorMessage(err)}`;
    } finally {
      await this.unkey();
      if (this.rig === rig) this.state = 'idle';
    }
  }

  /** PTT off after every transmission, whatever happened; a failure is reported, never thrown. */
  private async unkey(): Promise<void> {
    const rig = this.rig;
    if (!rig) return;
    try {
      await rig.ptt(false);
      this.keyed = false;
    } catch (err) {
      if (this.keyed) this.lastError = `PTT off over Wi-Fi was not confirmed (${errorMessage(err)}); check the radio`;
    }
  }
}
