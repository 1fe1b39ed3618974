/* realfmt.c - shortest exact text of a double; see realfmt.h. */
#include "realfmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

size_t ff_format_exact(double v, char *buf, size_t cap)
{
    int prec, len = 0;

    /* A normal double that reads back from 15 digits has no shorter form
     * than those 15 less their trailing zeros: its nearest 15-digit
     * decimal is the shorter form padded, 15-digit decimals being spaced
     * wider than twice its ulp.  A subnormal has fewer bits: try all. */
    prec = v != 0 && fabs(v) < DBL_MIN ? 1 : 15;
    for (; prec <= 17; prec++) {
        len = snprintf(buf, cap, "%.*g", prec, v);
        if (!isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return len < 0 ? 0 : (size_t)len;
}

size_t ff_format_exact_float(float v, char *buf, size_t cap)
{
    int prec, len = 0;

    /* As above: 6-digit decimals are spaced wider than twice a normal
     * float's ulp. */
    prec = v != 0 && fabsf(v) < FLT_MIN ? 1 : 6;
    for (; prec <= 9; prec++) {
        len = snprintf(buf, cap, "%.*g", prec, (double)v);
        if (!isfinite(v) || strtof(buf, NULL) == v)
            break;
    }
    return len < 0 ? 0 : (size_t)len;
}
