/* fuzz_records.c - libFuzzer target: the point, path and portal text
 * records (ff_records_next).  Each record read is printed back with %.17g
 * and must read again to the same numbers, bit for bit; line numbers only
 * grow.  The bytes are read twice: as records of 1 to FF_RECORD_MAX numbers,
 * and as points of exactly two. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "records.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reprint_and_compare(const double *v, int n)
{
    char line[FF_RECORD_MAX * 32];
    double back[FF_RECORD_MAX];
    size_t len = 0;
    ff_records r;
    ff_error err;
    int k, count = 0;
    FILE *f;

    for (k = 0; k < n; k++)
        len += (size_t)snprintf(line + len, sizeof line - len, k ? " %.17g" : "%.17g", v[k]);
    f = fmemopen(line, len, "rb");
    if (!f)
        abort();
    ff_records_init(&r, f, "roundtrip");
    FUZZ_CHECK(ff_records_next(&r, back, n, n, &count, &err) == FF_OK);
    FUZZ_CHECK(count == n && r.line == 1);
    for (k = 0; k < n; k++)
        FUZZ_CHECK(memcmp(&v[k], &back[k], sizeof v[k]) == 0);
    FUZZ_CHECK(ff_records_next(&r, back, n, n, &count, &err) == FF_ENOTFOUND);
    fclose(f);
}

static void read_all(const uint8_t *data, size_t size, int min, int max)
{
    FILE *f = open_bytes(data, size);
    double v[FF_RECORD_MAX];
    ff_records r;
    ff_error err;
    ff_status st;
    long last = 0;
    int n, k;

    if (!f)
        abort();
    ff_records_init(&r, f, "fuzz");
    ff_error_clear(&err);
    while ((st = ff_records_next(&r, v, min, max, &n, &err)) == FF_OK) {
        FUZZ_CHECK(n >= min && n <= max);
        FUZZ_CHECK(r.line > last);
        last = r.line;
        for (k = 0; k < n; k++)
            FUZZ_CHECK(isfinite(v[k]));
        reprint_and_compare(v, n);
    }
    if (st != FF_ENOTFOUND) {
        FUZZ_CHECK(st == FF_EINPUT);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
        FUZZ_CHECK(err.line >= 1);
    }
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size, 1, FF_RECORD_MAX);
    read_all(data, size, 2, 2);
    return 0;
}
