#!/usr/bin/env python3
"""Load test of `gpudoctor serve` side by side with Debian's prometheus-node-exporter, both on
loopback and scraped the same way in the same run (docs/performance.md has the figures).

  perf/serve_load.py [BUILD_DIR] [--seconds N] [--idle N]   (default build/release, else build/dev)

Needs Debian's prometheus-node-exporter (apt-get install prometheus-node-exporter).

serve runs against the fake libnvidia-ml.so.1 with 8 GPUs and a 1 s sampling interval. For each
exporter: (1) CPU cost while idle (no scrapes) over N seconds, serve counted with its GPU agent
child; (2) N seconds of 16 concurrent scrapers (a new connection per scrape, as `curl` does)
while 4 slow clients keep connecting, sending half a request and never finishing it, and
`--idle N` clients connect and send nothing (reconnecting whenever the exporter drops them); the
latency of every scrape (median, p95, p99, max) and the exporter's CPU over that time.
"""
import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ticks(pid):
    """utime+stime of pid and its live children (the GPU agent), in clock ticks."""
    total = 0
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total


def cpu_percent(pid, seconds, during=None):
    before, t0 = ticks(pid), time.monotonic()
    result = during() if during else time.sleep(seconds)
    after, t1 = ticks(pid), time.monotonic()
    return 100.0 * (after - before) / TICK / (t1 - t0), result


def scrape_load(url, seconds, scrapers=16, slow=4, idle=0):
    host, port = re.match(r"http://([^:/]+):(\d+)", url).groups()
    stop = time.monotonic() + seconds
    latencies, errors = [], [0]
    lock = threading.Lock()

    def scraper():
        while time.monotonic() < stop:
            t = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=10) as r:
                    r.read()
                ok = True
            except OSError:
                ok = False
            dt = time.perf_counter() - t
            with lock:
                if ok:
                    latencies.append(dt)
                else:
                    errors[0] += 1

    def slow_client():
        while time.monotonic() < stop:
            try:
                with socket.create_connection((host, int(port)), timeout=10) as s:
                    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never finished
                    s.settimeout(max(0.1, stop - time.monotonic()))
                    try:
                        s.recv(1)  # until the server gives up on it, or the run ends
                    except OSError:
                        pass
            except OSError:
                time.sleep(0.1)

    def idle_client():
        while time.monotonic() < stop:
            try:
                with socket.create_connection((host, int(port)), timeout=10) as s:
                    s.settimeout(max(0.1, stop - time.monotonic()))
                    try:
                        s.recv(1)  # nothing sent: held until the exporter drops it or the run ends
                    except OSError:
                        pass
            except OSError:
                time.sleep(0.1)

    threads = [threading.Thread(target=scraper) for _ in range(scrapers)]
    threads += [threading.Thread(target=slow_client) for _ in range(slow)]
    threads += [threading.Thread(target=idle_client) for _ in range(idle)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0]


def wait_ready(url, proc, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            sys.exit(f"{url}: the exporter exited")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                r.read()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{url}: no answer")


def fake_scenario(path, gpus=8):
    with open(path, "w") as f:
        f.write("[nvml]\ndriver_version = 550.54.15\n")
        for i in range(gpus):
            f.write(f"[device]\nname = NVIDIA H100 80GB HBM3\nuuid = GPU-{i:08d}-0000-0000-0000-000000000000\n"
                    f"memory_total_bytes = 85520809984\npci_bus_id = 00000000:{0x18 + i:02X}:00.0\n"
                    "gpu_util = 90,95,97\nmem_util = 40\nmemory_used_bytes = 42949672960\ntemperature_c = 70\n"
                    "power_mw = 600000\npower_limit_mw = 700000\nsm_clock_mhz = 1980\nmem_clock_mhz = 2619\n"
                    "throttle_reasons = 0\npcie_tx_kbps = 1000\npcie_rx_kbps = 2000\necc_uncorrected = 0\n"
                    "remapped_uncorrectable = 0\nprocesses = 4000000:42949672960\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--idle", type=int, default=0, help="clients that connect and send nothing, held during the load")
    a = ap.parse_args()
    build = a.build or next(d for d in ("build/release", "build/dev") if os.path.exists(os.path.join(ROOT, d, "gpudoctor")))
    build = os.path.join(ROOT, build)
    fakes = os.path.join(ROOT, "build/dev/tests/fakes/lib")
    work = tempfile.mkdtemp()
    scenario = os.path.join(work, "eight.ini")
    fake_scenario(scenario)

    serve_port, node_port = free_port(), free_port()
    env = dict(os.environ, GPUDOCTOR_FAKE_DRIVER=scenario, LD_LIBRARY_PATH=fakes)
    serve = subprocess.Popen([os.path.join(build, "gpudoctor"), "serve", "--listen", f"127.0.0.1:{serve_port}",
                              "--interval", "1", "--report-interval", "3600"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    node = subprocess.Popen(["prometheus-node-exporter", f"--web.listen-address=127.0.0.1:{node_port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        targets = [("gpudoctor serve (8 fake GPUs, 1 s sampling)", serve, f"http://127.0.0.1:{serve_port}/metrics"),
                   ("prometheus-node-exporter (defaults)", node, f"http://127.0.0.1:{node_port}/metrics")]
        for _, proc, url in targets:
            wait_ready(url, proc)
        time.sleep(3)  # the doctor's first report and the first samples are done
        print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs; {a.idle} idle clients")
        print("| exporter | idle CPU (% of a core) | scrapes | errors | median | p95 | p99 | max | CPU under load | body |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name, proc, url in targets:
            idle, _ = cpu_percent(proc.pid, a.seconds)
            load, (lat, errors) = cpu_percent(proc.pid, a.seconds, lambda: scrape_load(url, a.seconds, idle=a.idle))
            with urllib.request.urlopen(url) as r:
                size = len(r.read())
            lat.sort()
            q = statistics.quantiles(lat, n=100)
            print(f"| {name} | {idle:.2f} | {len(lat)} | {errors} | {statistics.median(lat) * 1e3:.2f} ms | "
                  f"{q[94] * 1e3:.2f} ms | {q[98] * 1e3:.2f} ms | {lat[-1] * 1e3:.1f} ms | {load:.0f}% | {size} B |")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        for p in (serve, node):
            p.terminate()
            p.wait(timeout=10)


if __name__ == "__main__":
    main()
