import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { logger, parseLogLevel, setLogLevel, setLogSink } from '../../src/util/logger.js';
import { loadConfig } from '../../src/config.js';

describe('logger levels per namespace', () => {
  const lines: string[] = [];
  setLogSink((l) => lines.push(l));
  afterEach(() => {
    lines.length = 0;
    setLogLevel('silent');
  });

  it('a namespace rule covers its children and beats the default', () => {
    setLogLevel('warn,radio=info,radio:civ=debug');
    const civ = logger('radio:civ');
    const link = logger('radio:link');
    const app = logger('app');
    civ.debug('civ debug');
    link.debug('link debug');
    link.info('link info');
    app.info('app info');
    app.warn('app warn');
    assert.deepEqual(
      lines.map((l) => l.replace(/^\S+ /, '')),
      ['DEBUG [radio:civ] civ debug', 'INFO  [radio:link] link info', 'WARN  [app] app warn'],
    );
    assert.equal(logger('radios').enabled('info'), false, 'a prefix is not a parent');
  });

  it('lazy debug messages are never built when debug is off', () => {
    setLogLevel('info');
    let built = 0;
    logger('radio:civ').debug(() => `frame ${++built}`);
    assert.equal(built, 0);
    setLogLevel('info,radio:civ=debug');
    logger('radio:civ').debug(() => `frame ${++built}`);
    assert.equal(built, 1);
  });

  it('an invalid spec is refused by config and ignored by setLogLevel', () => {
    assert.equal(parseLogLevel('loud'), null);
    assert.equal(parseLogLevel('info,radio=loud'), null);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'info,radio:civ=chatty' }), /LOG_LEVEL/);
    assert.equal(loadConfig({ LOG_LEVEL: 'info,radio:civ=debug' }).logLevel, 'info,radio:civ=debug');
    setLogLevel('error');
    setLogLevel('nonsense');
    assert.equal(logger('x').enabled('warn'), false);
    assert.equal(logger('x').enabled('error'), true);
  });
});
