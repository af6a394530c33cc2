import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SETTINGS_GROUPS } from '../../ui/components/settings/settings-groups.js';

// Issue 33: the README says where each setting lives. Its addresses must open a group (both
// settings pages open /settings#<group>), and every group must be in its table.

const readme = readFileSync('README.md', 'utf8');
const known = new Set(SETTINGS_GROUPS.flatMap((g) => [g.id, ...(g.aliases ?? [])]));

describe('README: where each setting lives', () => {
  it('opens with the first evening', () => {
    assert.equal(/^## (.+)$/m.exec(readme)?.[1], 'First evening');
  });

  it('every /settings#… address it gives opens a settings group', () => {
    const addresses = [...readme.matchAll(/\/settings#([\w-]+)/g)].map((m) => m[1]);
    assert.ok(addresses.length >= 5, `${addresses.length} addresses`);
    assert.deepEqual(addresses.filter((a) => !known.has(a)), []);
  });

  it('lists every group in its table, by label and address', () => {
    for (const g of SETTINGS_GROUPS) assert.ok(readme.includes(`| ${g.label} (\`#${g.id}\`) |`), `${g.label} (#${g.id}) is not in the table`);
  });
});
