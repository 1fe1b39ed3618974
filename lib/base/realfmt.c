/* realfmt.c - shortest exact text of a double, and fixed decimals; see
 * realfmt.h. */
#include "realfmt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t ff_format_fixed(double v, int prec, char *buf, size_t cap)
{
    /* A finite nonzero |v| is M 2^(E - 1075), M of 53 bits: |v| 10^prec
     * is M 5^prec (64 bits: 5^4 < 2^10) over 2^(1075 - E - prec), a shift
     * of 9 bits or more when |v| < 2^40, so the rounding is exact. */
    static const uint64_t five[] = { 1, 5, 25, 125, 625 };
    char digits[24];
    uint64_t bits, q = 0;
    int exponent, nd = 0, k;
    size_t len = 0;

    memcpy(&bits, &v, sizeof bits);
    exponent = (int)((bits >> 52) & 0x7ff);
    if (prec < 0 || prec > 4 || exponent >= 1023 + 40 || cap < FF_REAL_TEXT_MAX) {
        int n = snprintf(buf, cap, "%.*f", prec, v);
        return n < 0 ? 0 : (size_t)n;
    }
    if (exponent > 0) {  /* (else zero or subnormal: under half a unit) */
        uint64_t a = ((bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52)) * five[prec];
        int shift = 1075 - exponent - prec;
        if (shift < 64) {  /* (else a < 2^63 is under half a unit) */
            uint64_t rem = a & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
            q = a >> shift;
            if (rem > half || (rem == half && (q & 1)))
                q++;
        }
    }
    /* The digits, last first, two at a time; at least prec + 1. */
    while (q >= 100) {
        const char *two = &digit_pairs[2 * (q % 100)];
        q /= 100;
        digits[nd++] = two[1];
        digits[nd++] = two[0];
    }
    digits[nd++] = (char)('0' + q % 10);
    if (q >= 10)
        digits[nd++] = (char)('0' + q / 10);
    while (nd <= prec)
        digits[nd++] = '0';
    if (bits >> 63)
        buf[len++] = '-';
    for (k = nd - 1; k >= prec; k--)
        buf[len++] = digits[k];
    if (prec > 0) {
        buf[len++] = '.';
        for (; k >= 0; k--)
            buf[len++] = digits[k];
    }
    buf[len] = '\0';
    return len;
}
