/*
 * sim_mpi.h - `fray sim` across processes (docs/cluster.md). Built with
 * -DFRAY_MPI=ON and started by mpirun, each rank runs a slice of the trial
 * indices and the counts are summed over ranks; otherwise these are no-ops
 * for one process (rank 0 of 1). The library never links MPI.
 */
#ifndef FRAY_CLI_SIM_MPI_H
#define FRAY_CLI_SIM_MPI_H

#include <stdbool.h>

#include "fray/sim.h"

/* Joins the MPI job when started by mpirun; sets this process's rank and
 * the number of ranks. false (after a message) when MPI cannot start. */
bool cli_mpi_start(int *argc, char ***argv, int *rank, int *n_ranks);
/* Replaces every rank's counts by the sum over ranks. */
bool cli_mpi_sum(fray_sim_counts *counts);
/* Leaves the MPI job; returns status. */
int cli_mpi_end(int status);

#endif
