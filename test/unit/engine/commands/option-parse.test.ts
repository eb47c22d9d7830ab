/**
 * `set` and `shopt` read their arguments as bash does: an option's value is never a positional
 * parameter (`set -euo pipefail` leaves $1 alone), `-` and `--` end the options.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSet, parseShopt } from '../../../../src/engine/commands/option-parse.js';

describe('set', () => {
  it('`o` takes the next word as its name, in a word of several letters too', () => {
    expect(parseSet(['-euo', 'pipefail'])).toEqual({ changes: [{ letter: 'e', on: true }, { letter: 'u', on: true }, { name: 'pipefail', on: true }], positional: null });
    expect(parseSet(['-o', 'errexit', '+o', 'nounset'])).toEqual({ changes: [{ name: 'errexit', on: true }, { name: 'nounset', on: false }], positional: null });
    expect(parseSet(['-oo', 'a', 'b']).changes).toEqual([{ name: 'a', on: true }, { name: 'b', on: true }]);
  });

  it('`set -o` without a name lists the options and changes nothing', () => {
    expect(parseSet(['-o'])).toEqual({ changes: [], positional: null });
    expect(parseSet(['-o', '-e']).changes).toEqual([{ letter: 'e', on: true }]);
  });

  it('the first word that is not an option starts the positional parameters', () => {
    expect(parseSet(['-e', 'a', '-b']).positional).toBe(1);
    expect(parseSet(['--']).positional).toBe(1);
    expect(parseSet(['--', '-x']).positional).toBe(1);
    expect(parseSet(['-x', '-', 'a'])).toEqual({ changes: [{ letter: 'x', on: true }, { letter: 'x', on: false }, { letter: 'v', on: false }], positional: 2 });
    // `set -` alone leaves them as they are.
    expect(parseSet(['-']).positional).toBeNull();
    expect(parseSet([]).positional).toBeNull();
  });

  it('options alone never set positional parameters, whatever the letters', () => {
    const word = fc.tuple(fc.constantFrom('-', '+'), fc.stringMatching(/^[abefhkmnptuvxBCEHPT]{1,4}$/)).map(([s, l]) => s + l);
    fc.assert(
      fc.property(fc.array(fc.oneof(word, fc.tuple(fc.constantFrom('-o', '+o'), fc.constantFrom('pipefail', 'errexit', 'nounset'))), { maxLength: 6 }), (items) => {
        const args = items.flatMap((x) => (typeof x === 'string' ? [x] : x));
        expect(parseSet(args).positional).toBeNull();
      }),
    );
  });
});

describe('shopt', () => {
  it('letters combine and -o names set options', () => {
    expect(parseShopt(['-s', 'extglob', 'dotglob'])).toEqual({ on: true, setO: false, names: ['extglob', 'dotglob'] });
    expect(parseShopt(['-so', 'pipefail'])).toEqual({ on: true, setO: true, names: ['pipefail'] });
    expect(parseShopt(['-u', '-o', 'nounset'])).toEqual({ on: false, setO: true, names: ['nounset'] });
    expect(parseShopt(['-s', '--', 'nullglob']).names).toEqual(['nullglob']);
  });

  it('printing, querying, both -s and -u, or an unknown letter change nothing', () => {
    expect(parseShopt(['extglob']).on).toBeNull();
    expect(parseShopt(['-q', 'extglob']).on).toBeNull();
    expect(parseShopt(['-su', 'extglob']).on).toBeNull();
    expect(parseShopt(['-sz', 'extglob']).on).toBeNull();
  });
});
