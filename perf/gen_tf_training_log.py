#!/usr/bin/env python3
"""The issue-13 training log: TensorFlow's "Created device" line (a line a rule matches, with a
new timestamp each time) every fourth line, between a Keras progress bar, an epoch line and a
logger line. For explain's throughput when a matched line repeats (docs/performance.md).

    perf/gen_tf_training_log.py OUT [SIZE_MB]   (default 256)
"""
import random
import sys


def main() -> None:
    out, size_mb = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 256
    rng = random.Random(7)
    target = size_mb << 20
    written, i, buf = 0, 0, []
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        while written < target:
            step = i // 4
            kind = i % 4
            if kind == 0:
                line = (f"2024-05-10 11:{step // 60 % 60:02d}:{step % 60:02d}.{rng.randrange(10**6):06d}: "
                        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device "
                        "/job:localhost/replica:0/task:0/device:GPU:0 with 10 MB memory:  -> device: 0, "
                        "name: NVIDIA A100-SXM4-40GB, pci bus id: 0000:00:04.0, compute capability: 8.0")
            elif kind == 1:
                line = (f"{step % 1875 + 1}/1875 [==============================] - ETA: 0s - "
                        f"loss: 0.{rng.randrange(10000):04d} - accuracy: 0.{rng.randrange(10000):04d}")
            elif kind == 2:
                line = f"Epoch {step % 100 + 1}/100"
            else:
                line = f"INFO:tensorflow:global_step/sec: {rng.randrange(1000)}.{rng.randrange(1000)} step {step}"
            line += "\n"
            buf.append(line)
            written += len(line)
            i += 1
            if len(buf) >= 10000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))


if __name__ == "__main__":
    main()
