/* realfmt.h - a double in text with the fewest significant digits that
 * read back (strtod) to the same bits: 0.4 as "0.4", not
 * "0.40000000000000002".  For the ff stream's header, paths and points,
 * so that text round-trips exactly and content ids stay true.  And a
 * double with a fixed number of decimals, as printf's %.Nf writes it,
 * without printf's cost: for ffsim's trace.
 */
#ifndef FF_REALFMT_H
#define FF_REALFMT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest text ff_format_exact writes, with its terminating NUL. */
#define FF_REAL_TEXT_MAX 32

/* Write v into buf (cap bytes, at least FF_REAL_TEXT_MAX) as %.15g,
 * %.16g or %.17g, the first that reads back to v (for a normal double,
 * %.15g is the shortest form whenever one of 15 digits or fewer exists;
 * a subnormal tries from %.1g up).  Infinities and NaN come out as printf
 * writes them.  Returns the length. */
size_t ff_format_exact(double v, char *buf, size_t cap);

/* The same for a binary32 value: the fewest of 6 to 9 significant digits
 * (%.6g up to %.9g; a subnormal tries from %.1g) that read back (strtof)
 * to v, so that 0.1f is "0.1".  Returns the length. */
size_t ff_format_exact_float(float v, char *buf, size_t cap);

/* Longest text ff_format_fixed writes with prec 0 to 4, with its
 * terminating NUL: a sign, the 309 digits of DBL_MAX, a point, 4 decimals. */
#define FF_FIXED_TEXT_MAX 320

/* Write v into buf (cap bytes, at least FF_FIXED_TEXT_MAX) as printf's
 * "%.*f" with prec decimals writes it: the exact value of v rounded to
 * prec decimals, an exact half to the even last digit (printf's default
 * rounding), a minus sign whenever v's sign bit is set ("-0.0000").
 * prec 0 to 4 and |v| < 2^40 are done with integers alone, anything else
 * by snprintf (so infinities and NaN come out as printf writes them;
 * a prec over 4 may need more room).  Returns the length. */
size_t ff_format_fixed(double v, int prec, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
