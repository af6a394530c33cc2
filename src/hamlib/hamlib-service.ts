import { startLineServer, type LineClient, type LineServer } from './line-server.js';
import { newRigSession, serveRigLine, serveRotLine, type RigSession, type RotDescription } from './protocol/serve-line.js';
import { answerRig, type RigAnswerDeps, type RigClientState } from './answer-rig.js';
import { answerRot } from './answer-rot.js';
import { rigDescriptionOf } from './rig-description.js';
import type { ExternalRig, ExternalRotator, PttBlock } from './station-equipment.js';
import type { HamlibSettings, HamlibSettingsSchema } from './settings.js';
import type { HamlibConnection, HamlibRuntime } from './schemas.js';
import type { JsonStore } from '../store/json-store.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { OneAtATime } from '../util/queue.js';
import { logger } from '../util/logger.js';

// The Hamlib servers (issue 26): rigctld and rotctld, each a bounded line server (line-server.ts)
// answering with the protocol module and the station's rig and rotator. They follow their
// settings without a restart: a changed port, address or switch closes the old listener and
// opens the new one. A port another program holds is reported in last_error and tried again.

const log = logger('hamlib');

/** Hamlib clients have no business sending more (the longest command line is well under 100 bytes). */
export const MAX_LINE_BYTES = 1024;
export const MAX_CLIENTS = 16;
const RETRY_MS = 15_000;

type Kind = 'rigctld' | 'rotctld';

export interface HamlibServiceDeps {
  clock: Clock;
  store: JsonStore<typeof HamlibSettingsSchema>;
  rig: ExternalRig;
  rot: ExternalRotator;
  /** The station's transmit rules for a network PTT, beyond allow_ptt (emergency stop, lock, callsign). */
  pttBlock: PttBlock;
  /** The runtime changed (a listener opened or closed, a client came or went, a refusal): HamlibArea.onChange. */
  changed?: () => void;
}

interface Listener {
  /** "host:port" it listens on. */
  key: string;
  server: LineServer | null;
  error: string | null;
}

export class HamlibService {
  readonly name = 'hamlib';
  private readonly listeners: Record<Kind, Listener> = { rigctld: { key: '', server: null, error: null }, rotctld: { key: '', server: null, error: null } };
  private readonly rigClients = new Map<number, { proto: RigSession; state: RigClientState }>();
  private readonly connections = new Map<string, HamlibConnection>();
  private readonly reconciles = new OneAtATime(4);
  private retry: Timer | null = null;
  private lastRefusal: string | null = null;
  private unsubscribe: () => void = () => {};
  private stopped = false;
  private readonly rigDeps: RigAnswerDeps;

  constructor(private readonly d: HamlibServiceDeps) {
    this.rigDeps = {
      rig: d.rig,
      pttBlock: () => (this.settings().allow_ptt ? d.pttBlock() : 'allow_ptt is off in the Hamlib settings'),
      onRefused: (why) => {
        log.warn(why);
        this.lastRefusal = why;
        d.changed?.();
      },
      onKeyed: () => {
        this.lastRefusal = null;
        d.changed?.();
      },
    };
  }

  settings(): HamlibSettings {
    return this.d.store.get();
  }

  runtime(): HamlibRuntime {
    const rig = this.listeners.rigctld;
    const rot = this.listeners.rotctld;
    return {
      rigctld_listening: rig.server !== null,
      rotctld_listening: rot.server !== null,
      clients: this.connections.size,
      connections: [...this.connections.values()],
      last_error: rig.error ?? rot.error ?? this.lastRefusal,
    };
  }

  async start(): Promise<void> {
    this.unsubscribe = this.d.store.onChange(() => void this.reconcile());
    await this.reconcile();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.retry?.cancel();
    await this.reconciles.run(async () => {
      await this.close('rigctld');
      await this.close('rotctld');
    });
  }

  /** The emergency stop: every rigctld client is dropped at once (they may connect again; PTT stays refused while the stop is in force). */
  dropRigClients(): void {
    this.listeners.rigctld.server?.dropAll();
  }

  /** Brings both listeners in line with the settings, one reconcile at a time. */
  reconcile(): Promise<void> {
    return this.reconciles.run(async () => {
      if (this.stopped) return;
      const s = this.settings();
      await this.follow('rigctld', s.rigctld_enabled, s.bind_host, s.rigctld_port);
      await this.follow('rotctld', s.rotctld_enabled, s.bind_host, s.rotctld_port);
      const failed = this.listeners.rigctld.error !== null || this.listeners.rotctld.error !== null;
      if (failed && !this.retry) {
        this.retry = this.d.clock.setTimeout(() => {
          this.retry = null;
          for (const l of Object.values(this.listeners)) if (l.error) l.key = ''; // try the failed one again
          void this.reconcile();
        }, RETRY_MS);
      }
      this.d.changed?.();
    });
  }

  private async follow(kind: Kind, enabled: boolean, host: string, port: number): Promise<void> {
    const l = this.listeners[kind];
    const key = enabled ? `${host}:${port}` : '';
    if (l.key === key) return;
    await this.close(kind);
    l.key = key;
    if (!enabled) return;
    const r = await startLineServer({
      host,
      port,
      maxClients: MAX_CLIENTS,
      maxLineBytes: MAX_LINE_BYTES,
      handle: kind === 'rigctld' ? (line, c) => this.rigLine(line, c) : (line) => this.rotLine(line),
      onOpen: (c) => this.opened(kind, c),
      onClose: (c) => this.closed(kind, c),
    });
    if (r.kind === 'failed') {
      l.error = `${kind}: ${r.message}${r.code === 'EADDRINUSE' ? ' (another program, perhaps Hamlib\'s own daemon, has the port)' : ''}; trying again`;
      log.warn(l.error);
      return;
    }
    l.server = r.server;
    l.error = null;
    log.info(`${kind} listening on ${host}:${r.server.port}`);
  }

  private async close(kind: Kind): Promise<void> {
    const l = this.listeners[kind];
    const server = l.server;
    l.server = null;
    l.error = null;
    l.key = '';
    if (server) {
      await server.close();
      log.info(`${kind} closed`);
    }
  }

  /** The port a listener got (tests ask for port 0). */
  portOf(kind: Kind): number | null {
    return this.listeners[kind].server?.port ?? null;
  }

  private opened(kind: Kind, c: LineClient): void {
    const name = `${kind} ${c.remote}`;
    this.connections.set(name, { server: kind, remote: c.remote, connected_at: iso(this.d.clock.now()) });
    if (kind === 'rigctld') this.rigClients.set(c.id, { proto: newRigSession(), state: { name, current: 'A' } });
    log.info(`${name} connected`);
    this.d.changed?.();
  }

  private closed(kind: Kind, c: LineClient): void {
    const name = `${kind} ${c.remote}`;
    this.connections.delete(name);
    if (kind === 'rigctld') {
      this.rigClients.delete(c.id);
      this.d.rig.externalRelease(name);
    }
    log.info(`${name} disconnected`);
    this.d.changed?.();
  }

  private async rigLine(line: string, c: LineClient) {
    const client = this.rigClients.get(c.id);
    if (!client) return null;
    const r = await serveRigLine(line, client.proto, rigDescriptionOf(this.d.rig.rigModel()), (req) => answerRig(req, client.state, this.rigDeps));
    client.proto = r.session;
    return r.close ? { last: r.reply } : r.reply;
  }

  private async rotLine(line: string) {
    const r = await serveRotLine(line, this.rotDescription(), (req) => answerRot(req, this.d.rot));
    return r.close ? null : r.reply;
  }

  private rotDescription(): RotDescription {
    return { model: 1, limits: { ...this.d.rot.travelLimits(), south_zero: false }, info: 'satstation rotator' };
  }
}
