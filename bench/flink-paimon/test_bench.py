"""bench/flink-paimon/test_bench.py - the bench's own arithmetic, without running a job:

    python3 bench/flink-paimon/test_bench.py

spreads, slopes, CPU interpolation, GC log parsing, the -Xmx choice, the table's cells."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases_tput  # noqa: E402
import cases_xmx  # noqa: E402
import harness  # noqa: E402
import run  # noqa: E402


class Bench(unittest.TestCase):
    def test_stats3(self):
        self.assertEqual(harness.stats3([3, None, 1, 2]), {"min": 1, "med": 2, "max": 3, "n": 3})
        self.assertEqual(harness.stats3([4, 1, 2, 3])["med"], 2.5)
        self.assertIsNone(harness.stats3([None]))

    def test_slope(self):
        # 1000 rows per 100 ms = 10,000 rows/s, whatever the offset
        self.assertAlmostEqual(harness.slope([(5000 + 100 * i, 7 + 1000 * i) for i in range(10)]), 10000.0)
        self.assertIsNone(harness.slope([(1, 1)]))

    def test_cpu_between_interpolates(self):
        ps = harness.ProcSampler(0)
        ps.samples = [(1000.0, 10.0, 0), (1500.0, 11.0, 0), (2000.0, 13.0, 0)]
        self.assertAlmostEqual(ps.cpu_between(1250.0, 1750.0), 1.5)  # 10.5 -> 12.0
        self.assertIsNone(ps.cpu_between(900.0, 1500.0))  # before the first sample

    def test_gc_pauses(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("[0.9s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\n"
                    "[1.0s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 28M->17M(380M) 7.905ms\n"
                    "[2.0s][info][gc          ] GC(1) Pause Remark 30M->30M(380M) 1.095ms\n"
                    "[2.1s][info][gc          ] GC(1) Concurrent Mark Cycle 12.000ms\n")
        try:
            n, ms = harness.gc_pauses(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(n, 2)
        self.assertAlmostEqual(ms, 9.0)

    def test_xmx_choice(self):
        def runs(*rates, ok=True):
            return [{"rows_per_s": r, "ok": ok} for r in rates]
        res = {"1g": runs(100, 101, 99), "512m": runs(97, 96, 98), "256m": runs(90, 91, 89),
               "128m": runs(100, ok=False)}
        self.assertEqual(cases_xmx.choose(res), "512m")  # 97 >= 0.95 * 100; 90 is not
        self.assertIsNone(cases_xmx.choose({"1g": runs(1, ok=False)}))

    def test_window(self):
        self.assertEqual(cases_tput.window(60, 1), 30)
        self.assertEqual(cases_tput.window(60, 10), 30)
        self.assertEqual(cases_tput.window(10, 10), 30)  # three 10 s intervals at least

    def test_cells_and_ratios(self):
        st = {"min": 1.0, "med": 2.0, "max": 3.0, "n": 3}
        self.assertEqual(run.cell(st, "%.1f"), "2.0 [1.0-3.0]")
        self.assertEqual(run.cell(dict(st, n=1), "%.1f"), "2.0")
        self.assertEqual(run.cell(None, "%.1f"), "-")
        self.assertEqual(run.ratio_of(st, 4.0), "0.50")
        self.assertEqual(run.ratio_of("-", 4.0), "")


if __name__ == "__main__":
    unittest.main()
