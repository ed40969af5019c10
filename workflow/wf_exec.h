/* Running a step's commands on this machine: fork and exec (no shell), each in its own process
 * group so that everything it started (mpirun's ranks) can be stopped together, with a death
 * signal so a killed workflow does not leave it running, output appended to the step's log. */
#ifndef WF_EXEC_H
#define WF_EXEC_H

#include <sys/types.h>

#include "cs_error.h"

/* Starts argv[0] (searched in PATH) with stdout and stderr appended to log_path; gpus, when
 * not empty, becomes CUDA_VISIBLE_DEVICES. *pid is also the process group. */
int wf_spawn(char *const *argv, const char *log_path, const char *gpus, pid_t *pid, cs_error *err);
/* Waits for it; *status is its exit status (128 + signal when killed). Whatever is left of its
 * process group is killed afterwards. With follow_log, the progress lines the step writes to
 * its log ("... 103/2010 (5.1%), 10.3 steps/s, 3m05s left") are echoed as they come. */
int wf_wait(pid_t pid, const char *follow_log, int *status, cs_error *err);
/* Runs a command to completion and captures its standard output (for sbatch, squeue). */
int wf_capture(char *const *argv, char *out, size_t size, int *status, cs_error *err);
/* What identifies a live process beyond its pid, which the system reuses: its start time (clock
 * ticks since boot) and the boot's id, as "TICKS@BOOT_ID". Empty when /proc does not say. */
void wf_process_identity(pid_t pid, char *out, size_t size);
/* Kills the process group a killed workflow left behind (a step's, recorded with its leader's
 * identity) when its leader is still that very process: 1 killed, 0 gone or another process
 * (a reused pid is never killed), -1 when the identity is unknown (an older run's record). */
int wf_kill_stale(pid_t pgid, const char *identity);
/* The last non-empty line of a log (an error for the study's Error column). */
void wf_log_tail(const char *log_path, char *out, size_t size);

#endif
