"""Runner of the physics tests: every test_* function of every test_*.py module here.
Prints one line per test and a TESTSUMMARY line; `run.py PATTERN...` runs a subset."""
import importlib
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402


def main():
    patterns = sys.argv[1:]
    passed = failed = skipped = 0
    for name in sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py")):
        mod = importlib.import_module(name)
        for fname in sorted(n for n in dir(mod) if n.startswith("test_")):
            full = f"{name}.{fname}"
            if patterns and not any(p in full for p in patterns):
                continue
            t0 = time.time()
            try:
                getattr(mod, fname)()
                passed += 1
                print(f"ok   {full} ({time.time() - t0:.1f}s)", flush=True)
            except harness.Skip as e:
                skipped += 1
                print(f"skip {full}: {e}", flush=True)
            except Exception as e:  # noqa: BLE001 (report every failure, keep going)
                failed += 1
                print(f"FAIL {full} ({time.time() - t0:.1f}s): {e}", flush=True)
                traceback.print_exc(limit=3)
    print(f"TESTSUMMARY passed={passed} failed={failed} skipped={skipped}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
