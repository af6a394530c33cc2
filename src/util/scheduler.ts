// node-cron jobs with the habits every background job needs: one run at a time (an overlapping
// tick is skipped and logged), every run and failure logged, a failure never escapes (the job
// simply runs again at its next tick), and stop() ends them all (SIGTERM).
import cron, { type ScheduledTask } from 'node-cron';
import { isCronExpression } from './cron-expression.js';
import { logger } from './logger.js';
import { nextTurn, quietWithin } from './loop-slices.js';
import { monotonicMs } from './monotonic.js';

const log = logger('scheduler');

/** The longest a start waits for a quiet moment before it puts the jobs on node-cron anyway. */
export const SCHEDULE_WITHIN_MS = 10_000;

export interface JobInfo {
  name: string;
  cron: string;
  running: boolean;
  last_run_ms: number | null;
  last_error: string | null;
}

interface Job {
  info: JobInfo;
  fn: () => Promise<unknown> | unknown;
  task: ScheduledTask | null;
}

export class Scheduler {
  readonly name = 'scheduler';
  private jobs = new Map<string, Job>();
  private started = false;
  /** The jobs are on node-cron (a start's deferred half has run). */
  private live = false;
  /** Counts starts and stops: a deferred half of an earlier start does nothing. */
  private generation = 0;

  private pruneHooks: { name: string; fn: () => Promise<unknown> | unknown }[] = [];

  /**
   * `now` is the injected clock (job bookkeeping only; node-cron itself runs on wall time).
   * `after`: start() puts the jobs on node-cron once it has resolved (the server listening), at the
   * loop's first quiet moment after it or `withinMs` later at the latest.
   */
  constructor(
    private readonly now: () => number,
    private readonly after: Promise<unknown> = Promise.resolve(),
    private readonly withinMs = SCHEDULE_WITHIN_MS,
  ) {}

  /** Log pruning: each part registers what it prunes; the daily "log-pruning" job runs them all. */
  onPrune(name: string, fn: () => Promise<unknown> | unknown): void {
    this.pruneHooks.push({ name, fn });
  }

  /** Runs every prune hook; one failing hook is logged and does not stop the others. */
  async prune(): Promise<void> {
    for (const h of this.pruneHooks) {
      try {
        await h.fn();
      } catch (err) {
        log.error(`prune hook ${h.name} failed`, err);
      }
    }
  }

  /** Add or replace a job. Invalid expressions throw (validate settings before). */
  add(name: string, expression: string, fn: () => Promise<unknown> | unknown): void {
    if (!isCronExpression(expression)) throw new Error(`job ${name}: invalid cron expression "${expression}"`);
    this.remove(name);
    const job: Job = { info: { name, cron: expression, running: false, last_run_ms: null, last_error: null }, fn, task: null };
    this.jobs.set(name, job);
    if (this.live) this.schedule(job);
  }

  remove(name: string): void {
    const job = this.jobs.get(name);
    if (!job) return;
    void job.task?.destroy();
    this.jobs.delete(name);
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((j) => ({ ...j.info }));
  }

  /** Run a job now (tests, "run now" buttons); shares the overlap guard. */
  run(name: string): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    return this.runJob(job);
  }

  /**
   * The jobs go on node-cron after `after` and the loop's first quiet moment (SCHEDULE_WITHIN_MS
   * at the latest), not during the boot: node-cron's first schedule compiles its matchers and
   * walks each expression to its next tick (3–8 ms of CPU here, ten times that at a tenth of a
   * core) on the way to the first /health, for jobs whose nearest tick is minutes or days away. A
   * tick that falls in those first seconds is taken at the job's next one, as if the station had
   * started a few seconds later. One job a quiet turn: all five in one turn were a 30–130 ms block
   * at a tenth of a core, in front of whatever request came next.
   */
  start(): void {
    this.started = true;
    const generation = ++this.generation;
    void this.after.then(() => this.scheduleInTurns(generation));
  }

  private async scheduleInTurns(generation: number): Promise<void> {
    const deadline = monotonicMs() + this.withinMs;
    const current = () => this.started && generation === this.generation;
    for (const job of [...this.jobs.values()]) {
      await nextTurn();
      await quietWithin(Math.max(0, deadline - monotonicMs()));
      if (!current()) return;
      if (this.jobs.get(job.info.name) === job && !job.task) this.schedule(job);
    }
    if (!current()) return;
    this.live = true;
    for (const job of this.jobs.values()) if (!job.task) this.schedule(job); // added meanwhile
  }

  /** Whether the jobs are on node-cron yet (tests, diagnostics). */
  get scheduled(): boolean {
    return this.live;
  }

  async stop(): Promise<void> {
    this.started = false;
    this.live = false;
    this.generation++;
    for (const job of this.jobs.values()) {
      await job.task?.destroy();
      job.task = null;
    }
  }

  private schedule(job: Job): void {
    void job.task?.destroy();
    job.task = cron.schedule(job.info.cron, () => this.runJob(job), { name: job.info.name, noOverlap: false });
  }

  private async runJob(job: Job): Promise<boolean> {
    if (job.info.running) {
      log.warn(`${job.info.name}: previous run still going; this tick is skipped`);
      return false;
    }
    job.info.running = true;
    const t0 = monotonicMs();
    try {
      await job.fn();
      job.info.last_error = null;
      log.info(`${job.info.name}: done in ${Math.round(monotonicMs() - t0)} ms`);
      return true;
    } catch (err) {
      job.info.last_error = err instanceof Error ? err.message : String(err);
      log.error(`${job.info.name}: failed (retried at the next tick)`, err);
      return false;
    } finally {
      job.info.running = false;
      job.info.last_run_ms = this.now();
    }
  }
}
