import { rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router } from '../src/http/router.js';
import { route } from '../src/http/route.js';
import { JsonStore } from '../src/store/json-store.js';
import { GpsSettingsSchema, defaultGpsSettings } from '../src/station/gps-settings.js';
import { medianMs, type Suite } from './harness.js';

export const coreSuite: Suite = {
  name: 'foundation: router and state store',
  async run() {
    const router = new Router();
    const paths = ['/health', '/docs', '/api/v1/live', '/api/v1/passes', '/api/v1/system/state', '/api/v1/lite/snapshot'];
    for (let i = 0; i < 60; i++) paths.push(`/api/v1/area${i}/thing`);
    for (const p of paths) {
      router.add(route({ method: 'GET', path: p, tag: 'b', summary: '', handler: () => null }));
      router.add(route({ method: 'POST', path: p, tag: 'b', summary: '', handler: () => null }));
    }
    let sink = 0;
    const dispatchMs = await medianMs('router dispatch x1000', () => {
      for (let i = 0; i < 1000; i++) {
        const m = router.match('GET', paths[i % paths.length]);
        if (m.kind === 'found') sink++;
      }
    });
    const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
    const store = new JsonStore({ dir, name: 'gps', schema: GpsSettingsSchema, defaults: defaultGpsSettings });
    let ch = 1;
    const writeMs = await medianMs('state write (atomic, fsync)', async () => {
      ch = (ch % 30) + 1;
      await store.update({ bluetooth_channel: ch });
    }, { time: 1000 });
    const unchangedMs = await medianMs('state write, unchanged (skipped)', async () => {
      await store.update({ bluetooth_channel: ch });
    });
    rmSync(dir, { recursive: true, force: true });
    void sink;
    return [
      { name: 'router dispatch (per request)', value: (dispatchMs * 1000) / 1000, unit: 'µs', budget: 1 },
      { name: 'state write: validate + temp + fsync + rename + dir fsync', value: writeMs, unit: 'ms', budget: 20 },
      { name: 'state write with no change (skipped)', value: unchangedMs * 1000, unit: 'µs', budget: 50 },
    ];
  },
};
