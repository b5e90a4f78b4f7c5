// The lines of tests/cli/mldsa_tool.c answered by @noble/post-quantum
// (ml_dsa65, ml_dsa87), for tests/cli/t_mldsa.sh:
//   node mldsa_noble.mjs NOBLE_DIR < commands > answers
// plus "gen LEVEL COUNT": COUNT lines "SEED MSG" of random bytes (the
// message 0 to 400 bytes, "-" when empty).
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
const noble = await import(
  pathToFileURL(join(resolve(dir), 'node_modules', '@noble', 'post-quantum', 'ml-dsa.js')).href);
const alg = (level) => {
  if (level !== '65' && level !== '87') throw new Error(`level ${level}`);
  return noble[`ml_dsa${level}`];
};
const unhex = (s) => (s === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(s, 'hex')));
const hex = (b) => Buffer.from(b).toString('hex');
const out = [];
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const t = line.trim().split(/\s+/);
  n++;
  try {
    if (t[0] === 'gen') {
      for (let i = 0; i < Number(t[2]); i++) {
        const len = randomBytes(2).readUInt16LE(0) % 401;
        out.push(`${hex(randomBytes(32))} ${len ? hex(randomBytes(len)) : '-'}`);
      }
    } else if (t[0] === 'pk') {
      out.push(hex(alg(t[1]).keygen(unhex(t[2])).publicKey));
    } else if (t[0] === 'sign') {
      const { secretKey } = alg(t[1]).keygen(unhex(t[2]));
      out.push(hex(alg(t[1]).sign(unhex(t[3]), secretKey, t[4] === 'det' ? { extraEntropy: false } : {})));
    } else if (t[0] === 'verify') {
      let ok = false;
      try {
        ok = alg(t[1]).verify(unhex(t[4]), unhex(t[3]), unhex(t[2]));
      } catch {
        ok = false;
      }
      out.push(ok ? 'ok' : 'bad');
    } else {
      throw new Error('unknown command');
    }
  } catch (e) {
    process.stderr.write(`mldsa_noble: line ${n}: ${e.message}\n`);
    process.exit(2);
  }
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
