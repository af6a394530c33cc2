import dgram from 'node:dgram';
import { performance } from 'node:perf_hooks';
import type { CivRigSim } from './civ-rig.js';
import { mulberry32 } from '../helpers/prng.js';
import { RadioTxBuffer } from './radio-tx-buffer.js';

// The radio side (an IC-705) of Icom's network protocol (the "RS-BA1" LAN protocol) over UDP on
// 127.0.0.1, for tests. It is an independent reading of the protocol and shares no code with
// src/: the packet layouts follow wfview's include/packettypes.h and its radio emulator
// (src/radio/icomserver.cpp), cross-checked against wfview's client (icomudpbase.cpp,
// icomudphandler.cpp, icomudpcivdata.cpp, icomudpaudio.cpp) and against the packets kappanhang
// (nonoo/kappanhang) captured from a real IC-705. CI-V from the client goes to a CivRigSim, and
// its answers come back on the CI-V stream. Strict like a radio: a client that skips a step, uses
// the wrong IDs, token or lengths is ignored or refused. README.md in this folder documents it.
//
// Every number in a header is little-endian unless a comment says big-endian (BE).

export interface IcomLanSimOptions {
  /** CI-V frames from the client go to this rig; its answers come back on the CI-V stream. */
  rig: CivRigSim;
  /** What the radio accepts. Defaults 'ham' / 'station'. */
  username?: string;
  password?: string;
  /** Default 'IC-705'. */
  radioName?: string;
  /** Fault injection on every packet the sim sends and receives: drop with this probability. */
  loss?: number;
  /** Hold a packet back and deliver it after the next one (on the same stream and direction). */
  reorder?: number;
  /** Seed of the PRNG behind loss, reorder, IDs and tokens (deterministic). Default 1. */
  seed?: number;
  /** The token expires unless renewed (0x40 type 05) within this long. Default 180 000 ms. */
  tokenTtlMs?: number;
  /** A client silent on all its streams this long is dropped. Default 5000 ms. */
  staleMs?: number;
  /** If set, the only RX/TX audio rate the radio offers and accepts; else 8000/16000/24000/48000. */
  audioRateHz?: number;
  /** Send silence on the RX audio stream when nothing is being played (as the radio does). Default true. */
  rxIdleSilence?: boolean;
  /** Unkey the rig when a keyed client goes stale or disconnects. Default false: the product must unkey. */
  unkeyOnLoss?: boolean;
}

export interface IcomLanEvent {
  /** performance.now() */
  at: number;
  kind: string;
  detail?: string;
}

/** What the owning client asked for in its conninfo (0x90) request and the radio granted. */
export interface IcomLanStream {
  rxEnable: boolean;
  txEnable: boolean;
  rxCodec: number;
  txCodec: number;
  rxRateHz: number;
  txRateHz: number;
  /** The client's own CI-V and audio ports (where it sends from and the radio sends to). */
  civPort: number;
  audioPort: number;
  txBufferMs: number;
}

type LinkKind = 'control' | 'civ' | 'audio';

/** One UDP conversation between a client port and one of the radio's sockets. */
interface Link {
  kind: LinkKind;
  address: string;
  port: number;
  radioId: number;
  clientId: number;
  /** Got "are you ready" (0x06): everything else is ignored before it. */
  ready: boolean;
  // what the radio sends: tracked sequence numbers and the buffer retransmits come from
  txSeq: number;
  txBuf: Map<number, Buffer>;
  lastTrackedAt: number;
  pingSeq: number;
  lastPingAt: number;
  lastRetxAt: number;
  // what the client sends: duplicates and gaps
  highest: number | null;
  seen: Set<number>;
  seenOrder: number[];
  missing: Map<number, { tries: number; since: number }>;
  lastHeard: number;
  /** Audio: base added to the unwrapped sequence number, so a new stream sorts after an old one. */
  extBase: number;
  extHigh: number | null;
}

interface Session {
  key: string;
  link: Link;
  loggedIn: boolean;
  user: string;
  clientName: string;
  tokRequest: Buffer;
  token: Buffer | null;
  tokenConfirmed: boolean;
  tokenValid: boolean;
  tokenExpiresAt: number;
  innerSeq: Buffer;
  stream: IcomLanStream | null;
  civ: Link | null;
  audio: Link | null;
  civOpen: boolean;
  civSendSeq: number;
  audioSendSeq: number;
}

// Packet sizes (wfview include/packettypes.h)
const CONTROL_SIZE = 0x10;
const PING_SIZE = 0x15;
const OPENCLOSE_SIZE = 0x16;
const CIV_HEADER = 0x15;
const AUDIO_HEADER = 0x18;
const TOKEN_SIZE = 0x40;
const STATUS_SIZE = 0x50;
const LOGIN_RESPONSE_SIZE = 0x60;
const LOGIN_SIZE = 0x80;
const CONNINFO_SIZE = 0x90;
const CAPABILITIES_SIZE = 0x42;
const RADIO_CAP_SIZE = 0x66;

// Packet types (offset 0x04)
const T_DATA = 0x00; // idle and every tracked packet
const T_RETRANSMIT = 0x01;
const T_ARE_YOU_THERE = 0x03;
const T_I_AM_HERE = 0x04;
const T_DISCONNECT = 0x05;
const T_READY = 0x06; // "are you ready" and "I am ready"
const T_PING = 0x07;

const BUFSIZE = 500; // packets kept for retransmit (wfview BUFSIZE)
const MAX_MISSING = 50; // a bigger jump is a restart, not a gap (wfview MAX_MISSING)
const SEEN_KEEP = 1024;
const IDLE_MS = 100;
const PING_MS = 500;
const RETRANSMIT_MS = 100;
const MAX_SESSIONS = 4;
const AUDIO_PART = 1364; // the radio splits a 20 ms block into parts of at most this many bytes
const MAX_TX_SAMPLES = 48_000 * 120;
const MAX_RECORDS = 20_000;
const TOKEN_REJECTED = 0xffffffff;
const LOGIN_REJECTED = 0xfeffffff; // bytes FF FF FF FE
const CODEC_LPCM16_MONO = 0x04;
/** Sample-rate bits of the radio capability's rxsample/txsample fields (u16 LE), per wfview. */
const RATE_BITS: Record<number, number> = { 8000: 0x0100, 16000: 0x0200, 24000: 0x0001, 48000: 0x0800 };

/**
 * Icom's passcode substitution for user names and passwords: the character code plus its
 * position (wrapped into 32..126) indexes this table. wfview include/icomudpbase.h passcode(),
 * cross-checked with kappanhang passcode.go and its captured login ("beer" = 2B 3F 55 5C).
 */
const PASSCODE =
  '475d4c42662023464e57453d677660416239592d687e7c657d4929727378216e' +
  '5a5e4a3e712c2a543c3a634f437527795b3570486b566f34326c30616d7b2f4b' +
  '64382b2e50403f55333725772426746a28534d69225c443136583b7a515f52';
const TABLE: number[] = PASSCODE.match(/../g)!.map((h) => parseInt(h, 16));
const UNTABLE = new Map<number, number>(TABLE.map((v, i) => [v, i + 32]));
if (TABLE.length !== 95 || UNTABLE.size !== 95) throw new Error('passcode table is not a permutation of 95 codes');

/** Encodes a user name or password as the client puts it in the login packet (16 bytes, zero-padded). */
export function icomPasscode(text: string): Buffer {
  const out = Buffer.alloc(16);
  for (let i = 0; i < text.length && i < 16; i++) {
    let p = text.charCodeAt(i) + i;
    if (p > 126) p = 32 + (p % 127);
    out[i] = TABLE[p - 32] ?? 0;
  }
  return out;
}

/** Decodes a passcode-encoded field (up to the first zero); unknown codes become U+FFFD. */
export function icomUnpasscode(field: Uint8Array): string {
  let s = '';
  for (let i = 0; i < field.length && field[i] !== 0; i++) {
    const p = UNTABLE.get(field[i]);
    if (p === undefined) {
      s += '\ufffd';
      continue;
    }
    let c = p - i;
    if (c < 32) c += 95; // it had wrapped: p = 32 + (c + i) % 127
    s += String.fromCharCode(c);
  }
  return s;
}


const cstr = (b: Uint8Array): string => {
  const end = b.indexOf(0);
  return Buffer.from(end < 0 ? b : b.subarray(0, end)).toString('latin1');
};

/** A header: len (u32), type (u16), seq (u16), sender ID (u32), receiver ID (u32). */
function packet(len: number, type: number, seq: number, sentId: number, rcvdId: number): Buffer {
  const b = Buffer.alloc(len);
  b.writeUInt32LE(len, 0x00);
  b.writeUInt16LE(type, 0x04);
  b.writeUInt16LE(seq & 0xffff, 0x06);
  b.writeUInt32LE(sentId >>> 0, 0x08);
  b.writeUInt32LE(rcvdId >>> 0, 0x0c);
  return b;
}

export class IcomLanSim {
  readonly events: IcomLanEvent[] = [];
  /** Every PTT change the rig saw through CI-V 1C 00 xx. */
  readonly ptt: Array<{ at: number; on: boolean }> = [];
  /** Arrival time (performance.now()) and sample count of each TX audio packet (first arrival only). */
  readonly txAudioPackets: Array<{ at: number; samples: number }> = [];
  /** The radio's transmit buffer: what actually went on air, and what PTT off cut (radio-tx-buffer.ts). */
  readonly txBuffer = new RadioTxBuffer();
  /** Another client holds the radio: a new conninfo request is refused and conninfo says "in use". */
  busy = false;
  /** Packets dropped because the client was not allowed to send them (not logged in, token expired, ...). */
  readonly dropped = { civ: 0, audio: 0 };

  private readonly rig: CivRigSim;
  private readonly username: string;
  private readonly password: string;
  private readonly radioName: string;
  private readonly tokenTtlMs: number;
  private readonly staleMs: number;
  private readonly rates: number[];
  private readonly rxIdleSilence: boolean;
  private readonly unkeyOnLoss: boolean;
  private readonly mac: Buffer;
  private loss: number;
  private reorder: number;
  private readonly faultRand: () => number;
  private readonly idRand: () => number;

  private socks: Partial<Record<LinkKind, dgram.Socket>> = {};
  private ports: Record<LinkKind, number> = { control: 0, civ: 0, audio: 0 };
  private powered = true;
  private running = false;
  private bootAt = performance.now();
  private readonly sessions = new Map<string, Session>();
  private owner: Session | null = null;
  private readonly held = new Map<string, { deliver: () => void; timer: NodeJS.Timeout }>();
  private ticker: NodeJS.Timeout | null = null;
  private rigLink: { feed(bytes: Uint8Array): void; detach(): void } | null = null;
  private unPtt: (() => void) | null = null;
  private _lastLogin: { username: string; password: string } | null = null;
  private readonly noted = new Set<string>();
  // TX audio: ordered by (link base + unwrapped tracked sequence number)
  private readonly tx = new Map<number, Int16Array>();
  private txSamples = 0;
  private extEpoch = 0;
  // RX audio pump
  private pumpTimer: NodeJS.Timeout | null = null;
  private pumpNext = 0;
  private readonly rxQueue: Array<{ pcm: Int16Array; pos: number; done: () => void }> = [];

  constructor(opts: IcomLanSimOptions) {
    this.rig = opts.rig;
    this.username = opts.username ?? 'ham';
    this.password = opts.password ?? 'station';
    this.radioName = opts.radioName ?? 'IC-705';
    this.tokenTtlMs = opts.tokenTtlMs ?? 180_000;
    this.staleMs = opts.staleMs ?? 5000;
    if (opts.audioRateHz !== undefined && !(opts.audioRateHz in RATE_BITS)) throw new RangeError(`audioRateHz ${opts.audioRateHz}: 8000, 16000, 24000 or 48000`);
    this.rates = opts.audioRateHz !== undefined ? [opts.audioRateHz] : [8000, 16000, 24000, 48000];
    this.rxIdleSilence = opts.rxIdleSilence ?? true;
    this.unkeyOnLoss = opts.unkeyOnLoss ?? false;
    this.loss = checkP(opts.loss ?? 0);
    this.reorder = checkP(opts.reorder ?? 0);
    const seed = opts.seed ?? 1;
    this.faultRand = mulberry32(seed);
    this.idRand = mulberry32(seed ^ 0x5eed1c0e);
    this.mac = Buffer.from([0x00, 0x90, 0xc7, 0x5a, 0x70, 0x05]); // Icom's OUI 00:90:C7
  }

  get controlPort(): number {
    return this.ports.control;
  }
  get civPort(): number {
    return this.ports.civ;
  }
  get audioPort(): number {
    return this.ports.audio;
  }
  /** A client holds the radio (its conninfo was granted) and its token is valid. */
  get clientConnected(): boolean {
    return !!this.owner && this.tokenOk(this.owner);
  }
  /** The rig is transmitting now. */
  get keyed(): boolean {
    return this.rig.state.transmitting;
  }
  get lastLogin(): { username: string; password: string } | null {
    return this._lastLogin;
  }
  /** The granted stream of the client holding the radio, or null. */
  get stream(): IcomLanStream | null {
    return this.owner?.stream ? { ...this.owner.stream } : null;
  }
  /** The CI-V stream is open (0x16 magic 04). */
  get civOpen(): boolean {
    return !!this.owner?.civOpen;
  }

  setLoss(p: number): void {
    this.loss = checkP(p);
  }
  setReorder(p: number): void {
    this.reorder = checkP(p);
  }

  async start(): Promise<void> {
    if (this.running) throw new Error('the emulator is already started');
    this.rigLink = this.rig.attach((bytes) => this.fromRig(bytes)); // throws if another emulator has the rig
    try {
      for (const kind of ['control', 'civ', 'audio'] as const) {
        const sock = await bindLoopback();
        sock.on('message', (msg, rinfo) => this.onMessage(kind, msg, rinfo.address, rinfo.port));
        this.socks[kind] = sock;
        this.ports[kind] = sock.address().port;
      }
    } catch (err) {
      this.rigLink.detach();
      this.rigLink = null;
      for (const sock of Object.values(this.socks)) sock.close();
      this.socks = {};
      throw err;
    }
    this.unPtt = this.rig.onPtt((on) => {
      record(this.ptt, { at: performance.now(), on });
      this.txBuffer.ptt(on);
    });
    this.txBuffer.ptt(this.rig.state.transmitting);
    this.running = true;
    this.powered = true;
    this.bootAt = performance.now();
    this.ticker = setInterval(() => this.tick(), 20);
    this.ticker.unref();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.forgetAll();
    this.rigLink?.detach();
    this.rigLink = null;
    this.unPtt?.();
    this.unPtt = null;
    const socks = Object.values(this.socks);
    this.socks = {};
    await Promise.all(socks.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }

  /** The radio is switched off or out of range: it answers nothing and forgets every session. */
  powerOff(): void {
    if (!this.powered) return;
    this.event('power_off');
    this.powered = false;
    this.forgetAll();
  }

  /** Switched on again: a fresh radio (new IDs and tokens); clients must start from "are you there". */
  powerOn(): void {
    if (this.powered) return;
    this.powered = true;
    this.bootAt = performance.now();
    this.noted.clear();
    this.event('power_on');
  }

  /**
   * The audio the radio transmitted: received while keyed, played out of its buffer in real time,
   * the end cut where PTT went off before the buffer had played. What a receiver would hear.
   */
  txAudio(): Int16Array {
    return this.txBuffer.transmitted();
  }

  /** All TX audio received on the wire, keyed or not, in stream (sequence) order, duplicates dropped. */
  txReceived(): Int16Array {
    const keys = [...this.tx.keys()].sort((a, b) => a - b);
    const out = new Int16Array(this.txSamples);
    let at = 0;
    for (const k of keys) {
      const part = this.tx.get(k)!;
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  clearTx(): void {
    this.tx.clear();
    this.txSamples = 0;
    this.txAudioPackets.length = 0;
    this.txBuffer.clear();
  }

  /**
   * Streams pcm (16-bit mono at the rate the client asked for) to the client as RX audio, in 20 ms
   * blocks paced in real time. Rejects if no client is receiving audio; resolves when the last
   * sample was sent, or early if the client goes away.
   */
  playRx(pcm: Int16Array): Promise<void> {
    const s = this.owner;
    if (!this.powered || !s?.stream?.rxEnable || !s.audio?.ready) return Promise.reject(new Error('no client is receiving audio'));
    if (pcm.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.rxQueue.push({ pcm, pos: 0, done: resolve });
      this.startPump();
    });
  }

  // ---- the wire ---------------------------------------------------------------------------

  private event(kind: string, detail?: string): void {
    record(this.events, detail === undefined ? { at: performance.now(), kind } : { at: performance.now(), kind, detail });
  }

  /** An event recorded once (per-packet refusals), until the next successful login or power-on. */
  private noteOnce(kind: string, detail?: string): void {
    const k = `${kind}|${detail ?? ''}`;
    if (this.noted.has(k)) return;
    if (this.noted.size >= 1000) this.noted.clear();
    this.noted.add(k);
    this.event(kind, detail);
  }

  /** Loss and reorder, for one direction of one stream. */
  private fault(key: string, deliver: () => void): void {
    if (this.loss > 0 && this.faultRand() < this.loss) return;
    const held = this.held.get(key);
    if (held) {
      this.held.delete(key);
      clearTimeout(held.timer);
      deliver();
      held.deliver();
      return;
    }
    if (this.reorder > 0 && this.faultRand() < this.reorder) {
      const timer = setTimeout(() => {
        if (this.held.get(key)?.timer !== timer) return;
        this.held.delete(key);
        deliver(); // nothing came after it: let it go late rather than never
      }, 40);
      timer.unref();
      this.held.set(key, { deliver, timer });
      return;
    }
    deliver();
  }

  private send(link: Link, buf: Buffer): void {
    const sock = this.socks[link.kind];
    if (!sock || !this.powered || !this.running) return;
    this.fault(`out:${link.kind}:${link.address}:${link.port}`, () => {
      if (this.powered && this.running && this.socks[link.kind] === sock) sock.send(buf, link.port, link.address, () => {});
    });
  }

  private sendTracked(link: Link, buf: Buffer): void {
    const seq = link.txSeq;
    buf.writeUInt16LE(seq, 0x06);
    link.txBuf.delete(seq);
    link.txBuf.set(seq, buf);
    if (link.txBuf.size > BUFSIZE) link.txBuf.delete(link.txBuf.keys().next().value!);
    link.txSeq = (seq + 1) & 0xffff;
    link.lastTrackedAt = performance.now();
    this.send(link, buf);
  }

  /** A control packet (0x10) outside the tracked sequence. */
  private sendControl(link: Link, type: number, seq: number): void {
    this.send(link, packet(CONTROL_SIZE, type, seq, link.radioId, link.clientId));
  }

  private onMessage(kind: LinkKind, msg: Buffer, address: string, port: number): void {
    if (!this.powered || !this.running) return;
    this.fault(`in:${kind}:${address}:${port}`, () => {
      if (!this.powered || !this.running) return;
      if (msg.length < CONTROL_SIZE || msg.readUInt32LE(0) !== msg.length) {
        this.noteOnce('malformed', `${kind}: length field ${msg.length >= 4 ? msg.readUInt32LE(0) : '-'} for ${msg.length} bytes`);
        return;
      }
      if (kind === 'control') this.onControl(msg, address, port);
      else this.onStream(kind, msg, address, port);
    });
  }

  private newLink(kind: LinkKind, address: string, port: number, clientId: number): Link {
    const now = performance.now();
    return {
      kind,
      address,
      port,
      radioId: ((Math.floor(this.idRand() * 0x10000) << 16) | this.ports[kind]) >>> 0,
      clientId,
      ready: false,
      txSeq: 1,
      txBuf: new Map(),
      lastTrackedAt: now,
      pingSeq: Math.floor(this.idRand() * 0x10000),
      lastPingAt: now,
      lastRetxAt: now,
      highest: null,
      seen: new Set(),
      seenOrder: [],
      missing: new Map(),
      lastHeard: now,
      extBase: 0,
      extHigh: null,
    };
  }

  /**
   * What every stream shares: the ready handshake, pings, retransmit requests both ways,
   * disconnect, duplicates and gaps. Returns the packet if it is new tracked data to act on.
   */
  private common(link: Link, m: Buffer): Buffer | 'disconnect' | null {
    const type = m.readUInt16LE(0x04);
    const seq = m.readUInt16LE(0x06);
    if (m.readUInt32LE(0x08) !== link.clientId || m.readUInt32LE(0x0c) !== link.radioId) {
      this.noteOnce('bad_id', `${link.kind}: sender ${hex32(m.readUInt32LE(0x08))} receiver ${hex32(m.readUInt32LE(0x0c))}`);
      return null;
    }
    link.lastHeard = performance.now();
    if (m.length === CONTROL_SIZE && type === T_READY) {
      this.event('are_you_ready', link.kind);
      link.ready = true;
      this.sendControl(link, T_READY, seq); // "I am ready", same seq
      if (link.kind === 'audio') this.startPump();
      return null;
    }
    if (m.length === PING_SIZE && type === T_PING) {
      if (m[0x10] === 0x00) {
        const r = packet(PING_SIZE, T_PING, seq, link.radioId, link.clientId);
        r.writeUInt32LE(0, 0x00); // the radio leaves the length of its pings at 0 (kappanhang's capture)
        r[0x10] = 0x01;
        m.copy(r, 0x11, 0x11, 0x15); // the client's time, echoed
        this.send(link, r);
      } else if (m[0x10] === 0x01 && seq === link.pingSeq) {
        link.pingSeq = (link.pingSeq + 1) & 0xffff;
      }
      return null;
    }
    if (!link.ready) {
      this.noteOnce('not_ready', `${link.kind}: type ${type} before "are you ready"`);
      return null;
    }
    if (type === T_RETRANSMIT) {
      this.answerRetransmit(link, m, seq);
      return null;
    }
    if (m.length === CONTROL_SIZE && type === T_DISCONNECT) return 'disconnect';
    if (type !== T_DATA) return null;
    if (!this.track(link, seq)) return null; // a duplicate
    return m.length === CONTROL_SIZE ? null : m; // an idle only keeps the sequence going
  }

  private answerRetransmit(link: Link, m: Buffer, seq: number): void {
    const seqs: number[] = [];
    if (m.length === CONTROL_SIZE) seqs.push(seq);
    else {
      // pairs (first, last), u16 LE each; wfview asks for single packets as (n, n)
      for (let i = 0x10; i + 4 <= m.length; i += 4) {
        const first = m.readUInt16LE(i);
        const last = m.readUInt16LE(i + 2);
        const n = ((last - first) & 0xffff) + 1;
        if (n > BUFSIZE) continue;
        for (let k = 0; k < n && seqs.length < BUFSIZE; k++) seqs.push((first + k) & 0xffff);
      }
      if ((m.length - 0x10) % 4 === 2) seqs.push(m.readUInt16LE(m.length - 2));
    }
    this.event('retransmit_asked_by_client', `${link.kind} ${seqs.join(',')}`);
    for (const s of seqs) {
      const b = link.txBuf.get(s);
      if (b) this.send(link, b);
      else this.sendControl(link, T_DATA, s); // gone: an idle with that seq fills the hole
    }
  }

  /** Records a tracked seq from the client; false for a duplicate. Gaps become missing. */
  private track(link: Link, seq: number): boolean {
    const remember = () => {
      link.seen.add(seq);
      link.seenOrder.push(seq);
      if (link.seenOrder.length > SEEN_KEEP) link.seen.delete(link.seenOrder.shift()!);
      link.missing.delete(seq);
    };
    if (link.highest === null) {
      link.highest = seq;
      remember();
      return true;
    }
    const ahead = (seq - link.highest) & 0xffff;
    if (ahead === 0) return false;
    if (ahead < 0x8000) {
      if (ahead > MAX_MISSING) link.missing.clear(); // a jump, not a gap: start again from here
      else {
        const now = performance.now();
        for (let k = 1; k < ahead; k++) {
          const s = (link.highest + k) & 0xffff;
          if (!link.seen.has(s) && !link.missing.has(s)) link.missing.set(s, { tries: 0, since: now });
        }
      }
      link.highest = seq;
      remember();
      return true;
    }
    if (link.seen.has(seq)) return false;
    if (0x10000 - ahead > SEEN_KEEP) {
      link.missing.clear(); // far behind: the client started over
      link.highest = seq;
    }
    remember();
    return true;
  }

  /** The radio asks for the client's packets it has not seen (each up to 4 times). */
  private requestMissing(link: Link, now: number): void {
    if (link.missing.size === 0) return;
    if (link.missing.size > MAX_MISSING) {
      link.missing.clear();
      return;
    }
    const ask: number[] = [];
    for (const [s, e] of link.missing) {
      if (now - e.since < 30) continue; // may only be late
      if (e.tries >= 4) {
        link.missing.delete(s);
        continue;
      }
      e.tries++;
      ask.push(s);
    }
    if (ask.length === 0) return;
    this.event('retransmit_asked_by_radio', `${link.kind} ${ask.join(',')}`);
    if (ask.length === 1) {
      this.sendControl(link, T_RETRANSMIT, ask[0]);
      return;
    }
    const r = packet(CONTROL_SIZE + ask.length * 4, T_RETRANSMIT, 0, link.radioId, link.clientId);
    ask.forEach((s, i) => {
      r.writeUInt16LE(s, 0x10 + i * 4);
      r.writeUInt16LE(s, 0x12 + i * 4);
    });
    this.send(link, r);
  }

  private tick(): void {
    if (!this.powered || !this.running) return;
    const now = performance.now();
    for (const s of [...this.sessions.values()]) {
      const heard = Math.max(s.link.lastHeard, s.civ?.lastHeard ?? 0, s.audio?.lastHeard ?? 0);
      if (now - heard > this.staleMs) {
        this.event('client_stale', s.key);
        this.dropSession(s, 'stale');
        continue;
      }
      if (s.token && s.tokenValid && now > s.tokenExpiresAt) {
        s.tokenValid = false;
        this.event('token_expired', s.key);
      }
      for (const link of [s.link, s.civ, s.audio]) {
        if (!link?.ready) continue;
        if (link.kind !== 'audio' && now - link.lastTrackedAt >= IDLE_MS) this.sendTracked(link, packet(CONTROL_SIZE, T_DATA, 0, link.radioId, link.clientId));
        if (now - link.lastPingAt >= PING_MS) {
          link.lastPingAt = now;
          const p = packet(PING_SIZE, T_PING, link.pingSeq, link.radioId, link.clientId);
          p.writeUInt32LE(0, 0x00); // as the radio sends it
          p.writeUInt32LE(Math.floor(now - this.bootAt) >>> 0, 0x11);
          this.send(link, p);
        }
        if (now - link.lastRetxAt >= RETRANSMIT_MS) {
          link.lastRetxAt = now;
          this.requestMissing(link, now);
        }
      }
    }
  }

  // ---- the control stream -------------------------------------------------------------

  private onControl(m: Buffer, address: string, port: number): void {
    const key = `${address}:${port}`;
    const type = m.readUInt16LE(0x04);
    let s = this.sessions.get(key);
    if (m.length === CONTROL_SIZE && type === T_ARE_YOU_THERE) {
      this.event('are_you_there', 'control');
      const clientId = m.readUInt32LE(0x08);
      if (s && s.link.clientId !== clientId) {
        this.dropSession(s, 'restarted'); // the same port with a new ID: a new connection
        s = undefined;
      }
      if (!s) {
        if (this.sessions.size >= MAX_SESSIONS) return;
        s = {
          key,
          link: this.newLink('control', address, port, clientId),
          loggedIn: false,
          user: '',
          clientName: '',
          tokRequest: Buffer.alloc(2),
          token: null,
          tokenConfirmed: false,
          tokenValid: false,
          tokenExpiresAt: 0,
          innerSeq: Buffer.alloc(2),
          stream: null,
          civ: null,
          audio: null,
          civOpen: false,
          civSendSeq: 0,
          audioSendSeq: 0,
        };
        this.sessions.set(key, s);
      }
      s.link.lastHeard = performance.now();
      this.sendControl(s.link, T_I_AM_HERE, 0);
      return;
    }
    if (!s) return; // never said "are you there": not a client
    const r = this.common(s.link, m);
    if (r === 'disconnect') {
      this.event('disconnect', 'control');
      this.sendControl(s.link, T_DATA, m.readUInt16LE(0x06));
      this.dropSession(s, 'disconnect');
      return;
    }
    if (!r) return;
    if (r.length === LOGIN_SIZE) this.onLogin(s, r);
    else if (r.length === TOKEN_SIZE) this.onToken(s, r);
    else if (r.length === CONNINFO_SIZE) this.onConnInfo(s, r);
  }

  /** Checks the inner header of 0x40/0x80/0x90 requests: payload size (BE) and "request" 01. */
  private innerOk(m: Buffer, what: string): boolean {
    if (m.readUInt32BE(0x10) === m.length - 0x10 && m[0x14] === 0x01) return true;
    this.event('malformed', `${what}: payload size ${m.readUInt32BE(0x10)}, request ${m[0x14]}`);
    return false;
  }

  private onLogin(s: Session, m: Buffer): void {
    if (!this.innerOk(m, 'login') || m[0x15] !== 0x00) return;
    const username = icomUnpasscode(m.subarray(0x40, 0x50));
    const password = icomUnpasscode(m.subarray(0x50, 0x60));
    this._lastLogin = { username, password };
    if (this.owner === s) this.releaseStreams(s, 'login again');
    s.innerSeq = Buffer.from(m.subarray(0x16, 0x18));
    s.tokRequest = Buffer.from(m.subarray(0x1a, 0x1c));
    s.clientName = cstr(m.subarray(0x60, 0x70));
    const ok = username === this.username && password === this.password;
    s.loggedIn = ok;
    s.user = ok ? username : '';
    s.tokenConfirmed = false;
    s.tokenValid = ok;
    s.tokenExpiresAt = performance.now() + this.tokenTtlMs;
    s.token = ok ? this.newToken() : null;
    this.event(ok ? 'login_ok' : 'login_rejected', `${username}@${s.clientName}`);
    if (ok) this.noted.clear(); // refusals are worth recording again
    const r = this.inner(s, LOGIN_RESPONSE_SIZE, 0x01, 0x00);
    if (ok) r.write('FTTH', 0x40, 'latin1'); // the connection type a real IC-705 names
    else r.writeUInt32LE(LOGIN_REJECTED, 0x30);
    this.sendTracked(s.link, r);
  }

  private newToken(): Buffer {
    const t = Buffer.alloc(4);
    do t.writeUInt32LE(Math.floor(this.idRand() * 0x100000000) >>> 0, 0);
    while (t.readUInt32LE(0) === 0);
    return t;
  }

  /** A reply with the inner header: payload size (BE), reply/type, inner seq, token request and token. */
  private inner(s: Session, size: number, reply: number, type: number): Buffer {
    const r = packet(size, T_DATA, 0, s.link.radioId, s.link.clientId);
    r.writeUInt32BE(size - 0x10, 0x10);
    r[0x14] = reply;
    r[0x15] = type;
    s.innerSeq.copy(r, 0x16);
    s.tokRequest.copy(r, 0x1a);
    s.token?.copy(r, 0x1c);
    return r;
  }

  private tokenMatches(s: Session, m: Buffer): boolean {
    return !!s.token && m.subarray(0x1a, 0x1c).equals(s.tokRequest) && m.subarray(0x1c, 0x20).equals(s.token);
  }

  private tokenOk(s: Session): boolean {
    return s.loggedIn && !!s.token && s.tokenValid;
  }

  private onToken(s: Session, m: Buffer): void {
    if (!this.innerOk(m, 'token')) return;
    const type = m[0x15];
    s.innerSeq = Buffer.from(m.subarray(0x16, 0x18));
    const reply = (response: number) => {
      const r = this.inner(s, TOKEN_SIZE, 0x02, type);
      m.copy(r, 0x20, 0x20, 0x30);
      r.writeUInt32LE(response, 0x30);
      this.sendTracked(s.link, r);
    };
    if (!this.tokenMatches(s, m) || !this.tokenOk(s) || ![0x01, 0x02, 0x04, 0x05].includes(type)) {
      this.event('token_rejected', `type ${hex8(type)}: ${!s.loggedIn ? 'not logged in' : !this.tokenMatches(s, m) ? 'wrong token' : !s.tokenValid ? 'expired' : 'unknown type'}`);
      reply(TOKEN_REJECTED);
      return;
    }
    switch (type) {
      case 0x02: // confirm, right after login: the radio lists itself and says whether it is in use
        s.tokenConfirmed = true;
        s.tokenExpiresAt = performance.now() + this.tokenTtlMs;
        this.event('token_confirm', s.key);
        this.sendCapabilities(s);
        this.sendConnInfo(s);
        return;
      case 0x05: // renewal
        s.tokenExpiresAt = performance.now() + this.tokenTtlMs;
        this.event('token_renew', s.key);
        reply(0);
        return;
      case 0x01: // removal: the client logs out
        this.event('token_remove', s.key);
        reply(0);
        this.releaseStreams(s, 'token removed');
        s.loggedIn = false;
        s.tokenValid = false;
        s.token = null;
        return;
      case 0x04: // close the CI-V and audio streams, stay logged in
        this.event('streams_closed', s.key);
        reply(0);
        this.releaseStreams(s, 'closed by client');
        this.sendConnInfo(s);
        return;
    }
  }

  private sendCapabilities(s: Session): void {
    const r = this.inner(s, CAPABILITIES_SIZE + RADIO_CAP_SIZE, 0x02, 0x02);
    r.writeUInt16BE(1, 0x40); // one radio
    const c = CAPABILITIES_SIZE;
    r.writeUInt16LE(0x8010, c + 0x07); // "common cap": the radio is named by its MAC, not a GUID
    this.mac.copy(r, c + 0x0a);
    r.write(this.radioName.slice(0, 31), c + 0x10, 'latin1');
    r.write('ICOM_VAUDIO', c + 0x30, 'latin1');
    r.writeUInt16LE(0x0707, c + 0x50); // Wi-Fi
    r[c + 0x52] = this.rig.address;
    const bits = this.rates.reduce((a, hz) => a | RATE_BITS[hz], 0);
    r.writeUInt16LE(bits, c + 0x53); // rx sample rates
    r.writeUInt16LE(bits, c + 0x55); // tx sample rates
    r[c + 0x57] = 0x01;
    r[c + 0x58] = 0x01;
    r[c + 0x59] = 0x01;
    r.writeUInt32BE(115_200, c + 0x5a);
    r.writeUInt16LE(0x5001, c + 0x5e);
    r.writeUInt16LE(0x0190, c + 0x61);
    this.sendTracked(s.link, r);
  }

  /** "Connection info": who, if anyone, is using the radio (busy 1 and their name and address). */
  private sendConnInfo(s: Session): void {
    const r = this.inner(s, CONNINFO_SIZE, 0x03, 0x00);
    r.fill(0, 0x16, 0x18); // no inner seq in this one
    r.writeUInt16LE(0x8010, 0x27);
    this.mac.copy(r, 0x2a);
    r.write(this.radioName.slice(0, 31), 0x40, 'latin1');
    const user = this.busy ? { name: 'OTHER-PC', ip: 0xc0a80063 } : this.owner ? { name: this.owner.clientName, ip: 0x7f000001 } : null;
    r.writeUInt32LE(user ? 1 : 0, 0x60);
    if (user) {
      r.write(user.name.slice(0, 16), 0x64, 'latin1');
      r.writeUInt32BE(user.ip, 0x84);
    }
    this.sendTracked(s.link, r);
  }

  private onConnInfo(s: Session, m: Buffer): void {
    if (!this.innerOk(m, 'conninfo') || m[0x15] !== 0x03) return;
    s.innerSeq = Buffer.from(m.subarray(0x16, 0x18));
    const req: IcomLanStream = {
      rxEnable: m[0x70] === 0x01,
      txEnable: m[0x71] === 0x01,
      rxCodec: m[0x72],
      txCodec: m[0x73],
      rxRateHz: m.readUInt32BE(0x74),
      txRateHz: m.readUInt32BE(0x78),
      civPort: m.readUInt32BE(0x7c),
      audioPort: m.readUInt32BE(0x80),
      txBufferMs: m.readUInt32BE(0x84),
    };
    const refuse = (why: string) => {
      this.event(why === 'in use' ? 'busy_rejected' : 'stream_rejected', why);
      const r = this.inner(s, STATUS_SIZE, 0x02, 0x03);
      m.copy(r, 0x20, 0x20, 0x30);
      r.writeUInt32LE(TOKEN_REJECTED, 0x30);
      this.sendTracked(s.link, r);
    };
    if (!s.loggedIn) return refuse('not logged in');
    if (!this.tokenMatches(s, m)) return refuse('wrong token');
    if (!s.tokenValid) return refuse('token expired');
    if (!s.tokenConfirmed) return refuse('token not confirmed (0x40 type 02)');
    if (m.readUInt16LE(0x27) !== 0x8010 || !m.subarray(0x2a, 0x30).equals(this.mac)) return refuse('not this radio (common cap 0x8010 and MAC at 0x27)');
    if (icomUnpasscode(m.subarray(0x60, 0x70)) !== s.user) return refuse('user name differs from the login');
    if (this.busy || (this.owner && this.owner !== s)) return refuse('in use');
    const codecOk = (on: boolean, codec: number, hz: number) => !on || (codec === CODEC_LPCM16_MONO && this.rates.includes(hz));
    if (!codecOk(req.rxEnable, req.rxCodec, req.rxRateHz)) return refuse(`rx codec ${hex8(req.rxCodec)} at ${req.rxRateHz} Hz`);
    if (!codecOk(req.txEnable, req.txCodec, req.txRateHz)) return refuse(`tx codec ${hex8(req.txCodec)} at ${req.txRateHz} Hz`);
    const portOk = (p: number) => p > 0 && p < 0x10000;
    if (!portOk(req.civPort) || !portOk(req.audioPort)) return refuse(`ports ${req.civPort}/${req.audioPort}`);
    if (this.owner === s && s.stream && (s.stream.civPort !== req.civPort || s.stream.audioPort !== req.audioPort)) this.releaseStreams(s, 'new ports');
    const first = this.owner !== s;
    this.owner = s;
    s.stream = req;
    this.event('conninfo', `rx ${req.rxEnable ? `${hex8(req.rxCodec)} ${req.rxRateHz}` : 'off'} tx ${req.txEnable ? `${hex8(req.txCodec)} ${req.txRateHz}` : 'off'} ports ${req.civPort}/${req.audioPort}`);
    const r = this.inner(s, STATUS_SIZE, 0x02, 0x03);
    m.copy(r, 0x20, 0x20, 0x30);
    r.writeUInt16BE(this.ports.civ, 0x42);
    r.writeUInt16BE(this.ports.audio, 0x46);
    this.sendTracked(s.link, r);
    this.sendConnInfo(s);
    if (first) for (const o of this.sessions.values()) if (o !== s && o.loggedIn) this.sendConnInfo(o);
  }

  /** The client no longer holds the CI-V and audio streams; others are told the radio is free. */
  private releaseStreams(s: Session, why: string): void {
    if (s.civOpen) this.event('civ_close', why);
    s.civOpen = false;
    s.civ = null;
    s.audio = null;
    s.stream = null;
    if (this.owner !== s) return;
    this.owner = null;
    this.finishRx();
    if (this.unkeyOnLoss && this.rig.state.transmitting) {
      this.rig.state.transmitting = false;
      record(this.ptt, { at: performance.now(), on: false });
      this.txBuffer.ptt(false);
      this.event('unkeyed', why);
    }
    for (const o of this.sessions.values()) if (o !== s && o.loggedIn) this.sendConnInfo(o);
  }

  private dropSession(s: Session, why: string): void {
    this.releaseStreams(s, why);
    this.sessions.delete(s.key);
  }

  private forgetAll(): void {
    for (const s of [...this.sessions.values()]) this.dropSession(s, 'radio off');
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
    this.finishRx();
  }

  // ---- the CI-V and audio streams -----------------------------------------------------------

  private onStream(kind: 'civ' | 'audio', m: Buffer, address: string, port: number): void {
    const s = this.owner;
    const st = s?.stream;
    if (!s || !st || address !== s.link.address || port !== (kind === 'civ' ? st.civPort : st.audioPort)) {
      this.dropped[kind]++;
      this.noteOnce(`${kind}_unknown_client`, `${address}:${port}`);
      return;
    }
    if (!this.tokenOk(s)) {
      this.dropped[kind]++;
      this.noteOnce(`${kind}_dropped`, 'token expired or removed');
      return;
    }
    const type = m.readUInt16LE(0x04);
    let link = kind === 'civ' ? s.civ : s.audio;
    if (m.length === CONTROL_SIZE && type === T_ARE_YOU_THERE) {
      this.event('are_you_there', kind);
      const clientId = m.readUInt32LE(0x08);
      if (!link || link.clientId !== clientId) {
        link = this.newLink(kind, address, port, clientId);
        link.extBase = this.extEpoch += 2 ** 32;
        if (kind === 'civ') {
          s.civ = link;
          s.civOpen = false;
        } else s.audio = link;
      }
      link.lastHeard = performance.now();
      this.sendControl(link, T_I_AM_HERE, 0);
      return;
    }
    if (!link) return;
    const r = this.common(link, m);
    if (r === 'disconnect') {
      this.event('disconnect', kind);
      if (kind === 'civ') {
        if (s.civOpen) this.event('civ_close', 'stream disconnected');
        s.civOpen = false;
        s.civ = null;
      } else {
        s.audio = null;
        this.finishRx();
      }
      return;
    }
    if (!r) return;
    if (kind === 'civ') this.onCivData(s, r);
    else this.onTxAudio(s, link, r);
  }

  private onCivData(s: Session, m: Buffer): void {
    if (m.length === OPENCLOSE_SIZE && m[0x10] === 0xc0 && m[0x11] === 0x01) {
      const magic = m[0x15];
      if (magic === 0x04 || magic === 0x05) {
        if (!s.civOpen) this.event('civ_open', hex8(magic));
        s.civOpen = true;
      } else if (magic === 0x00) {
        if (s.civOpen) this.event('civ_close', 'by client');
        s.civOpen = false;
      } else this.event('malformed', `civ open/close magic ${hex8(magic)}`);
      return;
    }
    if (m.length > CIV_HEADER && m[0x10] === 0xc1 && m.readUInt16LE(0x11) + CIV_HEADER === m.length) {
      if (!s.civOpen) {
        this.dropped.civ++;
        this.noteOnce('civ_before_open');
        return;
      }
      this.rigLink?.feed(m.subarray(CIV_HEADER));
      return;
    }
    this.event('malformed', `civ packet of ${m.length} bytes`);
  }

  private fromRig(bytes: Uint8Array): void {
    const s = this.owner;
    const link = s?.civ;
    if (!this.powered || !s || !link?.ready || !s.civOpen || !this.tokenOk(s)) return;
    const r = packet(CIV_HEADER + bytes.length, T_DATA, 0, link.radioId, link.clientId);
    r[0x10] = 0xc1;
    r.writeUInt16LE(bytes.length, 0x11);
    r.writeUInt16BE(s.civSendSeq, 0x13);
    s.civSendSeq = (s.civSendSeq + 1) & 0xffff;
    r.set(bytes, CIV_HEADER);
    this.sendTracked(link, r);
  }

  private onTxAudio(s: Session, link: Link, m: Buffer): void {
    const n = m.length - AUDIO_HEADER;
    if (n <= 0 || m.readUInt16BE(0x16) !== n || n % 2 !== 0) {
      this.event('malformed', `audio packet of ${m.length} bytes, data length ${m.length >= AUDIO_HEADER ? m.readUInt16BE(0x16) : '-'}`);
      return;
    }
    if (!s.stream?.txEnable) {
      this.dropped.audio++;
      this.noteOnce('audio_dropped', 'TX audio not enabled in conninfo');
      return;
    }
    const seq = m.readUInt16LE(0x06);
    const ext = link.extHigh === null ? 0x10000 + seq : link.extHigh + ((((seq - (link.extHigh & 0xffff)) & 0xffff) ^ 0x8000) - 0x8000);
    if (link.extHigh === null || ext > link.extHigh) link.extHigh = ext;
    const pcm = new Int16Array(n / 2);
    for (let i = 0; i < pcm.length; i++) pcm[i] = m.readInt16LE(AUDIO_HEADER + 2 * i); // LPCM 16-bit little-endian
    const key = link.extBase + ext;
    if (this.tx.has(key)) return;
    this.tx.set(key, pcm);
    this.txSamples += pcm.length;
    while (this.txSamples > MAX_TX_SAMPLES) {
      const oldest = Math.min(...this.tx.keys());
      this.txSamples -= this.tx.get(oldest)!.length;
      this.tx.delete(oldest);
    }
    record(this.txAudioPackets, { at: performance.now(), samples: pcm.length });
    this.txBuffer.push(key, pcm, s.stream.txRateHz, s.stream.txBufferMs);
  }

  // ---- RX audio: a continuous 20 ms stream, silence unless playRx has something --------------

  private startPump(): void {
    if (this.pumpTimer) return;
    this.pumpNext = performance.now();
    this.pumpStep();
  }

  private pumpStep(): void {
    this.pumpTimer = null;
    const s = this.owner;
    const link = s?.audio;
    if (!this.running || !this.powered || !s?.stream?.rxEnable || !link?.ready) {
      this.finishRx();
      return;
    }
    const now = performance.now();
    for (let n = 0; this.pumpNext <= now && n < 5; n++) {
      if (this.tokenOk(s)) this.sendRxBlock(s, link, s.stream.rxRateHz / 50);
      this.pumpNext += 20;
    }
    if (this.pumpNext <= now) this.pumpNext = now + 20; // far behind: skip rather than burst
    if (!this.rxIdleSilence && this.rxQueue.length === 0) return; // nothing to send until playRx
    this.pumpTimer = setTimeout(() => this.pumpStep(), Math.max(0, this.pumpNext - performance.now()));
    this.pumpTimer.unref();
  }

  private sendRxBlock(s: Session, link: Link, samples: number): void {
    if (this.rxQueue.length === 0 && !this.rxIdleSilence) return;
    const block = new Int16Array(samples);
    let at = 0;
    while (at < samples && this.rxQueue.length > 0) {
      const q = this.rxQueue[0];
      const take = Math.min(samples - at, q.pcm.length - q.pos);
      block.set(q.pcm.subarray(q.pos, q.pos + take), at);
      q.pos += take;
      at += take;
      if (q.pos >= q.pcm.length) {
        this.rxQueue.shift();
        q.done();
      }
    }
    const bytes = Buffer.alloc(samples * 2);
    for (let i = 0; i < samples; i++) bytes.writeInt16LE(block[i], 2 * i);
    for (let off = 0; off < bytes.length; off += AUDIO_PART) {
      const part = bytes.subarray(off, Math.min(off + AUDIO_PART, bytes.length));
      const r = packet(AUDIO_HEADER + part.length, T_DATA, 0, link.radioId, link.clientId);
      r.writeUInt16LE(0x0080, 0x10);
      r.writeUInt16BE(s.audioSendSeq, 0x12);
      s.audioSendSeq = (s.audioSendSeq + 1) & 0xffff;
      r.writeUInt16BE(part.length, 0x16);
      part.copy(r, AUDIO_HEADER);
      this.sendTracked(link, r);
    }
  }

  /** Stops the pump and resolves every pending playRx (the client went away). */
  private finishRx(): void {
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    this.pumpTimer = null;
    for (const q of this.rxQueue.splice(0)) q.done();
  }
}

function checkP(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`probability ${p} is not in 0..1`);
  return p;
}

function record<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_RECORDS) list.splice(0, list.length - MAX_RECORDS);
}

const hex8 = (v: number) => `0x${v.toString(16).padStart(2, '0')}`;
const hex32 = (v: number) => `0x${v.toString(16).padStart(8, '0')}`;

function bindLoopback(): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    sock.once('error', reject);
    sock.bind(0, '127.0.0.1', () => {
      sock.off('error', reject);
      sock.on('error', () => {});
      sock.unref();
      resolve(sock);
    });
  });
}
