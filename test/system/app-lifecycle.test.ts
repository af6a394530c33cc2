import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/server.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';

// The composition root starts and stops its parts in two declared orders (src/app.ts), read here
// from its debug log on a real start and stop. A reorder must be a decision: it fails this test
// until the expected lists (and the reasons below, docs/decisions/composition-root.md) follow.

const START = ['location', 'catalog', 'datasets', 'orbit', 'guidance', 'scheduler', 'lan', 'radio', 'aprs', 'rotator', 'access', 'hamlib', 'recording', 'logbook', 'lite'];
const STOP = ['scheduler', 'lite', 'logbook', 'recording', 'hamlib', 'access', 'rotator', 'aprs', 'radio', 'lan', 'guidance', 'orbit', 'datasets', 'catalog', 'location'];

describe('the app starts and stops its parts in the declared orders', () => {
  it('start and stop run in the order declared, over the same parts', async () => {
    const lines: string[] = [];
    setLogSink((l) => lines.push(l));
    setLogLevel('silent,app=debug');
    try {
      const s = await startServer();
      await s.stop();
    } finally {
      setLogLevel('silent');
    }
    const seen = (verb: string) => lines.flatMap((l) => l.match(new RegExp(`\\[app\\] ${verb} (\\S+)$`))?.[1] ?? []);
    const started = seen('start');
    const stopped = seen('stop');
    assert.deepEqual(started, START);
    assert.deepEqual(stopped, STOP);
    assert.deepEqual([...stopped].sort(), [...started].sort(), 'every part started is stopped once');

    const before = (list: string[], a: string, b: string, why: string) => assert.ok(list.indexOf(a) < list.indexOf(b), `${a} before ${b}: ${why}`);
    before(started, 'datasets', 'scheduler', 'datasets registers its jobs when it starts');
    before(started, 'lan', 'radio', 'the radio leases the LAN hub');
    before(started, 'access', 'hamlib', 'a network PTT reads the operator lock');
    assert.equal(stopped[0], 'scheduler', 'no job starts mid-shutdown');
    before(stopped, 'hamlib', 'radio', 'network clients go before the rig they drive');
    before(stopped, 'hamlib', 'rotator', 'network clients go before the rotator they drive');
    before(stopped, 'hamlib', 'access', 'the PTT rule reads the lock while the servers run');
    before(stopped, 'rotator', 'radio', 'the rotator follows the radio session');
    before(stopped, 'radio', 'lan', 'the radio lets its LAN lease go first');
    before(stopped, 'aprs', 'lan', 'APRS lets its LAN lease go first');
    before(stopped, 'logbook', 'radio', 'the logbook stops before the areas a QSO is filled from');
    before(stopped, 'recording', 'lan', 'the recorder lets its LAN lease go first');
    before(stopped, 'recording', 'radio', 'the recorder ends its file while the radio it follows is still there');
    before(started, 'recording', 'logbook', 'a QSO logged at once can find the recording under way');
    assert.equal(started.at(-1), 'lite', 'the lite warm-up reads every area: they are all there');
    before(stopped, 'lite', 'logbook', 'a warm-up not yet run does not run while the areas stop');
  });
});
