/* test_realfmt.c - ff_format_exact against a brute force: for each value,
 * the fewest significant digits (1 to 17) with which printf's %g reads
 * back to the same bits; the text must read back and carry that many. */
#include <criterion/criterion.h>
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

/* Random bit patterns (every exponent) and random short decimals. */
Test(realfmt, brute_force)
{
    uint64_t s = 88172645463325252ull;
    int k;
    for (k = 0; k < 20000; k++) {
        uint64_t bits;
        double v;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        bits = s;
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
