/* Fault injection for the restart tests: a run dies at a named point of the program, as a
 * power loss would take it, so that tests choose where a run is interrupted instead of when.
 *
 * CYBERSHAKE_FAULT_KILL_AT=POINT[:N] makes the N-th arrival (default the first) of this process
 * at POINT kill, with SIGKILL, the process group named by CYBERSHAKE_FAULT_KILL_GROUP (the
 * workflow driver exports its own group there when it leads one, so that a step's death takes
 * the driver with it), then its own process group when that group is not the caller's (a step
 * the driver started), then itself. CYBERSHAKE_FAULT_PAUSE_AT=POINT stops the process there
 * (SIGSTOP) every time it arrives, for the test to act while it waits and then continue it.
 * Points are listed in docs/architecture.md. */
#ifndef CS_FAULT_H
#define CS_FAULT_H

/* Dies here if the environment names this point; otherwise returns at once. */
void cs_fault_point(const char *point);
/* Like cs_fault_point for the point "PREFIX:NAME" (a step's name, a file kind). */
void cs_fault_point2(const char *prefix, const char *name);

#endif
