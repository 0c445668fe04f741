/* PnetCDF's model (file_model.h): a CDF-5 file's header, then each variable at
 * a multiple of -a (nc_var_align_size; of 512 bytes without -a),
 * docs/pnetcdf.md, "Alignment". */
#include "api/file_model.h"

/* A CDF-5 header: 12 bytes, the dimensions' list (24 bytes per dimension
 * with its name), the empty attributes' list and the variables' list (below
 * 136 bytes per variable of up to 64 characters and 3 dimensions): 1 KiB
 * plus 256 bytes per variable bounds it. PnetCDF pads it to 512 bytes. */
#define EXTENT_CDF_HEADER  1024
#define EXTENT_CDF_PER_VAR 256
#define EXTENT_CDF_ALIGN   512

/* n rounded up to a multiple of a, or -1 when it does not fit. */
static int64_t extent_round_up(int64_t n, int64_t a)
{
    int64_t q = n / a + (n % a != 0);
    return api_mul_add(q, a, 0);
}

static int64_t pnetcdf_extent(const struct extent_file *f, int64_t align, int64_t threshold,
                              bool upper)
{
    (void)threshold, (void)upper;
    int64_t n = f->nvars;
    int64_t a = align > 1 ? align : EXTENT_CDF_ALIGN;
    int64_t header = extent_round_up(api_mul_add(n, EXTENT_CDF_PER_VAR, EXTENT_CDF_HEADER), a);
    int64_t var = extent_round_up(f->var_bytes, a);
    return header < 0 || var < 0 ? -1 : api_mul_add(n, var, header);
}

int64_t pnetcdf_file_end(const struct extent_file *f)
{
    int64_t n = f->nvars;
    int64_t header =
        extent_round_up(api_mul_add(n, EXTENT_CDF_PER_VAR, EXTENT_CDF_HEADER), EXTENT_CDF_ALIGN);
    int64_t var = f->var_bytes <= PNETCDF_MAX_VAR_BYTES ? extent_round_up(f->var_bytes, 4) : -1;
    return header < 0 || var < 0 ? -1 : api_mul_add(n, var, header);
}

const struct api_model pnetcdf_model = {
    .extent = pnetcdf_extent,
    .needs_align = true,
    .unit = "variable",
    .places = "PnetCDF places each variable at a multiple of the alignment",
    .remedy = "use a smaller %a",
    .probe_how = "PnetCDF places each variable at a multiple",
    /* 1.12.3 fails from 2 GiB - 1 on and writes a file that is not netCDF
     * above 2^62 (docs/pnetcdf.md, "Alignment"). */
    .max_align = INT64_C(1) << 30,
    .max_align_why = "PnetCDF takes the alignment (nc_var_align_size) as a 32-bit value and "
                     "fails from 2 GiB on; use at most 1G",
};
