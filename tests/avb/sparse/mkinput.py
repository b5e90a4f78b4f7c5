#!/usr/bin/env python3
"""mkinput.py LABEL BLOCKS HOLE_BLOCKS OUT

Writes the raw image the sparse goldens' inputs are made from (README.md
here): BLOCKS blocks of 4096 bytes and then HOLE_BLOCKS never written.
Block i is picked by the first byte v of SHA-256("LABEL:block:i"): below
140, data (SHA-256 of "LABEL:i:0", "LABEL:i:1"... end to end); below
200, zeros; below 225, the first 4 bytes of SHA-256("LABEL:fill:i")
repeated; else a hole. img2simg then makes the sparse input (RAW chunks
for data, FILL chunks for zeros, patterns and holes alike)."""
import hashlib
import sys

BLOCK = 4096


def sha(text):
    return hashlib.sha256(text.encode()).digest()


def data_block(label):
    out = bytearray()
    n = 0
    while len(out) < BLOCK:
        out += sha('%s:%d' % (label, n))
        n += 1
    return bytes(out[:BLOCK])


def main():
    label, blocks, holes, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(out, 'wb') as f:
        for i in range(blocks):
            v = sha('%s:block:%d' % (label, i))[0]
            if v < 140:
                f.write(data_block('%s:%d' % (label, i)))
            elif v < 200:
                f.write(bytes(BLOCK))
            elif v < 225:
                f.write(sha('%s:fill:%d' % (label, i))[:4] * (BLOCK // 4))
            else:
                f.seek(BLOCK, 1)
        f.seek(BLOCK * holes, 1)
        f.truncate()


if __name__ == '__main__':
    main()
