/* realfmt.c - shortest exact text of a double; see realfmt.h. */
#include "realfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

size_t ff_format_exact(double v, char *buf, size_t cap)
{
    int prec, len = 0;

    for (prec = 15; prec <= 17; prec++) {
        len = snprintf(buf, cap, "%.*g", prec, v);
        if (!isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return len < 0 ? 0 : (size_t)len;
}
