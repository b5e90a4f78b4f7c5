// An ML-DSA vbmeta checked by @noble/post-quantum (ml_dsa65, ml_dsa87),
// not by fastverity's code, for tests/cli/t_avb_mldsa.sh:
//   node avb_noble.mjs NOBLE_DIR IMAGE [BLOB]
// IMAGE: a vbmeta image, or an image ending in an AVB footer (not a
// sparse one). The signature (pure ML-DSA, empty context) is checked over
// the 256-byte header and the auxiliary block under the key the vbmeta
// carries; with BLOB (an AVB public-key blob), that key must be BLOB.
// Exit 0: it holds; 1: it does not (one line says why); 2: bad usage.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, image, blobFile] = process.argv.slice(2);
if (!dir || !image) {
  process.stderr.write('usage: node avb_noble.mjs NOBLE_DIR IMAGE [BLOB]\n');
  process.exit(2);
}
const noble = await import(
  pathToFileURL(join(resolve(dir), 'node_modules', '@noble', 'post-quantum', 'ml-dsa.js')).href);
const no = (why) => {
  process.stderr.write(`avb_noble: ${image}: ${why}\n`);
  process.exit(1);
};
const u64 = (b, at) => {
  const v = b.readBigUInt64BE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) no(`a size of ${v} bytes`);
  return Number(v);
};

const file = readFileSync(image);
let vb = file;
const tail = file.subarray(file.length - 64);
if (file.length >= 64 && tail.subarray(0, 4).toString('latin1') === 'AVBf') {
  const off = u64(tail, 20), size = u64(tail, 28);
  if (off + size > file.length) no('the footer points past the end');
  vb = file.subarray(off, off + size);
}
if (vb.length < 256 || vb.subarray(0, 4).toString('latin1') !== 'AVB0') no('no vbmeta');
const authSize = u64(vb, 12), auxSize = u64(vb, 20);
const alg = vb.readUInt32BE(28);
const levels = { 7: ['ml_dsa65', 3309, 1952], 8: ['ml_dsa87', 4627, 2592] };
if (!levels[alg]) no(`algorithm ${alg} is not ML-DSA`);
const [name, sigBytes, pkBytes] = levels[alg];
const sigOff = u64(vb, 48), sigSize = u64(vb, 56), keyOff = u64(vb, 64), keySize = u64(vb, 72);
if (256 + authSize + auxSize > vb.length) no('the blocks run past the vbmeta');
if (u64(vb, 40) !== 0 || sigSize !== sigBytes || keySize !== 4 + pkBytes) no('sizes that are not ML-DSA\'s');
const auth = vb.subarray(256, 256 + authSize);
const aux = vb.subarray(256 + authSize, 256 + authSize + auxSize);
if (sigOff + sigSize > auth.length || keyOff + keySize > aux.length) no('a field past its block');
const blob = aux.subarray(keyOff, keyOff + keySize);
if (blob.readUInt32BE(0) !== pkBytes) no(`a key of ${blob.readUInt32BE(0)} bytes`);
if (blobFile && !readFileSync(blobFile).equals(blob)) no(`the key is not ${blobFile}`);
const msg = Buffer.concat([vb.subarray(0, 256), aux]);
let ok = false;
try {
  ok = noble[name].verify(auth.subarray(sigOff, sigOff + sigSize), msg, blob.subarray(4));
} catch (e) {
  no(`noble: ${e.message}`);
}
if (!ok) no('the signature does not hold');
process.stdout.write(`${image}: ${name} signature holds\n`);
