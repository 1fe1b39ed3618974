/* mapfscen.c - reading Moving AI MAPF scenarios; see mapfscen.h. */
#define _POSIX_C_SOURCE 200809L
#include "mapfscen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "infile.h"
#include "records.h"

#define SCEN_FIELDS 9

/* A whole number in 0..hi (cells, sizes; hi < 2^31), digits alone: 1
 * and *v, or 0. */
static int whole(const char *s, long hi, int32_t *v)
{
    long long x = 0;  /* (10 hi + 9 fits) */

    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((x = 10 * x + (*s - '0')) > hi)
            return 0;
    if (*s)
        return 0;
    *v = (int32_t)x;
    return 1;
}

/* Split line into at most SCEN_FIELDS fields at tabs and spaces (map
 * names have no blanks): their starts and columns; the count, or
 * SCEN_FIELDS + 1 when there are more. */
static int fields(char *line, char **f, long *col)
{
    char *p = line;
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return n;
        if (n == SCEN_FIELDS)
            return n + 1;
        f[n] = p;
        col[n] = (long)(p - line) + 1;
        n++;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

FILE *ff_mapf_scen_open(const char *base, const char *file, char **path, ff_error *why)
{
    const char *slash = strrchr(base, '/');
    size_t dir = slash && file[0] != '/' ? (size_t)(slash - base) + 1 : 0;

    if (!(*path = malloc(dir + strlen(file) + 1))) {
        ff_error_set(why, FF_ENOMEM, file, 0, 0, "out of memory");
        return NULL;
    }
    memcpy(*path, base, dir);
    strcpy(*path + dir, file);
    return ff_file_open_regular(*path, why);
}

ff_status ff_mapf_scen_read(FILE *f, const char *name, size_t max, ff_mapf_agent **agents,
                            size_t *n, ff_error *err)
{
    static const char *const what[] = { "bucket", "map", "map width", "map height", "start x",
                                        "start y", "goal x", "goal y", "optimal length" };
    char buf[FF_RECORD_LINE_MAX];
    ff_records rec;
    ff_mapf_agent *a = NULL;
    size_t cap = 0;
    int got = 0, version = 0;
    ff_status st = FF_OK;

    *agents = NULL;
    *n = 0;
    ff_records_init(&rec, f, name);
    while (*n < max && (got = ff_records_line(&rec, buf, err)) == 1) {
        char *fld[SCEN_FIELDS];
        long col[SCEN_FIELDS];
        int32_t v[SCEN_FIELDS];
        int k, m = fields(buf, fld, col);
        if (m == 0)
            continue;
        if (!version) {
            if (m != 2 || strcmp(fld[0], "version") != 0 || strcmp(fld[1], "1") != 0) {
                st = ff_error_set(err, FF_EINPUT, name, rec.line, 1,
                                  "expected 'version 1' (a Moving AI MAPF scenario)");
                goto failed;
            }
            version = 1;
            continue;
        }
        if (m != SCEN_FIELDS) {
            st = ff_error_set(err, FF_EINPUT, name, rec.line, m > SCEN_FIELDS ? col[SCEN_FIELDS - 1] : 1,
                              "%s: want 9 fields (bucket, map, width, height, start x, start y, "
                              "goal x, goal y, length)", m > SCEN_FIELDS ? "too many fields" : "too few fields");
            goto failed;
        }
        for (k = 2; k < 8; k++)
            if (!whole(fld[k], 1L << 30, &v[k]) || (k < 4 && v[k] == 0)) {
                st = ff_error_set(err, FF_EINPUT, name, rec.line, col[k], "%s '%.40s' is not a %s",
                                  what[k], fld[k], k < 4 ? "whole number > 0" : "whole number >= 0");
                goto failed;
            }
        for (k = 4; k < 8; k += 2)
            if (v[k] >= v[2] || v[k + 1] >= v[3]) {
                st = ff_error_set(err, FF_EINPUT, name, rec.line, col[k], "%s %d,%d is outside the %dx%d map",
                                  k == 4 ? "start" : "goal", (int)v[k], (int)v[k + 1], (int)v[2], (int)v[3]);
                goto failed;
            }
        if (*n == cap) {
            ff_mapf_agent *p = ff_grow(a, &cap, *n + 1, sizeof *p, 64);
            if (!p) {
                st = ff_error_set(err, FF_ENOMEM, name, rec.line, 0, "out of memory for agents");
                goto failed;
            }
            a = p;
        }
        a[*n].width = v[2];
        a[*n].height = v[3];
        a[*n].sx = v[4];
        a[*n].sy = v[5];
        a[*n].gx = v[6];
        a[*n].gy = v[7];
        a[*n].line = rec.line;
        a[*n].start_col = col[4];
        a[*n].goal_col = col[6];
        (*n)++;
    }
    if (*n < max && got < 0) {
        st = err ? err->status : FF_EINPUT;
        goto failed;
    }
    if (!version) {
        st = ff_error_set(err, FF_EINPUT, name, 0, 0, "empty scenario: expected 'version 1'");
        goto failed;
    }
    *agents = a;
    return FF_OK;
failed:
    free(a);
    *n = 0;
    return st;
}
