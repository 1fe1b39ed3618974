"""mcp.py - scikit-image's MCP_Geometric on a benchmark map, for the benchmark.

    python3 mcp.py MAP GX GY [DUMP]     time the search
    python3 mcp.py --compare A B        compare two raw distance dumps

MAP is genmap's Moving AI map ('.' costs 1, '@' is a wall) or its weighted
ffmap (digits 1..9 are costs, '#' is a wall).  Walls are np.inf; 8 moves
(fully_connected=True; MCP lets diagonals cut corners, like ffbuild's
--corners free).  MCP_Geometric's step cost is length * (cost(u) + cost(v))
/ 2, ffbuild's own convention.  Prints "setup S seconds S reached N sum D":
the constructor's time, then find_costs' time alone.  With DUMP, writes the
distances there as raw little-endian doubles, row-major.

--compare prints "cells N differ M maxrel R": the cells whose distances
differ (finite in one and not the other, or a relative difference above
1e-9), and the largest relative difference among the finite ones.
"""
import sys
import time

import numpy as np


def read_map(path):
    with open(path, "rb") as f:
        data = f.read()
    head, body = data.split(b"\nmap\n", 1)
    rows = body.split(b"\n")
    if rows and rows[-1] == b"":
        rows.pop()
    h, w = len(rows), len(rows[0])
    tiles = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(h, w)
    costs = np.full((h, w), np.inf)
    if head.startswith(b"type octile"):
        costs[tiles == ord(".")] = 1.0
    else:
        digit = (tiles >= ord("1")) & (tiles <= ord("9"))
        costs[digit] = tiles[digit] - ord("0")
    return costs


def search(path, gx, gy, dump):
    from skimage.graph import MCP_Geometric

    costs = read_map(path)
    t0 = time.perf_counter()
    mcp = MCP_Geometric(costs, fully_connected=True)
    t1 = time.perf_counter()
    cumulative, _ = mcp.find_costs([(gy, gx)])
    t2 = time.perf_counter()
    finite = np.isfinite(cumulative)
    print("setup %.6f seconds %.6f reached %d sum %.17g"
          % (t1 - t0, t2 - t1, int(finite.sum()), float(cumulative[finite].sum())))
    if dump:
        cumulative.astype("<f8").tofile(dump)


def compare(a_path, b_path):
    a = np.fromfile(a_path, dtype="<f8")
    b = np.fromfile(b_path, dtype="<f8")
    if a.shape != b.shape:
        print("cells %d differ %d maxrel inf" % (max(a.size, b.size), max(a.size, b.size)))
        return
    fa, fb = np.isfinite(a), np.isfinite(b)
    both = fa & fb
    rel = np.abs(a[both] - b[both]) / np.maximum(np.abs(a[both]), 1e-300)
    differ = int((fa != fb).sum()) + int((rel > 1e-9).sum())
    print("cells %d differ %d maxrel %.3g" % (a.size, differ, float(rel.max()) if rel.size else 0.0))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5):
        search(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
               sys.argv[4] if len(sys.argv) == 5 else None)
    else:
        sys.stderr.write("usage: mcp.py MAP GX GY [DUMP] | mcp.py --compare A B\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
