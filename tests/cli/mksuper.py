#!/usr/bin/env python3
"""Writes Android super images for the tests, from the format
(docs/android.md, "Factory images and super.img"): Debian has no lpmake.

    mksuper.py SPEC.json OUT
    mksuper.py --patch IMAGE geometry|header|tables OFFSET FORMAT VALUE
    mksuper.py --merge IMAGE OTHER backup|slot1

--patch writes VALUE (struct FORMAT, e.g. "<I" 7, or "s" for text)
at OFFSET of the geometry, the metadata header or its tables in every
copy of every slot, and sets the checksums again: metadata that is well
formed and says something false.

--merge takes OTHER's metadata (two images of one geometry) into IMAGE:
every slot's backup copies (backup), or slot 1's two copies (slot1);
and OTHER's data blocks where IMAGE's are zeros: one image whose copies
or slots say different things, each true of its own data.

SPEC: {"device_size": bytes of block device 0 (the image),
       "metadata_size": 65536, "slots": 2, "minor": 0..2, "flags": 0,
       "block_devices": [{"name": "super_1", "size": N, "file": PATH}]
                         (further devices of a split super),
       "groups": [{"name": "main_a", "max": 0, "flags": 0}],
       "partitions": [{"name": "system_a", "attrs": 1, "group": "main_a",
                       "image": PATH (its bytes, whole sectors),
                       "split": true (two extents, 1 MiB apart),
                       "device": 1 (on block device 1),
                       "at": SECTOR (placed there, not after the last),
                       "extents_of": NAME (NAME's extent entries, shared),
                       "zero": N (then N zero sectors)}]}
Partitions with no image have no extents (the empty _b twins). Data
starts 1 MiB-aligned after the metadata, as lpmake places it."""
import hashlib
import json
import os
import struct
import sys

SECTOR = 512
MIB = 1 << 20


def name36(s):
    b = s.encode()
    assert len(b) <= 36
    return b + b"\0" * (36 - len(b))


def main():
    spec = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    meta_size = spec.get("metadata_size", 65536)
    slots = spec.get("slots", 2)
    minor = spec.get("minor", 0)
    flags = spec.get("flags", 0)
    size0 = spec["device_size"]
    meta_end = 4096 * 3 + 2 * slots * meta_size
    first = -(-meta_end // MIB) * MIB
    devices = [{"name": "super", "size": size0, "first": first}]
    for b in spec.get("block_devices", []):
        devices.append({"name": b["name"], "size": b["size"],
                        "first": 0, "file": b["file"]})
    groups = spec.get("groups") or [{"name": "default"}]
    gindex = {g["name"]: i for i, g in enumerate(groups)}
    # the bytes each device holds
    data = [bytearray(size0)] + [bytearray(d["size"]) for d in devices[1:]]
    cursor = [d["first"] for d in devices]
    parts, extents = [], []
    where = {}
    for p in spec["partitions"]:
        first_extent = len(extents)
        if p.get("extents_of"):
            first_extent, count = where[p["extents_of"]]
            parts.append(name36(p["name"]) + struct.pack(
                "<IIII", p.get("attrs", 1), first_extent, count,
                gindex[p.get("group", "default")]))
            continue
        if p.get("image"):
            body = open(p["image"], "rb").read()
            assert len(body) % SECTOR == 0, p["image"]
            dev = p.get("device", 0)
            pieces = [body]
            if p.get("split"):
                half = (len(body) // 2) // 4096 * 4096
                pieces = [body[:half], body[half:]]
            for k, piece in enumerate(pieces):
                at = cursor[dev]
                if k:
                    at += MIB  # a gap: the extents are not contiguous
                if "at" in p:
                    at = p["at"] * SECTOR
                data[dev][at:at + len(piece)] = piece
                extents.append((len(piece) // SECTOR, 0, at // SECTOR, dev))
                cursor[dev] = max(cursor[dev],
                                  -(-(at + len(piece)) // MIB) * MIB)
        if p.get("zero"):
            extents.append((p["zero"], 1, 0, 0))
        where[p["name"]] = (first_extent, len(extents) - first_extent)
        parts.append(name36(p["name"]) + struct.pack(
            "<IIII", p.get("attrs", 1), first_extent,
            len(extents) - first_extent, gindex[p.get("group", "default")]))
    ptab = b"".join(parts)
    etab = b"".join(struct.pack("<QIQI", *e) for e in extents)
    gtab = b"".join(name36(g["name"]) + struct.pack(
        "<IQ", g.get("flags", 0), g.get("max", 0)) for g in groups)
    btab = b"".join(struct.pack("<QIIQ", d["first"] // SECTOR, MIB, 0,
                                d["size"]) + name36(d["name"]) +
                    struct.pack("<I", 0) for d in devices)
    tables = ptab + etab + gtab + btab
    hsize = 256 if minor >= 2 else 128
    descs = b""
    off = 0
    for t, esz in ((ptab, 52), (etab, 24), (gtab, 48), (btab, 64)):
        descs += struct.pack("<III", off, len(t) // esz, esz)
        off += len(t)
    head = struct.pack("<IHHI", 0x414C5030, 10, minor, hsize) + b"\0" * 32
    head += struct.pack("<I", len(tables)) + hashlib.sha256(tables).digest()
    head += descs
    if minor >= 2:
        head += struct.pack("<I", flags) + b"\0" * 124
    assert len(head) == hsize
    head = head[:12] + hashlib.sha256(head).digest() + head[44:]
    meta = head + tables
    assert len(meta) <= meta_size
    geo = struct.pack("<II", 0x616C4467, 52) + b"\0" * 32
    geo += struct.pack("<III", meta_size, slots, 4096)
    geo = geo[:8] + hashlib.sha256(geo).digest() + geo[40:]
    img = data[0]
    img[4096:4096 + 52] = geo
    img[8192:8192 + 52] = geo
    for copy in range(2):
        for s in range(slots):
            at = 12288 + (copy * slots + s) * meta_size
            img[at:at + len(meta)] = meta
    with open(out, "wb") as f:
        f.write(img)
    for d, body in zip(devices[1:], data[1:]):
        with open(d["file"], "wb") as f:
            f.write(body)


def patch(image, where, off, fmt, value):
    img = bytearray(open(image, "rb").read())
    value = value.encode() if fmt == "s" else struct.pack(fmt, int(value, 0))
    for g in (4096, 8192):
        if where == "geometry":
            img[g + off:g + off + len(value)] = value
            geo = bytes(img[g:g + 8]) + b"\0" * 32 + bytes(img[g + 40:g + 52])
            img[g + 8:g + 40] = hashlib.sha256(geo).digest()
    meta_size, slots = struct.unpack_from("<II", img, 4096 + 40)
    for copy in range(2 * slots):
        at = 12288 + copy * meta_size
        hsize, = struct.unpack_from("<I", img, at + 8)
        if where == "header":
            img[at + off:at + off + len(value)] = value
        tsize, = struct.unpack_from("<I", img, at + 44)
        t0 = at + hsize
        if where == "tables":
            img[t0 + off:t0 + off + len(value)] = value
        img[at + 48:at + 80] = hashlib.sha256(img[t0:t0 + tsize]).digest()
        head = bytes(img[at:at + 12]) + b"\0" * 32 + bytes(img[at + 44:at + hsize])
        img[at + 12:at + 44] = hashlib.sha256(head).digest()
    open(image, "wb").write(img)


def merge(image, other, what):
    img = bytearray(open(image, "rb").read())
    oth = open(other, "rb").read()
    meta_size, slots = struct.unpack_from("<II", img, 4096 + 40)
    copies = {"backup": [slots + s for s in range(slots)],
              "slot1": [1, slots + 1]}[what]
    for c in copies:
        at = 12288 + c * meta_size
        img[at:at + meta_size] = oth[at:at + meta_size]
    data = 12288 + 2 * slots * meta_size
    zero = bytes(4096)
    for at in range(data, min(len(img), len(oth)), 4096):
        if img[at:at + 4096] == zero:
            img[at:at + 4096] = oth[at:at + 4096]
    open(image, "wb").write(img)


if __name__ == "__main__":
    if sys.argv[1] == "--merge":
        merge(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "--patch":
        patch(sys.argv[2], sys.argv[3], int(sys.argv[4], 0), sys.argv[5],
              sys.argv[6])
    else:
        main()
