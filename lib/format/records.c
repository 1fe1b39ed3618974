/* records.c - the point, path and portal text formats; see records.h. */
#define _POSIX_C_SOURCE 200809L  /* getc_unlocked */
#include "records.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ff_records_init(ff_records *r, FILE *f, const char *name)
{
    r->f = f;
    r->name = name;
    r->line = 0;
    r->integers = 0;
}

int ff_integer_text(const char *s, const char *end)
{
    if (s < end && (*s == '+' || *s == '-'))
        s++;
    if (s == end)
        return 0;
    for (; s < end; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

int ff_records_line(ff_records *r, char *buf, ff_error *err)
{
    size_t n = 0;
    int c, any = 0;

    /* The file is this reader's alone: no lock a byte. */
    while ((c = getc_unlocked(r->f)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (n + 1 >= FF_RECORD_LINE_MAX) {
            ff_error_set(err, FF_EINPUT, r->name, r->line + 1, 0,
                         "line longer than %d bytes", FF_RECORD_LINE_MAX - 1);
            return -1;
        }
        buf[n++] = (char)(c == '\0' ? 1 : c);  /* a NUL is just a bad byte */
    }
    if (c == EOF && ferror(r->f)) {
        ff_error_set(err, FF_EIO, r->name, r->line + 1, 0, "read error: %s", strerror(errno));
        return -1;
    }
    if (!any)
        return 0;
    r->line++;
    buf[n] = '\0';
    return 1;
}

ff_status ff_records_next(ff_records *r, double *value, int min, int max,
                         int *count, ff_error *err)
{
    char buf[FF_RECORD_LINE_MAX];

    for (;;) {
        char *p = buf, *hash;
        int n = 0, got = ff_records_line(r, buf, err);
        if (got < 0)
            return err ? err->status : FF_EINPUT;
        if (got == 0)
            return FF_ENOTFOUND;
        if ((hash = strchr(buf, '#')) != NULL)
            *hash = '\0';
        r->integers = 0;
        for (;;) {
            char *end;
            double v;
            while (*p == ' ' || *p == '\t' || *p == '\r')
                p++;
            if (!*p)
                break;
            if (n == max)
                return ff_error_set(err, FF_EINPUT, r->name, r->line, (long)(p - buf) + 1,
                                    "more than %d numbers on the line", max);
            errno = 0;
            v = strtod(p, &end);
            /* A point may be written X,Y (or X, Y): the comma joins two
             * numbers. */
            if (end != p && *end == ',' && isfinite(v)) {
                char *second = end + 1, *end2;
                double v2;
                while (*second == ' ' || *second == '\t')
                    second++;
                v2 = strtod(second, &end2);
                if (*second != ',' && end2 != second &&
                    (!*end2 || *end2 == ' ' || *end2 == '\t' || *end2 == '\r')) {
                    if (n + 1 == max)
                        return ff_error_set(err, FF_EINPUT, r->name, r->line, (long)(p - buf) + 1,
                                            "more than %d numbers on the line", max);
                    if (!isfinite(v2)) {
                        *end2 = '\0';
                        return ff_error_set(err, FF_EINPUT, r->name, r->line, (long)(second - buf) + 1,
                                            "'%.40s' is not a finite number", second);
                    }
                    r->integers |= (unsigned)ff_integer_text(p, end) << n;
                    value[n++] = v;
                    r->integers |= (unsigned)ff_integer_text(second, end2) << n;
                    value[n++] = v2;
                    p = end2;
                    continue;
                }
            }
            if (end == p || (*end && *end != ' ' && *end != '\t' && *end != '\r')) {
                char *stop = p;
                while (*stop && *stop != ' ' && *stop != '\t' && *stop != '\r')
                    stop++;
                *stop = '\0';
                return ff_error_set(err, FF_EINPUT, r->name, r->line, (long)(p - buf) + 1,
                                    "'%.40s' is not a number", p);
            }
            if (!isfinite(v)) {
                *end = '\0';
                return ff_error_set(err, FF_EINPUT, r->name, r->line, (long)(p - buf) + 1,
                                    "'%.40s' is not a finite number", p);
            }
            r->integers |= (unsigned)ff_integer_text(p, end) << n;
            value[n++] = v;
            p = end;
        }
        if (n == 0)
            continue;
        if (n < min)
            return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                                "%d number%s on the line, expected %d%s", n, n == 1 ? "" : "s",
                                min, max > min ? " or more" : "");
        *count = n;
        return FF_OK;
    }
}
