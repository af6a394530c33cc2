// An AbortController made at its signal's first use. The first `new AbortController()` of a
// process reads Node's abort_controller module (~0.7 ms of CPU here); the services that keep one
// to end their jobs at a stop made it at boot, where no job needs it yet.

export class LazyAbort {
  private controller: AbortController | null = null;
  private done = false;

  /** Whether abort() has been called (makes nothing). */
  get aborted(): boolean {
    return this.done;
  }

  /** The signal, aborted already when abort() came first. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    this.done = true;
    this.controller?.abort();
  }
}
