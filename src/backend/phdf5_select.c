/* The HDF5 backend's dataspaces and selections (phdf5.c): a step's file
 * selection as the union of its slabs' hyperslabs (more than 16 merged
 * pairwise: docs/map.md, "HDF5's unions"), its memory selection, and the
 * shortcut that moves the last selection when a step has its shape. Must
 * not print, time or exit. */
#include "backend/phdf5.h"

hid_t phdf5_space(int ndims, const int64_t *dims)
{
    hsize_t d[MODEL_MAX_DIMS];
    for (int i = 0; i < ndims; i++)
        d[i] = (hsize_t)dims[i];
    return H5Screate_simple(ndims, d, NULL);
}

static bool phdf5_same_shape(const struct model_slab *a, const struct model_slab *b)
{
    for (int d = 0; d < a->ndims; d++)
        if (a->stride[d] != b->stride[d] || a->count[d] != b->count[d] ||
            a->block[d] != b->block[d])
            return false;
    return a->ndims == b->ndims;
}

static void phdf5_hsize(int n, const int64_t *v, hsize_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = (hsize_t)v[i];
}

/* Slabs a union takes one by one (H5S_SELECT_OR) before it merges
 * unions pairwise. */
#define PHDF5_UNION_LEAF 16

/* The hyperslab of slab sl, selected into space (SET or OR). */
static herr_t phdf5_hyperslab(hid_t space, H5S_seloper_t op, const struct model_slab *sl)
{
    hsize_t start[MODEL_MAX_DIMS], stride[MODEL_MAX_DIMS], count[MODEL_MAX_DIMS],
        block[MODEL_MAX_DIMS];
    phdf5_hsize(sl->ndims, sl->start, start);
    phdf5_hsize(sl->ndims, sl->stride, stride);
    phdf5_hsize(sl->ndims, sl->count, count);
    phdf5_hsize(sl->ndims, sl->block, block);
    return H5Sselect_hyperslab(space, op, start, stride, count, block);
}

/* A copy of space selecting the union of the non-empty slabs [lo, hi), or
 * a negative id. Adding hyperslabs one by one costs HDF5 time in the size
 * of the union so far (quadratic: 4.5 s for 10,000 single-element runs);
 * halves merged by H5Scombine_select keep it near n log n
 * (docs/map.md, "HDF5's unions"). */
static hid_t phdf5_union(hid_t space, const struct model_slab *all, int lo, int hi)
{
    if (hi - lo > PHDF5_UNION_LEAF) {
        int mid = lo + (hi - lo) / 2;
        hid_t a = phdf5_union(space, all, lo, mid);
        hid_t b = a >= 0 ? phdf5_union(space, all, mid, hi) : H5I_INVALID_HID;
        hid_t u = b >= 0 ? H5Scombine_select(a, H5S_SELECT_OR, b) : H5I_INVALID_HID;
        if (a >= 0)
            H5Sclose(a);
        if (b >= 0)
            H5Sclose(b);
        return u;
    }
    hid_t u = H5Scopy(space);
    bool first = true;
    for (int i = lo; u >= 0 && i < hi; i++) {
        if (model_slab_elems(&all[i]) == 0)
            continue;
        if (phdf5_hyperslab(u, first ? H5S_SELECT_SET : H5S_SELECT_OR, &all[i]) < 0) {
            H5Sclose(u);
            return H5I_INVALID_HID;
        }
        first = false;
    }
    if (u >= 0 && first && H5Sselect_none(u) < 0) {
        H5Sclose(u);
        return H5I_INVALID_HID;
    }
    return u;
}

/* The file and memory selections of step s in its variable x: the union
 * of its slabs' hyperslabs; memory the shape of a single piece, else one
 * dimension. */
int phdf5_select(struct backend_file *f, struct phdf5_var *x, const struct plan_step *s,
                 struct err *e)
{
    const struct model_slab *all = plan_slabs(s);
    int64_t elems = 0;
    for (int i = 0; i < s->nslabs; i++)
        elems += model_slab_elems(&all[i]);
    if (s->nslabs == 1 && x->selected && phdf5_same_shape(&x->sel, &all[0])) {
        hssize_t off[MODEL_MAX_DIMS];
        for (int d = 0; d < x->sel.ndims; d++)
            off[d] = (hssize_t)(all[0].start[d] - x->sel.start[d]);
        return H5Soffset_simple(x->fspace, off) < 0 ? phdf5_fail(f, "offset selection", e) : 0;
    }
    x->selected = false;
    if (x->mspace >= 0)
        H5Sclose(x->mspace);
    int64_t mdims[MODEL_MAX_DIMS] = {elems, 0, 0};
    int mnd = 1;
    if (s->nslabs == 1) {
        mnd = all[0].ndims;
        for (int d = 0; d < mnd; d++)
            mdims[d] = all[0].count[d] * all[0].block[d];
    }
    hssize_t zero[MODEL_MAX_DIMS] = {0, 0, 0};
    if ((x->mspace = phdf5_space(mnd, mdims)) < 0 || H5Soffset_simple(x->fspace, zero) < 0)
        return phdf5_fail(f, "dataspace", e);
    /* A process without data selects nothing and still takes part. */
    if (elems == 0) {
        if (H5Sselect_none(x->fspace) < 0 || H5Sselect_none(x->mspace) < 0)
            return phdf5_fail(f, "select none", e);
        return 0;
    }
    if (s->nslabs > PHDF5_UNION_LEAF) {
        hid_t u = phdf5_union(x->fspace, all, 0, s->nslabs);
        if (u < 0)
            return phdf5_fail(f, "select hyperslabs", e);
        H5Sclose(x->fspace);
        x->fspace = u;
    }
    for (int i = 0, n = 0; s->nslabs <= PHDF5_UNION_LEAF && i < s->nslabs; i++) {
        if (model_slab_elems(&all[i]) == 0)
            continue;
        if (phdf5_hyperslab(x->fspace, n++ == 0 ? H5S_SELECT_SET : H5S_SELECT_OR, &all[i]) < 0)
            return phdf5_fail(f, "select hyperslab", e);
    }
    if (s->nslabs == 1) {
        x->sel = all[0];
        x->selected = true;
    }
    return 0;
}
