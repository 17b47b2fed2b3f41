#!/usr/bin/env python3
"""Compares a running service's /metrics with the replay of what was played into it.

    metrics-check.py URL REPLAY.jsonl

Each gesture (its `recognized` or `began` event of `replay --json`) is one count of
gestured_gestures_total by kind and region (summed over devices: the device label is the live
node). Also checks a frame latency histogram and one device present. Prints a summary; exits 1
on a difference.
"""
import collections
import json
import re
import sys
import urllib.request

url, replay_path = sys.argv[1], sys.argv[2]
body = urllib.request.urlopen(url, timeout=10).read().decode()
expected = collections.Counter()
for line in open(replay_path):
    e = json.loads(line)
    if e["state"] in ("recognized", "began"):
        expected[(e["kind"], e["region"])] += 1
counted = collections.Counter()
for m in re.finditer(r'^gestured_gestures_total\{([^}]*)\} (\d+)$', body, re.M):
    labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(1)))
    counted[(labels["kind"], labels["region"])] += int(m.group(2))
problems = []
if counted != expected:
    problems.append(f"gesture counters {dict(counted)} differ from the replay's {dict(expected)}")
frames = re.search(r'^gestured_frame_latency_seconds_count (\d+)$', body, re.M)
if not frames or int(frames.group(1)) == 0:
    problems.append("no frame latency counted")
if not re.search(r'^gestured_devices 1(\.0)?$', body, re.M):
    problems.append("gestured_devices is not 1")
if problems:
    print("; ".join(problems))
    sys.exit(1)
print(f"{sum(counted.values())} gestures of {len(counted)} kinds and regions counted as the replay has them, "
      f"{frames.group(1)} frames' latency in the histogram")
