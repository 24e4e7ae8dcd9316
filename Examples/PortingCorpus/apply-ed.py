#!/usr/bin/env python3
"""Applies an ed script as `diff -e PUBLISHED EDITED` writes it (commands `Na`, `N[,M]c`, `N[,M]d`, last line
first) to PUBLISHED, writing EDITED: apply-ed.py PUBLISHED SCRIPT OUT. The script names line numbers and carries
only the lines put in, none of the published file's own lines."""
import re
import sys

published, script, out = sys.argv[1:4]
with open(published, encoding="utf-8", newline="") as f:
    lines = f.read().split("\n")
with open(script, encoding="utf-8", newline="") as f:
    commands = f.read().split("\n")
command = re.compile(r"^(\d+)(?:,(\d+))?([acd])$")
i = 0
last = None
while i < len(commands):
    text = commands[i]
    i += 1
    if text == "":
        continue
    m = command.match(text)
    if not m:
        sys.exit(f"{script}: line {i}: not an ed command: {text!r}")
    start, end, op = int(m.group(1)), int(m.group(2) or m.group(1)), m.group(3)
    if last is not None and end >= last:
        sys.exit(f"{script}: line {i}: commands must go from the end of the file to its start")
    last = start
    body = []
    if op in "ac":
        while i < len(commands) and commands[i] != ".":
            body.append(commands[i])
            i += 1
        if i == len(commands):
            sys.exit(f"{script}: text after line {start} has no closing '.'")
        i += 1
    if op == "a":
        lines[start:start] = body
    else:
        lines[start - 1:end] = body
with open(out, "w", encoding="utf-8", newline="") as f:
    f.write("\n".join(lines))
