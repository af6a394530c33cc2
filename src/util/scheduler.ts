// node-cron jobs with the habits every background job needs: one run at a time (an overlapping
// tick is skipped and logged), every run and failure logged, a failure never escapes (the job
// simply runs again at its next tick), and stop() ends them all (SIGTERM).
import cron, { type ScheduledTask } from 'node-cron';
import { logger } from './logger.js';
import { monotonicMs } from './monotonic.js';

const log = logger('scheduler');

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

  private pruneHooks: { name: string; fn: () => Promise<unknown> | unknown }[] = [];

  /** `now` is the injected clock (job bookkeeping only; node-cron itself runs on wall time). */
  constructor(private readonly now: () => number) {}

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
    if (!cron.validate(expression)) throw new Error(`job ${name}: invalid cron expression "${expression}"`);
    this.remove(name);
    const job: Job = { info: { name, cron: expression, running: false, last_run_ms: null, last_error: null }, fn, task: null };
    this.jobs.set(name, job);
    if (this.started) this.schedule(job);
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

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) this.schedule(job);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const job of this.jobs.values()) {
      await job.task?.destroy();
      job.task = null;
    }
  }

  private schedule(job: Job): void {
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
