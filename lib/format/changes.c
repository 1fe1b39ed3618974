/* changes.c - the change list of ffbuild --update; see changes.h. */
#include "changes.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "ranges.h"
#include "records.h"

#define COORD_MAX 2147483647LL

/* The next word of a line from *p (spaces and tabs skipped; a carriage
 * return counts as a space), NUL-terminated in place; NULL at the end. */
static char *next_word(char **p)
{
    char *s = *p, *w;

    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    if (!*s)
        return NULL;
    w = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r')
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return w;
}

/* Parse "X0,Y0,X1,Y1" into c; 0 on success. */
static int parse_rect(const char *s, ff_map_change *c)
{
    long long v[4];
    int k;

    for (k = 0; k < 4; k++) {
        char *end;
        if (!(*s == '-' || (*s >= '0' && *s <= '9')))
            return -1;
        errno = 0;
        v[k] = strtoll(s, &end, 10);
        if (errno || end == s || v[k] < -COORD_MAX || v[k] > COORD_MAX)
            return -1;
        if (*end != (k < 3 ? ',' : '\0'))
            return -1;
        s = end + (k < 3);
    }
    c->x0 = v[0];
    c->y0 = v[1];
    c->x1 = v[2];
    c->y1 = v[3];
    return 0;
}

/* Parse one line (comments cut) into c; FF_ENOTFOUND for a blank line. */
static ff_status parse_line(char *buf, long line, const char *name, ff_map_change *c,
                            ff_error *err)
{
    char *p = buf, *kind, *rect, *cost, *extra;

    if (!(kind = next_word(&p)))
        return FF_ENOTFOUND;
    c->line = line;
    c->cost = 0;
    if (strcmp(kind, "close") == 0)
        c->kind = FF_CHANGE_CLOSE;
    else if (strcmp(kind, "cost") == 0)
        c->kind = FF_CHANGE_COST;
    else
        return ff_error_set(err, FF_EINPUT, name, line, kind - buf + 1,
                            "unknown change '%.40s' (close or cost)", kind);
    if (!(rect = next_word(&p)))
        return ff_error_set(err, FF_EINPUT, name, line, (long)strlen(kind) + (kind - buf) + 1,
                            "%s wants a rectangle X0,Y0,X1,Y1", kind);
    c->col = rect - buf + 1;
    if (parse_rect(rect, c) != 0)
        return ff_error_set(err, FF_EINPUT, name, line, c->col,
                            "bad rectangle '%.40s' (want X0,Y0,X1,Y1, four integers)", rect);
    if (c->x0 > c->x1 || c->y0 > c->y1)
        return ff_error_set(err, FF_EINPUT, name, line, c->col,
                            "rectangle %.40s is empty (want X0 <= X1 and Y0 <= Y1)", rect);
    if (c->kind == FF_CHANGE_COST) {
        char *end;
        double v;
        if (!(cost = next_word(&p)))
            return ff_error_set(err, FF_EINPUT, name, line, (long)(p - buf) + 1,
                                "cost wants a cost C after the rectangle");
        errno = 0;
        v = strtod(cost, &end);
        if (end == cost || *end || errno == ERANGE || !ff_range_ok(FF_RANGE_COST, v))
            return ff_error_set(err, FF_EINPUT, name, line, cost - buf + 1,
                                "bad cost '%.40s' (want a number %s; close makes walls)", cost,
                                ff_range_text(FF_RANGE_COST));
        c->cost = (float)v;
    }
    if ((extra = next_word(&p)) != NULL)
        return ff_error_set(err, FF_EINPUT, name, line, extra - buf + 1,
                            "unexpected '%.40s' after the change", extra);
    return FF_OK;
}

ff_status ff_changes_read(FILE *f, const char *name, ff_change_list *out, ff_error *err)
{
    char buf[FF_RECORD_LINE_MAX];
    ff_records rec;
    size_t cap = 0;
    ff_status st = FF_OK;
    int got;

    out->change = NULL;
    out->n = 0;
    ff_records_init(&rec, f, name);
    while ((got = ff_records_line(&rec, buf, err)) > 0) {
        char *hash = strchr(buf, '#');
        ff_map_change c;
        if (hash)
            *hash = '\0';
        st = parse_line(buf, rec.line, name, &c, err);
        if (st == FF_ENOTFOUND)
            continue;
        if (st != FF_OK)
            break;
        if (out->n == cap) {
            ff_map_change *p = ff_grow(out->change, &cap, out->n + 1, sizeof *p, 16);
            if (!p) {
                st = ff_error_set(err, FF_ENOMEM, name, rec.line, 0, "out of memory for changes");
                break;
            }
            out->change = p;
        }
        out->change[out->n++] = c;
    }
    if (got < 0)
        st = err ? err->status : FF_EINPUT;
    if (st != FF_OK && st != FF_ENOTFOUND) {
        ff_changes_free(out);
        return st;
    }
    return FF_OK;
}

void ff_changes_free(ff_change_list *l)
{
    free(l->change);
    l->change = NULL;
    l->n = 0;
}
