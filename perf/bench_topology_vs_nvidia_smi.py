#!/usr/bin/env python3
"""Compares gpudoctor bench's GPU topology matrix (NVML, in the multi-GPU bench child) with
`nvidia-smi topo -m` on the same machine: every GPU pair's cell must agree (NV#, PIX, PXB, PHB,
NODE, SYS). Run by scripts/device-check.sh on a machine with two GPUs or more.

Usage: bench_topology_vs_nvidia_smi.py BENCH_JSON NVIDIA_SMI_TOPO_TEXT
Exit 0 when they agree, 1 when a cell differs, 2 when either side has no matrix.
Caveat: nvidia-smi orders GPUs by PCI bus id; gpudoctor by CUDA ordinal, so the comparison goes
through the bus ids gpudoctor reports (nvidia-smi's GPU i is the i-th bus id in sorted order).
"""
import json
import re
import sys


def smi_matrix(text):
    rows = {}
    header = None
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)  # nvidia-smi underlines its header
    for line in text.splitlines():
        cells = line.split()
        if not cells:
            continue
        if header is None and cells[0].startswith("GPU0"):
            header = [c for c in cells if re.fullmatch(r"GPU\d+", c)]
            continue
        if header and re.fullmatch(r"GPU\d+", cells[0]):
            rows[int(cells[0][3:])] = cells[1 : 1 + len(header)]
    return [rows[i] for i in sorted(rows)] if header else None


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        topology = json.load(f).get("topology")
    with open(sys.argv[2], encoding="utf-8") as f:
        smi = smi_matrix(f.read())
    if not topology or not topology.get("links") or not smi:
        print("no matrix to compare: gpudoctor", bool(topology and topology.get("links")), "nvidia-smi", bool(smi))
        return 2
    ours = topology["links"]
    by_bus = sorted(range(len(ours)), key=lambda i: topology["bus_ids"][i])
    smi_index = {cuda: rank for rank, cuda in enumerate(by_bus)}
    wrong = 0
    for i, row in enumerate(ours):
        for j, cell in enumerate(row):
            theirs = smi[smi_index[i]][smi_index[j]]
            if cell != theirs:
                wrong += 1
                print(f"GPU{i} -> GPU{j}: gpudoctor {cell}, nvidia-smi {theirs}")
    print(f"{len(ours)} GPUs, {len(ours) ** 2} cells, {wrong} differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
