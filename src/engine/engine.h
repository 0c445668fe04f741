/* The engine: walks the session's run points (process counts on
 * sub-communicators, then each point's iterations and files), has each
 * process's plan carried out by the point's backend, times it, agrees across
 * ranks and feeds the results model and the pattern's report. It knows no
 * API and no pattern: both come in tables. */
#ifndef H5PERF_ENGINE_H
#define H5PERF_ENGINE_H

#include "backend/backend.h"
#include "engine/setup.h"
#include "report/results.h"

/* Collective over MPI_COMM_WORLD. Runs every selected API with ops[api]
 * (an entry may be NULL only for an API not selected); world rank 0 moves
 * the record of every run into log (NULL elsewhere). Returns EXIT_OK, or
 * EXIT_RUN_FAILED after an I/O error (the sweep stops, this run's files are
 * removed) or a verification mismatch (the sweep goes on). */
int engine_run(const struct run *run, const struct backend_ops *const ops[API_COUNT],
               struct results_log *log);

#endif
