import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import cron from 'node-cron';
import { isCronExpression } from '../../src/util/cron-expression.js';

// The quick path must never call valid what node-cron refuses, nor refuse what it takes: every
// form it answers for is checked against node-cron itself.
const minutes = ['*', ...Array.from({ length: 100 }, (_, n) => String(n)), ...Array.from({ length: 100 }, (_, n) => `*/${n}`), '05', '*/07'];
const hours = ['*', ...Array.from({ length: 30 }, (_, n) => String(n)), ...Array.from({ length: 30 }, (_, n) => `*/${n}`)];
const weekdays = ['*', ...Array.from({ length: 10 }, (_, n) => String(n))];

describe('isCronExpression', () => {
  it('agrees with node-cron on every minute, hour and weekday of the plain forms', () => {
    let checked = 0;
    for (const m of minutes) {
      for (const h of hours) {
        // Every weekday with a few hours, every hour with a few weekdays: ~45k node-cron checks
        // would take seconds; the fields are judged independently.
        for (const w of h === '*' || h === '3' || h === '*/12' ? weekdays : ['*', '1']) {
          const expr = `${m} ${h} * * ${w}`;
          assert.equal(isCronExpression(expr), cron.validate(expr), expr);
          checked++;
        }
      }
    }
    assert.ok(checked > 10_000);
  });

  it('leaves every other form to node-cron', () => {
    for (const expr of ['17 4 1 * *', '0 0 31 2 *', '0 12 * jan mon', '0 0 * * 1-5', '*/5 9-17 * * *', '1,31 * * * *', '0  4 * * *', ' 17 4 * * *', '0 0 0 * * *', '60 * * * *', 'nonsense', '', '@daily', '0 0 * * 8']) {
      assert.equal(isCronExpression(expr), cron.validate(expr), expr);
    }
  });

  it('takes the station’s own schedules without node-cron’s conversion', () => {
    const validate = cron.validate;
    let calls = 0;
    cron.validate = (e: string) => (calls++, validate(e));
    try {
      for (const expr of ['17 4 * * *', '43 */12 * * *', '29 5 * * 1', '23 3 * * *', '*/15 * * * *']) assert.equal(isCronExpression(expr), true, expr);
      assert.equal(calls, 0);
      assert.equal(isCronExpression('0 0 * * 1-5'), true);
      assert.equal(calls, 1, 'a range is node-cron\'s to judge');
    } finally {
      cron.validate = validate;
    }
  });
});
