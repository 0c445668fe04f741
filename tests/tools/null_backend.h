/* The null backend of the test tools (null_backend.c). */
#ifndef H5PERF_NULL_BACKEND_H
#define H5PERF_NULL_BACKEND_H

#include "backend/backend.h"

extern const struct backend_ops backend_null;

#endif
