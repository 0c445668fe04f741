/* bench/e3sm_bare: E3SM-IO's canonical PnetCDF write, made bare, on a map
 * of E3SM-IO's (docs/map.md, "Against E3SM-IO", where each millisecond of
 * the G case's difference is attributed).
 *
 * The calls and timers are E3SM-IO's: a barrier, the clock, ncmpi_create,
 * a barrier, the definitions and ncmpi_enddef, a barrier, one
 * ncmpi_iput_varn per variable, a barrier, one ncmpi_wait_all, a barrier,
 * ncmpi_close, the clock; the end-to-end time is the slowest process's,
 * the throughput the bytes PnetCDF wrote (header included) over it. The
 * file is h5perf's map pattern's: per decomposition Dk, --vars counts of
 * variables of --element-size bytes (unsigned integers) over the
 * decomposition's array, each process's runs of the map (its first
 * fill_starts[p] where the map has them) split at the array's rows.
 *
 *   e3sm_bare MAP OUT --vars 11,2,49,3,3,8 --element-size 4
 *             [--hints e3sm|none] [--agree-per-var] [--agree-as-h5perf]
 *             [--no-barriers]
 *
 * --hints e3sm (default): E3SM-IO's (romio_cb_write=enable,
 * nc_var_align_size=1, nc_in_place_swap=enable); none: MPI_INFO_NULL, as
 * h5perf without HDF5_MPI_INFO. --agree-per-var: an MPI_Allreduce after
 * each variable's post, as h5perf made one after each variable begun.
 * --agree-as-h5perf: an MPI_Allreduce where h5perf's PnetCDF nonblocking
 * write agrees, inside the timers: before ncmpi_create and after it, after
 * ncmpi_enddef (twice: the definitions', the first variable's) and before
 * the posts.
 * --no-barriers: none of E3SM-IO's barriers between create and close.
 * Prints one line: "seconds S bytes B open O define D post P wait W close C"
 * (each the slowest process's). Exits 2 on a bad command line, 1 when a
 * call fails. */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DECOMPS 16
#define MAX_DIMS    4

struct decomp {
    int ndims;
    MPI_Offset dims[MAX_DIMS];
    unsigned npieces;
    MPI_Offset *starts, *counts; /* npieces x ndims each */
    MPI_Offset elems;            /* this process's */
    int nvars;
};

static int rank, nprocs;

static void die(int status, const char *what, int rc)
{
    if (rank == 0)
        fprintf(stderr, "e3sm_bare: %s%s%s\n", what, rc ? ": " : "", rc ? ncmpi_strerror(rc) : "");
    MPI_Abort(MPI_COMM_WORLD, status);
}

static MPI_Offset *read_ints(int ncid, const char *name, MPI_Offset *n)
{
    int id, dim, rc;
    if ((rc = ncmpi_inq_varid(ncid, name, &id)) != NC_NOERR)
        return NULL;
    if ((rc = ncmpi_inq_vardimid(ncid, id, &dim)) != NC_NOERR ||
        (rc = ncmpi_inq_dimlen(ncid, dim, n)) != NC_NOERR)
        die(1, name, rc);
    long long *v = malloc(((size_t)*n + 1) * sizeof *v);
    MPI_Offset *out = malloc(((size_t)*n + 1) * sizeof *out);
    if (!v || !out)
        die(1, "out of memory", 0);
    if ((rc = ncmpi_get_var_longlong_all(ncid, id, v)) != NC_NOERR)
        die(1, name, rc);
    for (MPI_Offset i = 0; i < *n; i++)
        out[i] = (MPI_Offset)v[i];
    free(v);
    return out;
}

/* Decomposition k's pieces of this process: its runs, each split where
 * it crosses a row of the array's last dimension. */
static void read_decomp(int ncid, int k, struct decomp *d)
{
    char name[64];
    int rc;
    snprintf(name, sizeof name, "D%d.dims", k + 1);
    int dims[MAX_DIMS];
    MPI_Offset len;
    if ((rc = ncmpi_inq_attlen(ncid, NC_GLOBAL, name, &len)) != NC_NOERR || len > MAX_DIMS)
        die(1, name, rc);
    if ((rc = ncmpi_get_att_int(ncid, NC_GLOBAL, name, dims)) != NC_NOERR)
        die(1, name, rc);
    d->ndims = (int)len;
    for (int i = 0; i < d->ndims; i++)
        d->dims[i] = dims[i];
    MPI_Offset n, total, nfill;
    snprintf(name, sizeof name, "D%d.nreqs", k + 1);
    MPI_Offset *nreqs = read_ints(ncid, name, &n);
    if (!nreqs || n != nprocs)
        die(1, "the map is not for this process count", 0);
    snprintf(name, sizeof name, "D%d.fill_starts", k + 1);
    MPI_Offset *fill = read_ints(ncid, name, &nfill);
    snprintf(name, sizeof name, "D%d.offsets", k + 1);
    MPI_Offset *offs = read_ints(ncid, name, &total);
    snprintf(name, sizeof name, "D%d.lengths", k + 1);
    MPI_Offset *lens = read_ints(ncid, name, &total);
    MPI_Offset first = 0;
    for (int p = 0; p < rank; p++)
        first += nreqs[p];
    MPI_Offset mine = fill ? fill[rank] : nreqs[rank];
    MPI_Offset row = d->dims[d->ndims - 1];
    /* Pieces: at most a run's rows plus one each. */
    MPI_Offset cap = 0;
    for (MPI_Offset r = 0; r < mine; r++)
        cap += lens[first + r] / row + 2;
    d->starts = malloc(((size_t)cap + 1) * MAX_DIMS * sizeof *d->starts);
    d->counts = malloc(((size_t)cap + 1) * MAX_DIMS * sizeof *d->counts);
    if (!d->starts || !d->counts)
        die(1, "out of memory", 0);
    d->npieces = 0;
    d->elems = 0;
    for (MPI_Offset r = 0; r < mine; r++) {
        MPI_Offset at = offs[first + r], left = lens[first + r];
        while (left > 0) {
            MPI_Offset *s = d->starts + (size_t)d->npieces * MAX_DIMS;
            MPI_Offset *c = d->counts + (size_t)d->npieces * MAX_DIMS;
            MPI_Offset flat = at;
            for (int i = d->ndims - 1; i >= 0; i--) {
                s[i] = flat % d->dims[i];
                flat /= d->dims[i];
                c[i] = 1;
            }
            MPI_Offset take = row - s[d->ndims - 1];
            take = take < left ? take : left;
            c[d->ndims - 1] = take;
            d->npieces++;
            d->elems += take;
            at += take;
            left -= take;
        }
    }
    free(nreqs);
    free(fill);
    free(offs);
    free(lens);
}

static void agree_if(int on)
{
    int mine = 1, all = 0;
    if (on)
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
}

static void barrier(int on)
{
    if (on)
        MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const char *vars = NULL;
    int elem = 0, e3sm_hints = 1, agree = 0, as_h5perf = 0, barriers = 1;
    if (argc < 3)
        die(2,
            "usage: e3sm_bare MAP OUT --vars N,N,... --element-size 4|8 [--hints e3sm|none] "
            "[--agree-per-var] [--agree-as-h5perf] [--no-barriers]",
            0);
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--vars") && i + 1 < argc)
            vars = argv[++i];
        else if (!strcmp(argv[i], "--element-size") && i + 1 < argc)
            elem = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hints") && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "e3sm") && strcmp(argv[i], "none"))
                die(2, "--hints: e3sm or none", 0);
            e3sm_hints = !strcmp(argv[i], "e3sm");
        } else if (!strcmp(argv[i], "--agree-per-var"))
            agree = 1;
        else if (!strcmp(argv[i], "--agree-as-h5perf"))
            as_h5perf = 1;
        else if (!strcmp(argv[i], "--no-barriers"))
            barriers = 0;
        else
            die(2, "unknown argument (see the usage in bench/e3sm_bare.c)", 0);
    }
    if (!vars || (elem != 4 && elem != 8))
        die(2, "--vars and --element-size 4 or 8 are required", 0);

    int ncid, rc, ndecomp;
    if ((rc = ncmpi_open(MPI_COMM_WORLD, argv[1], NC_NOWRITE, MPI_INFO_NULL, &ncid)) != NC_NOERR)
        die(1, argv[1], rc);
    int dimid;
    MPI_Offset nd;
    if ((rc = ncmpi_inq_dimid(ncid, "num_decomp", &dimid)) != NC_NOERR ||
        (rc = ncmpi_inq_dimlen(ncid, dimid, &nd)) != NC_NOERR || nd < 1 || nd > MAX_DECOMPS)
        die(1, "num_decomp", rc);
    ndecomp = (int)nd;
    struct decomp dec[MAX_DECOMPS];
    for (int k = 0; k < ndecomp; k++)
        read_decomp(ncid, k, &dec[k]);
    ncmpi_close(ncid);
    const char *p = vars;
    for (int k = 0; k < ndecomp; k++) {
        char *end;
        dec[k].nvars = (int)strtol(p, &end, 10);
        if (end == p || dec[k].nvars < 0 || (*end != ',' && *end != '\0'))
            die(2, "--vars: one count per decomposition", 0);
        p = *end ? end + 1 : end;
    }

    /* One buffer per variable, filled out of the timers. */
    int total_vars = 0;
    for (int k = 0; k < ndecomp; k++)
        total_vars += dec[k].nvars;
    void **bufs = calloc((size_t)total_vars + 1, sizeof *bufs);
    int *varids = calloc((size_t)total_vars + 1, sizeof *varids);
    int *reqs = calloc((size_t)total_vars + 1, sizeof *reqs);
    for (int k = 0, v = 0; k < ndecomp; k++)
        for (int j = 0; j < dec[k].nvars; j++, v++) {
            bufs[v] = malloc((size_t)(dec[k].elems + 1) * (size_t)elem);
            if (!bufs[v])
                die(1, "out of memory", 0);
            memset(bufs[v], rank + v, (size_t)(dec[k].elems + 1) * (size_t)elem);
        }
    MPI_Info info = MPI_INFO_NULL;
    if (e3sm_hints) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "romio_cb_write", "enable");
        MPI_Info_set(info, "nc_var_align_size", "1");
        MPI_Info_set(info, "nc_in_place_swap", "enable");
    }
    /* varn wants an array of pointers, one per piece. */
    MPI_Offset **sp[MAX_DECOMPS], **cp[MAX_DECOMPS];
    for (int k = 0; k < ndecomp; k++) {
        sp[k] = malloc(((size_t)dec[k].npieces + 1) * sizeof **sp);
        cp[k] = malloc(((size_t)dec[k].npieces + 1) * sizeof **cp);
        for (unsigned i = 0; i < dec[k].npieces; i++) {
            sp[k][i] = dec[k].starts + (size_t)i * MAX_DIMS;
            cp[k][i] = dec[k].counts + (size_t)i * MAX_DIMS;
        }
    }
    nc_type type = elem == 4 ? NC_UINT : NC_UINT64;
    MPI_Datatype mtype = elem == 4 ? MPI_UNSIGNED : MPI_UINT64_T;

    double t[6];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    agree_if(as_h5perf);
    if ((rc = ncmpi_create(MPI_COMM_WORLD, argv[2], NC_CLOBBER | NC_64BIT_DATA, info, &ncid)) !=
        NC_NOERR)
        die(1, argv[2], rc);
    agree_if(as_h5perf);
    t[0] = MPI_Wtime();
    barrier(barriers);
    double t1 = MPI_Wtime();
    for (int k = 0, v = 0; k < ndecomp; k++) {
        int dimids[MAX_DIMS];
        for (int i = 0; i < dec[k].ndims; i++) {
            char name[64];
            snprintf(name, sizeof name, "D%d_dim%d", k + 1, i);
            if ((rc = ncmpi_def_dim(ncid, name, dec[k].dims[i], &dimids[i])) != NC_NOERR)
                die(1, "def_dim", rc);
        }
        for (int j = 0; j < dec[k].nvars; j++, v++) {
            char name[64];
            snprintf(name, sizeof name, "D%d_v%d", k + 1, j);
            if ((rc = ncmpi_def_var(ncid, name, type, dec[k].ndims, dimids, &varids[v])) !=
                NC_NOERR)
                die(1, "def_var", rc);
        }
    }
    if ((rc = ncmpi_enddef(ncid)) != NC_NOERR)
        die(1, "enddef", rc);
    agree_if(as_h5perf);
    agree_if(as_h5perf);
    t[1] = MPI_Wtime() - t1;
    barrier(barriers);
    t1 = MPI_Wtime();
    agree_if(as_h5perf);
    for (int k = 0, v = 0; k < ndecomp; k++)
        for (int j = 0; j < dec[k].nvars; j++, v++) {
            if ((rc = ncmpi_iput_varn(ncid, varids[v], (int)dec[k].npieces, sp[k], cp[k], bufs[v],
                                      dec[k].elems, mtype, &reqs[v])) != NC_NOERR)
                die(1, "iput_varn", rc);
            if (agree) {
                int mine = 1, all;
                MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
            }
        }
    t[2] = MPI_Wtime() - t1;
    barrier(barriers);
    t1 = MPI_Wtime();
    if ((rc = ncmpi_wait_all(ncid, NC_REQ_ALL, NULL, NULL)) != NC_NOERR)
        die(1, "wait_all", rc);
    t[3] = MPI_Wtime() - t1;
    barrier(barriers);
    MPI_Offset put = 0;
    ncmpi_inq_put_size(ncid, &put);
    t1 = MPI_Wtime();
    if ((rc = ncmpi_close(ncid)) != NC_NOERR)
        die(1, "close", rc);
    double t_end = MPI_Wtime();
    t[4] = t_end - t1;
    t[5] = t_end - t0;
    t[0] -= t0;
    double hi[6];
    long long mine = put, sum = 0;
    MPI_Reduce(t, hi, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("seconds %.6f bytes %lld open %.6f define %.6f post %.6f wait %.6f close %.6f\n",
               hi[5], sum, hi[0], hi[1], hi[2], hi[3], hi[4]);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    MPI_Finalize();
    return 0;
}
