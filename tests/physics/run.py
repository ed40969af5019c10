"""Runner of the physics tests: every test_* function of every test_*.py module here.
Prints one line per test and a TESTSUMMARY line; `run.py PATTERN...` runs a subset.

The modules are independent of each other (each test works in its own temporary folder; the
tests of one module may share what they made, test_extract's SGTs, so a module's tests run in
one process, in order). They run in CS_PHYSICS_JOBS processes at once (default: one per CPU this
process may use, at most one per module), the heaviest first, and the solver of each gets an
equal share of the CPUs through OMP_NUM_THREADS (unless it is set already): on two cores, two
single-threaded solvers instead of one solver on two threads, whose barriers cost the most when
the cores are shared. The results do not depend on the number of threads (the solver's output
is the same bytes), only the time does. A module's lines are printed together when it ends;
CS_PHYSICS_JOBS=1 runs the modules one after another, in this process, as before."""
import importlib
import os
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

# The modules by the work of their solver runs, heaviest first (grid nodes x steps, summed; as
# measured on two cores: test_loh 280 s, test_stokes 190 s, test_lamb 160 s, ...), so that the
# longest start first; a module not listed comes after these.
HEAVIEST_FIRST = ("test_loh", "test_loh_bandlimited", "test_layered_fk", "test_stokes", "test_lamb", "test_absorbing", "test_extract",
                  "test_attenuation", "test_reciprocity", "test_gpu")


def modules():
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py"))
    rank = {n: i for i, n in enumerate(HEAVIEST_FIRST)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))


def tests_of(name, patterns):
    mod = importlib.import_module(name)
    return mod, [f for f in sorted(n for n in dir(mod) if n.startswith("test_"))
                 if not patterns or any(p in f"{name}.{f}" for p in patterns)]


def run_module(name, patterns):
    """Runs the module's tests here; returns (passed, failed, skipped)."""
    passed = failed = skipped = 0
    mod, fnames = tests_of(name, patterns)
    for fname in fnames:
        full = f"{name}.{fname}"
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
            traceback.print_exc(limit=3, file=sys.stdout)
    return passed, failed, skipped


def cpus():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main():
    args = sys.argv[1:]
    if args[:1] == ["--module"]:  # a worker: one module, its counts on the last line
        p, f, s = run_module(args[1], args[2:])
        print(f"MODULESUMMARY passed={p} failed={f} skipped={s}", flush=True)
        return 0
    patterns = args
    names = [n for n in modules() if tests_of(n, patterns)[1]]
    jobs = int(os.environ.get("CS_PHYSICS_JOBS", "0")) or min(cpus(), max(1, len(names)))
    jobs = max(1, min(jobs, max(1, len(names))))
    counts = [0, 0, 0]
    if jobs == 1:
        for n in names:
            for k, v in enumerate(run_module(n, patterns)):
                counts[k] += v
    else:
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", str(max(1, cpus() // jobs)))
        print(f"physics: {len(names)} modules, {jobs} at a time, OMP_NUM_THREADS={env['OMP_NUM_THREADS']}",
              flush=True)

        def worker(n):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--module", n, *patterns],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            return n, r

        with ThreadPoolExecutor(jobs) as pool:
            for n, r in _as_completed(pool, worker, names):
                lines = r.stdout.splitlines()
                summary = [ln for ln in lines if ln.startswith("MODULESUMMARY ")]
                for ln in lines:
                    if not ln.startswith("MODULESUMMARY "):
                        print(ln)
                if r.returncode != 0 or not summary:
                    counts[1] += 1
                    print(f"FAIL {n}: its process exited {r.returncode} without finishing", flush=True)
                    continue
                fields = dict(kv.split("=") for kv in summary[-1].split()[1:])
                counts[0] += int(fields["passed"])
                counts[1] += int(fields["failed"])
                counts[2] += int(fields["skipped"])
                sys.stdout.flush()
    print(f"TESTSUMMARY passed={counts[0]} failed={counts[1]} skipped={counts[2]}")
    return 1 if counts[1] else 0


def _as_completed(pool, fn, items):
    """Results of fn over items as they finish (items submitted in their order)."""
    from concurrent.futures import as_completed

    futures = [pool.submit(fn, x) for x in items]
    for fut in as_completed(futures):
        yield fut.result()


if __name__ == "__main__":
    sys.exit(main())
