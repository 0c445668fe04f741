/* How the file system lays out new files in the data directory, as far as
 * it can be read (docs/cluster.md, docs/results.md "file_system"): the
 * block size statfs gives (on GPFS the file system's block size), the I/O
 * size stat gives, and on Lustre the directory's default striping, decoded
 * here from its lustre.lov extended attribute (Lustre's lov_user_md: v1,
 * v3 with a pool, or a composite layout's first component). Pure: the
 * bytes come from the engine (engine/context.c). */
#ifndef H5PERF_FSLAYOUT_H
#define H5PERF_FSLAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fs_layout {
    int64_t block_size; /* statfs f_bsize; 0: unknown */
    int64_t io_size;    /* the directory's st_blksize; 0: unknown */
    /* Lustre's default striping of the directory (lustre.lov). */
    bool lustre;
    int64_t stripe_size;   /* bytes; 0: the file system's default */
    int64_t stripe_count;  /* -1: every OST; 0: the file system's default */
    int64_t stripe_offset; /* the first OST; -1: Lustre chooses */
    char pool[17];         /* "" for none */
    int components;        /* a composite layout's (PFL); 0 for a plain one */
};

/* Decodes a lustre.lov value of len bytes into l (its Lustre fields).
 * Returns 0, or -1 for a layout it does not know (l->lustre false). */
int fs_layout_lov(const unsigned char *buf, size_t len, struct fs_layout *l);

#endif
