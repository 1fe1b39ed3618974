/* hugepage.c - the huge-page hint; see hugepage.h. */
#define _DEFAULT_SOURCE  /* madvise(MADV_HUGEPAGE) */
#include "hugepage.h"

#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void ff_want_huge_pages(void *p, size_t n)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + n) & ~(huge - 1);
    if (p && e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}
