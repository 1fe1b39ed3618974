/* hugepage.h - a hint that a large array be backed by transparent huge
 * pages (2 MB on Linux), for arrays that are walked over or wandered
 * through at random: fewer page faults on first touch and fewer TLB
 * misses after.  A hint only: ignored where madvise(MADV_HUGEPAGE) is
 * missing or refused, and it never changes what the memory holds.
 */
#ifndef FF_HUGEPAGE_H
#define FF_HUGEPAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ask for huge pages under the 2 MB-aligned part of the n bytes at p
 * (the caller's memory, from malloc; nothing is allocated or freed). */
void ff_want_huge_pages(void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
