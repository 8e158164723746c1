/* sim_mpi.c - `fray sim` across MPI ranks (sim_mpi.h; docs/cluster.md). */
#include "sim_mpi.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef FRAY_MPI
#include <mpi.h>

/* Started by mpirun (Open MPI or another PMI launcher)? A plain `fray sim`
 * of an MPI build stays a single process and does not touch MPI. */
static bool under_mpirun(void) {
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") ||
           getenv("PMIX_RANK");
}

bool cli_mpi_start(int *argc, char ***argv, int *rank, int *n_ranks) {
    *rank = 0;
    *n_ranks = 1;
    if (!under_mpirun())
        return true;
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "fray sim: MPI could not start\n");
        return false;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, n_ranks);
    return true;
}

bool cli_mpi_sum(fray_sim_counts *counts) {
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready)
        return true;
    /* The counts are FRAY_SIM_COUNTS_WORDS 64-bit integers: one sum. */
    return MPI_Allreduce(MPI_IN_PLACE, counts, (int)FRAY_SIM_COUNTS_WORDS,
                         MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS;
}

int cli_mpi_end(int status) {
    int ready = 0, done = 0;
    MPI_Initialized(&ready);
    MPI_Finalized(&done);
    if (ready && !done)
        MPI_Finalize();
    return status;
}

#else

bool cli_mpi_start(int *argc, char ***argv, int *rank, int *n_ranks) {
    (void)argc;
    (void)argv;
    *rank = 0;
    *n_ranks = 1;
    return true;
}

bool cli_mpi_sum(fray_sim_counts *counts) {
    (void)counts;
    return true;
}

int cli_mpi_end(int status) {
    return status;
}

#endif
