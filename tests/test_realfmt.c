/* test_realfmt.c - ff_format_exact against a brute force: for each value,
 * the fewest significant digits (1 to 17) with which printf's %g reads
 * back to the same bits; the text must read back and carry that many. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "realfmt.h"

/* The significant digits of a %g text: the digits of its mantissa without
 * leading zeros and trailing zeros. */
static int significant(const char *s)
{
    char digits[64];
    size_t n = 0, a = 0, b;

    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '0' && *s <= '9')
            digits[n++] = *s;
    while (a < n && digits[a] == '0')
        a++;
    b = n;
    while (b > a && digits[b - 1] == '0')
        b--;
    return b > a ? (int)(b - a) : 1;
}

static int fewest(double v)
{
    char buf[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return p;
    }
    return 99;
}

static void check_value(double v)
{
    char buf[FF_REAL_TEXT_MAX];
    size_t len = ff_format_exact(v, buf, sizeof buf);
    double back = strtod(buf, NULL);

    cr_assert_eq(len, strlen(buf));
    cr_assert(memcmp(&back, &v, sizeof v) == 0, "%s does not read back to %.17g", buf, v);
    cr_assert_eq(significant(buf), fewest(v), "%s: %d digits, %d would do", buf, significant(buf),
                 fewest(v));
}

Test(realfmt, hand_values)
{
    char buf[FF_REAL_TEXT_MAX];
    static const struct { double v; const char *text; } table[] = {
        { 0.4, "0.4" }, { 0.1 + 0.2, "0.30000000000000004" }, { 1, "1" }, { 0.7, "0.7" },
        { -10, "-10" }, { 1e300, "1e+300" }, { 5e-324, "5e-324" }, { 3 * 5e-324, "1.5e-323" },
        { 1.0 / 3, "0.3333333333333333" }, { 123456.789, "123456.789" }, { 0, "0" },
        { -0.0, "-0" }, { 2.5e-7, "2.5e-07" },
    };
    size_t k;
    for (k = 0; k < sizeof table / sizeof *table; k++) {
        ff_format_exact(table[k].v, buf, sizeof buf);
        cr_assert_str_eq(buf, table[k].text);
    }
    ff_format_exact(INFINITY, buf, sizeof buf);
    cr_assert_str_eq(buf, "inf");
}

/* Marsaglia's xorshift64: the next of a fixed sequence of bit patterns. */
static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random bit patterns (every exponent) and random short decimals. */
Test(realfmt, brute_force)
{
    uint64_t s = 88172645463325252ull;
    int k;
    for (k = 0; k < 20000; k++) {
        uint64_t bits = xorshift(&s);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (isfinite(v))
            check_value(v);
        bits &= 0x800fffffffffffffull;  /* a subnormal */
        memcpy(&v, &bits, sizeof v);
        check_value(v);
        check_value((double)(s % 100000) / 1000.0);
        check_value((double)(int64_t)(s % 2001) * 0.05 - 50);
    }
}

/* ff_format_exact_float: the fewest %g digits (1 to 9) that strtof reads
 * back to the same bits, for random bit patterns, subnormals and short
 * decimals. */
static int fewest_float(float v)
{
    char buf[64];
    int p;
    for (p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)v);
        if (strtof(buf, NULL) == v)
            return p;
    }
    return 99;
}

static void check_float(float v)
{
    char buf[FF_REAL_TEXT_MAX];
    size_t len = ff_format_exact_float(v, buf, sizeof buf);
    float back = strtof(buf, NULL);

    cr_assert_eq(len, strlen(buf));
    cr_assert(memcmp(&back, &v, sizeof v) == 0, "%s does not read back to %.9g", buf, (double)v);
    cr_assert_eq(significant(buf), fewest_float(v), "%s: %d digits, %d would do", buf,
                 significant(buf), fewest_float(v));
}

Test(realfmt, float_values)
{
    char buf[FF_REAL_TEXT_MAX];
    uint32_t s = 2463534242u;
    int k;

    ff_format_exact_float(0.1f, buf, sizeof buf);
    cr_assert_str_eq(buf, "0.1");
    ff_format_exact_float(16777217.0f, buf, sizeof buf);
    cr_assert_str_eq(buf, "16777216");
    ff_format_exact_float(INFINITY, buf, sizeof buf);
    cr_assert_str_eq(buf, "inf");
    for (k = 0; k < 40000; k++) {
        uint32_t bits;
        float v;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        bits = s;
        memcpy(&v, &bits, sizeof v);
        if (isfinite(v))
            check_float(v);
        bits &= 0x807fffffu; /* a subnormal */
        memcpy(&v, &bits, sizeof v);
        check_float(v);
        check_float((float)(s % 100000) / 1000.0f);
    }
}

/* ff_format_fixed against printf's %.*f: exact halves (dyadic values such
 * as 0.03125 = 312.5 / 10^4) go to the even digit, negative values that
 * round to nothing keep their sign, and random bit patterns, short
 * decimals, halves and values near 2^40 read the same as printf's text. */
static void check_fixed(double v, int prec)
{
    char want[512], got[512];
    size_t len = ff_format_fixed(v, prec, got, sizeof got);

    snprintf(want, sizeof want, "%.*f", prec, v);
    cr_assert_eq(len, strlen(got));
    cr_assert_str_eq(got, want, "%.17g with %d decimals", v, prec);
}

Test(realfmt, fixed_hand_values)
{
    char buf[FF_FIXED_TEXT_MAX], big[2 * FF_FIXED_TEXT_MAX];
    static const struct { double v; int prec; const char *text; } table[] = {
        { 0.03125, 4, "0.0312" }, { 0.09375, 4, "0.0938" }, { 2.5, 0, "2" }, { 3.5, 0, "4" },
        { 0.125, 2, "0.12" }, { 0.375, 2, "0.38" }, { -0.0, 4, "-0.0000" }, { 0, 4, "0.0000" },
        { -1e-300, 4, "-0.0000" }, { 1e-300, 2, "0.00" }, { 12.5, 4, "12.5000" },
        { -3.99996, 4, "-4.0000" }, { 359.994, 2, "359.99" }, { 1.00005, 4, "1.0001" },
        { 1099511627775.5, 0, "1099511627776" }, { 7, 0, "7" }, { 0.1, 1, "0.1" },
    };
    size_t k;

    for (k = 0; k < sizeof table / sizeof *table; k++) {
        ff_format_fixed(table[k].v, table[k].prec, buf, sizeof buf);
        cr_assert_str_eq(buf, table[k].text, "%.17g with %d decimals", table[k].v, table[k].prec);
        check_fixed(table[k].v, table[k].prec);
    }
    ff_format_fixed(-INFINITY, 4, buf, sizeof buf);
    cr_assert_str_eq(buf, "-inf");
    ff_format_fixed(NAN, 4, buf, sizeof buf);
    cr_assert_str_eq(buf, "nan");
    check_fixed(0x1p40, 4);
    check_fixed(-0x1p40, 2);
    check_fixed(1.25, 6);
    check_fixed(1e300, 3);
    cr_assert_lt(ff_format_fixed(-DBL_MAX, 4, big, sizeof big), FF_FIXED_TEXT_MAX);
}

Test(realfmt, fixed_brute_force)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int k, prec;

    for (k = 0; k < 12000; k++) {
        uint64_t bits;
        double v;
        xorshift(&s);
        for (prec = 0; prec <= 4; prec++) {
            bits = s;
            memcpy(&v, &bits, sizeof v);
            if (isfinite(v) && fabs(v) < 1e30)
                check_fixed(v, prec);
            /* Bits of every exponent from 2^-30 to 2^41. */
            bits = (s & 0x800fffffffffffffull) | ((uint64_t)(1023 - 30 + (s >> 52) % 72) << 52);
            memcpy(&v, &bits, sizeof v);
            check_fixed(v, prec);
            check_fixed((double)(int64_t)(s % 2000001) / 1000.0 - 1000, prec);
            /* Halves of the last decimal, and dyadic values near them. */
            check_fixed(((double)(int64_t)(s % 200001) - 100000 + 0.5) / 10000.0, prec);
            check_fixed((double)(int64_t)(s % 4096) / 4096.0 * (double)(1 + s % 7), prec);
            check_fixed(ldexp((double)(s % 1000003), -(int)(s % 24)), prec);
        }
    }
}
