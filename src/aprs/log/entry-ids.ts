// Entry ids: `<13-digit epoch ms>-<4-digit counter>`. They sort as text and never go back, even
// when the clock does (a Pi without RTC boots at its last saved time): the newest id seen, the
// last one on file included, is the floor for the next.

const ID = /^(\d{13})-(\d{4})$/;

export class EntryIds {
  private lastMs = -1;
  private lastSeq = -1;

  /** The id for an entry received at `nowMs` (this clock's now). */
  next(nowMs: number): string {
    let ms = Math.max(0, Math.floor(nowMs), this.lastMs);
    let seq = ms === this.lastMs ? this.lastSeq + 1 : 0;
    if (seq > 9999) {
      ms++;
      seq = 0;
    }
    this.lastMs = ms;
    this.lastSeq = seq;
    return `${String(ms).padStart(13, '0')}-${String(seq).padStart(4, '0')}`;
  }

  /** Raises the floor to an id read back from the file; ids of another shape are ignored. */
  note(id: string): void {
    const m = ID.exec(id);
    if (!m) return;
    const ms = Number(m[1]);
    const seq = Number(m[2]);
    if (ms > this.lastMs || (ms === this.lastMs && seq > this.lastSeq)) {
      this.lastMs = ms;
      this.lastSeq = seq;
    }
  }
}
