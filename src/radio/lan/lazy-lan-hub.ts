import type { LanHub, LanHubDeps } from './lan-hub.js';
import type { LanEndpoint, LanLease, LanLeaser } from './lan-types.js';
import { LazyPart } from '../../util/lazy-part.js';

// The IC-705's LAN sessions as the radio and the APRS station see them: the hub (UDP sockets,
// the session and audio code) is loaded on the first lease, so a station on USB never loads it.

export class LazyLanHub implements LanLeaser {
  readonly name = 'lan';
  private readonly hub: LazyPart<LanHub>;

  constructor(deps: LanHubDeps) {
    this.hub = new LazyPart('the IC-705 LAN transport', async () => new (await import('./lan-hub.js')).LanHub(deps));
  }

  /** Whether the hub has been loaded (for status and tests). */
  get loaded(): boolean {
    return this.hub.current !== null;
  }

  async lease(owner: string, e: LanEndpoint, rigAddr: number): Promise<LanLease> {
    return (await this.hub.get()).lease(owner, e, rigAddr);
  }

  async stop(): Promise<void> {
    await (await this.hub.settled())?.stop();
  }
}
