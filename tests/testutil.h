/* testutil.h - small helpers shared by the Criterion suites. */
#ifndef FF_TESTUTIL_H
#define FF_TESTUTIL_H

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open a string as a read-only FILE (fmemopen), for feeding readers. */
static inline FILE *tu_string_file(const char *s)
{
    return fmemopen((void *)s, strlen(s), "rb");
}

/* Path of a file under testdata/, whichever folder the test runs from. */
static inline const char *tu_testdata(const char *rel, char *buf, size_t cap)
{
    snprintf(buf, cap, "testdata/%s", rel);
    return buf;
}

/* splitmix64: a small seeded generator for reproducible random maps. */
static inline unsigned long long tu_next(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
