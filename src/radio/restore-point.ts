import type { RadioController } from './controller.js';
import type { RigSnapshot } from './rig.js';
import { AppError, errorMessage } from '../util/errors.js';

// The rig as the operator had it before the appliance's first manual write (Apply now, a manual
// pair, auto-track) since connect. Those writes open the squelch, turn the scope on and set
// split, and unlike the pass-pinned session nothing would ever put them back: this keeps the
// one snapshot, taken with the rig driver's own snapshot/restore, until the operator restores
// it (POST /api/v1/radio/restore) or disconnects. runtime.restore_available says it is there.

export const noSnapshot = () =>
  new AppError(
    409,
    'no_snapshot',
    'nothing to restore: no manual apply, pair or auto-track since connect (or the rig did not answer the snapshot reads then); the pass session restores its own snapshot when it ends',
  );

export class RestorePoint {
  private snap: RigSnapshot | null = null;
  /** The capture under way: two writes at once must not both snapshot (the later would see the earlier's write). */
  private pending: Promise<void> | null = null;
  /** Bumped on drop: a capture that finishes after a disconnect is not kept. */
  private epoch = 0;

  constructor(private readonly controller: RadioController) {}

  get available(): boolean {
    return this.snap !== null;
  }

  /** Before a manual write: captures the rig once; a rig that cannot is still written, without restore. */
  async captureOnce(): Promise<void> {
    if (this.snap) return;
    const epoch = this.epoch;
    this.pending ??= this.controller
      .snapshot()
      .then((s) => {
        if (epoch === this.epoch) this.set(s);
      })
      .catch((err) => this.controller.fail('op', `rig snapshot not captured ("restore the rig" will not be offered): ${errorMessage(err)}`))
      .finally(() => (this.pending = null));
    await this.pending;
  }

  /** Puts the snapshot back; false (last_error says why) when the rig refused, the snapshot kept for another try. */
  async restore(): Promise<boolean> {
    const snap = this.snap;
    if (!snap) throw noSnapshot();
    const ok = await this.controller.restore(snap);
    if (ok) this.set(null);
    return ok;
  }

  /** Disconnect: the next connection may be a different rig, or the same one changed by hand. */
  drop(): void {
    this.epoch++;
    this.set(null);
  }

  private set(s: RigSnapshot | null): void {
    this.snap = s;
    this.controller.patch({ restore_available: s !== null });
  }
}
