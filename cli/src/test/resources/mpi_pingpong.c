/* An MPI ping-pong between rank 0 and rank 1: ITERS round trips of SIZE bytes, each message checked.
 * Prints "pingpong: N round trips of S bytes, R us per round trip" on rank 0; exit 1 on a mismatch. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    int bytes = argc > 2 ? atoi(argv[2]) : 4096;
    if (size != 2 || iters <= 0 || bytes <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 mpi_pingpong [ITERS] [BYTES]\n");
        MPI_Finalize();
        return 2;
    }
    char *buf = malloc((size_t)bytes), *expect = malloc((size_t)bytes);
    int bad = 0, peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters && !bad; i++) {
        memset(expect, (char)(i & 0x7F), (size_t)bytes);
        if (rank == 0) {
            memcpy(buf, expect, (size_t)bytes);
            MPI_Send(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD);
        }
        bad = memcmp(buf, expect, (size_t)bytes) != 0;
    }
    double us = (MPI_Wtime() - t0) * 1e6 / iters;
    int any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf(any_bad ? "pingpong: data mismatch\n" : "pingpong: %d round trips of %d bytes, %.1f us per round trip\n",
               iters, bytes, us);
    free(buf);
    free(expect);
    MPI_Finalize();
    return any_bad ? 1 : 0;
}
