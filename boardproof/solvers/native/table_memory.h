/*
 * Zeroed memory for the big transposition tables (included by minefield.c and
 * carpniches.c).
 *
 * A table probe is mostly a cache miss, and with 4 KiB pages a TLB miss too (a table of
 * 2**22 entries spans ~25,000 pages). Where the system offers transparent huge pages on
 * request (Linux, MADV_HUGEPAGE), a table of 2 MiB or more is aligned to 2 MiB and asked
 * for huge pages, so one TLB entry covers 512 times as much of it. Elsewhere, or if the
 * request is refused, it is ordinary memory: only the speed differs.
 */
#ifndef BOARDPROOF_TABLE_MEMORY_H
#define BOARDPROOF_TABLE_MEMORY_H

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define TABLE_HUGE_PAGE ((size_t)2 << 20)

/* like calloc(count, size); release with free() */
static void *table_calloc(size_t count, size_t size) {
    if (size != 0 && count > (size_t)-1 / size) return NULL;
    size_t bytes = count * size;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= TABLE_HUGE_PAGE) {
        void *p = NULL;
        size_t rounded = (bytes + TABLE_HUGE_PAGE - 1) & ~(TABLE_HUGE_PAGE - 1);
        if (posix_memalign(&p, TABLE_HUGE_PAGE, rounded) == 0) {
            madvise(p, rounded, MADV_HUGEPAGE); /* a hint: refused is fine */
            memset(p, 0, bytes);
            return p;
        }
    }
#endif
    return calloc(count, size);
}

#endif
