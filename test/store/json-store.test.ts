import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { JsonStore, StoreValidationError } from '../../src/store/json-store.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';
import { tmpDataDir } from '../helpers/server.js';

setLogLevel('silent');

const Schema = v.object({ n: v.number(), name: v.string(), nested: v.object({ a: v.number(), b: v.number() }) });
const defaults = () => ({ n: 0, name: 'x', nested: { a: 1, b: 2 } });

describe('JsonStore', () => {
  it('missing file means defaults; writes then reloads', async () => {
    const dir = tmpDataDir();
    const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    assert.deepEqual(s.get(), defaults());
    assert.equal(existsSync(join(dir, 'r.json')), false);
    await s.update({ n: 5, nested: { b: 9 } });
    assert.deepEqual(s.get(), { n: 5, name: 'x', nested: { a: 1, b: 9 } });
    const again = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    assert.deepEqual(again.get(), { n: 5, name: 'x', nested: { a: 1, b: 9 } });
  });

  it('a rejected update changes nothing in memory or on disk', async () => {
    const dir = tmpDataDir();
    const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    await s.update({ n: 1 });
    const before = readFileSync(join(dir, 'r.json'), 'utf8');
    await assert.rejects(s.update({ n: 'nope' }), StoreValidationError);
    assert.equal(s.get().n, 1);
    assert.equal(readFileSync(join(dir, 'r.json'), 'utf8'), before);
  });

  it('skips the write when nothing changed', async () => {
    const dir = tmpDataDir();
    const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    await s.update({ n: 2 });
    const path = join(dir, 'r.json');
    // Proof that no write happened: replace the file behind the store's back; an unchanged update must not rewrite it.
    writeFileSync(path, '{"sentinel":true}');
    await s.update({ n: 2 });
    assert.equal(readFileSync(path, 'utf8'), '{"sentinel":true}');
  });

  it('serializes concurrent writes: the last one wins on disk', async () => {
    const dir = tmpDataDir();
    const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    await Promise.all(Array.from({ length: 50 }, (_, i) => s.update({ n: i })));
    assert.equal(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).n, 49);
    assert.deepEqual(readdirSync(dir), ['r.json']);
  });

  for (const [label, content] of [
    ['truncated JSON', '{"n": 3, "name": "ab'],
    ['valid JSON failing the schema', '{"n": "three"}'],
    ['binary garbage', '\u0000\u0001\u0002'],
  ] as const) {
    it(`a ${label} file is moved aside, defaults used, a warning logged`, () => {
      const dir = tmpDataDir();
      writeFileSync(join(dir, 'r.json'), content);
      const lines: string[] = [];
      setLogSink((l) => lines.push(l));
      setLogLevel('warn');
      try {
        const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults, now: () => Date.parse('2026-01-02T03:04:05.678Z') });
        assert.deepEqual(s.get(), defaults());
      } finally {
        setLogLevel('silent');
        setLogSink((l) => process.stdout.write(l + '\n'));
      }
      const aside = readdirSync(dir).filter((f) => f.startsWith('r.json.corrupt-'));
      assert.deepEqual(aside, ['r.json.corrupt-2026-01-02T03-04-05-678Z']);
      assert.equal(readFileSync(join(dir, aside[0]), 'utf8'), content);
      assert.ok(lines.some((l) => l.includes('WARN') && l.includes('moved aside')));
    });
  }

  it('fields added by a newer version get defaults instead of quarantine', () => {
    const dir = tmpDataDir();
    writeFileSync(join(dir, 'r.json'), '{"n": 7}');
    const s = new JsonStore({ dir, name: 'r', schema: Schema, defaults });
    assert.deepEqual(s.get(), { n: 7, name: 'x', nested: { a: 1, b: 2 } });
    assert.deepEqual(readdirSync(dir), ['r.json']);
  });

  it('survives kill -9 at any moment: every file stays parseable', async () => {
    const dir = tmpDataDir();
    const writer = join(import.meta.dirname, 'fixtures', 'writer.ts');
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
      });
      await new Promise((r) => setTimeout(r, 5 + ((round * 37) % 60)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      for (const name of ['a', 'b', 'c']) {
        const text = readFileSync(join(dir, `${name}.json`), 'utf8');
        const parsed = JSON.parse(text); // throws if torn
        assert.equal(typeof parsed.n, 'number');
      }
    }
    // Loading again cleans stale temp files and finds nothing corrupt.
    const SchemaW = v.object({ n: v.number(), pad: v.string(), list: v.array(v.number()) });
    for (const name of ['a', 'b', 'c']) {
      const s = new JsonStore({ dir, name, schema: SchemaW, defaults: () => ({ n: -1, pad: '', list: [] }) });
      assert.ok(s.get().n > 0);
    }
    assert.deepEqual(readdirSync(dir).sort(), ['a.json', 'b.json', 'c.json']);
  });
});
