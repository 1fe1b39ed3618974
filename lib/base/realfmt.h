/* realfmt.h - a double in text with the fewest significant digits that
 * read back (strtod) to the same bits: 0.4 as "0.4", not
 * "0.40000000000000002".  For the ff stream's header, paths and points,
 * so that text round-trips exactly and content ids stay true.
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

#ifdef __cplusplus
}
#endif

#endif
