import cron from 'node-cron';

// Whether node-cron takes an expression, without running node-cron's conversion for the forms the
// station's own schedules have. Its validate() converts month and weekday names with 38 regular
// expressions and expands every field (a few ms of CPU for the first ones, at boot: the dataset
// settings' three schedules are checked when their file loads and the scheduler's five when they
// are added). A minute and an hour that are each `*`, one number or `*/n`, any day of any month,
// and any weekday or one weekday, is valid by node-cron's own rules (test/util/cron-expression.test.ts
// checks each such form against it); anything else is node-cron's to judge.

const PLAIN = /^(\*|\*\/\d{1,2}|\d{1,2}) (\*|\*\/\d{1,2}|\d{1,2}) \* \* (\*|[0-7])$/;

/** `*`, `*\/n` with 1 ≤ n ≤ max, or n ≤ max. */
function plainField(f: string, max: number): boolean {
  if (f === '*') return true;
  const n = Number(f.startsWith('*/') ? f.slice(2) : f);
  return n <= max && (n >= 1 || !f.startsWith('*/'));
}

export function isCronExpression(expr: string): boolean {
  const m = PLAIN.exec(expr);
  if (m && plainField(m[1], 59) && plainField(m[2], 23)) return true;
  return cron.validate(expr);
}
