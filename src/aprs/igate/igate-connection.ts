import type net from 'node:net';
import { AprsIsClient, type AprsIsClientOptions, type AprsIsStatus } from './aprs-is-client.js';
import type { Clock } from '../../util/clock.js';

// The iGate's APRS-IS connection as the APRS service wants it: ensure(config) keeps one client
// running with exactly that config (a changed server, login or filter starts a new one),
// stop() lets it go. Status reads "stopped" while there is none.

/** The client options the iGate settings decide (clock and software identity are the link's). */
export type IgateConfig = Pick<AprsIsClientOptions, 'host' | 'port' | 'callsign' | 'passcode' | 'filter' | 'connectTimeoutMs'>;

const STOPPED: AprsIsStatus = { status: 'stopped', connected: false, verified: null, server: null, last_connect_at: null, last_error: null, lines_sent: 0, lines_received: 0, lines_dropped: 0 };

export class IgateConnection {
  private client: AprsIsClient | null = null;
  private key = '';
  private lastStatus: AprsIsStatus = STOPPED;

  constructor(private readonly o: { clock: Clock; version: string; connect?: (host: string, port: number) => net.Socket }) {}

  ensure(c: IgateConfig): void {
    const key = JSON.stringify(c);
    if (this.client && key === this.key) return;
    this.stop();
    this.key = key;
    this.client = new AprsIsClient({ ...c, clock: this.o.clock, software: 'satstation', version: this.o.version, connect: this.o.connect });
    this.client.start();
  }

  stop(): void {
    const c = this.client;
    if (!c) return;
    // Keep the last error and server visible after a stop: the operator wants to know why.
    this.lastStatus = { ...c.status(), status: 'stopped', connected: false };
    this.client = null;
    this.key = '';
    void c.stop();
  }

  send(line: string): boolean {
    return this.client?.send(line) ?? false;
  }

  status(): AprsIsStatus {
    return this.client?.status() ?? this.lastStatus;
  }
}
