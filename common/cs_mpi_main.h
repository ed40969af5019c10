/* The entry of a command that runs under mpirun as one rank of many, or alone (MPI as a
 * singleton): initialises MPI unless it is already, tags log lines with the rank when there are
 * several, runs the command with its rank and finalises. */
#ifndef CS_MPI_MAIN_H
#define CS_MPI_MAIN_H

int cs_mpi_main(int argc, char **argv, int (*command)(int argc, char **argv, int rank));

#endif
