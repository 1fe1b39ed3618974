/* query.c - directions at streams of positions, cell paths, reachability
 * and map ids; see query.h and man 1 ffquery. */
#define _POSIX_C_SOURCE 200809L
#include "query.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "grow.h"
#include "mapread.h"
#include "realfmt.h"
#include "records.h"
#include "sample.h"

/* Exact powers of ten: every one up to 1e22 is a double without rounding. */
static const double pow10_exact[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* ---- numbers ---- */

/* The fast path rounds v * 10^k once (v * 10^k < 2^30, so the rounding
 * error is below 2^-23 < 1.2e-7) and rounds that to an integer; only when
 * the fraction is within GUARD of one half could the exact product round
 * the other way, and then printf decides. */
#define G9_GUARD 1e-6

size_t ff_format_g9(double v, char *buf)
{
    char digits[9];
    double a = fabs(v), scaled, frac;
    uint64_t m;
    int e, k, n = 0, last;
    size_t len = 0;

    if (v == 0) {
        buf[0] = '0';
        buf[1] = '\0';
        return 1;
    }
    if (!(a >= 1e-4 && a < 1e9))
        goto slow;  /* printf's exponent form, inf and nan */
    /* e: the decimal exponent, 10^e <= a < 10^(e+1), checked below */
    if (a >= 1) {
        for (e = 0; e < 8 && a >= pow10_exact[e + 1]; e++)
            ;
        scaled = a * pow10_exact[8 - e];
    } else {
        for (e = -1; e > -4 && a * pow10_exact[-e] < 1; e--)
            ;
        scaled = a * pow10_exact[8 - e];
    }
    m = (uint64_t)scaled;
    frac = scaled - (double)m;
    if (frac > 0.5 - G9_GUARD && frac < 0.5 + G9_GUARD)
        goto slow;
    if (frac > 0.5)
        m++;
    if (m == 1000000000u) {
        m /= 10;  /* 999999999.5 or more rounded up to 10^9: one more digit */
        e++;
    }
    if (m < 100000000u || m >= 1000000000u || e > 8)
        goto slow;
    for (k = 8; k >= 0; k--) {
        digits[k] = (char)('0' + m % 10);
        m /= 10;
    }
    for (last = 8; last > 0 && digits[last] == '0'; last--)
        ;
    if (v < 0)
        buf[len++] = '-';
    if (e >= 0) {
        for (k = 0; k <= e; k++)
            buf[len++] = digits[k];
        if (last > e) {
            buf[len++] = '.';
            for (k = e + 1; k <= last; k++)
                buf[len++] = digits[k];
        }
    } else {
        buf[len++] = '0';
        buf[len++] = '.';
        for (k = e + 1; k < 0; k++)
            buf[len++] = '0';
        for (k = 0; k <= last; k++)
            buf[len++] = digits[k];
    }
    buf[len] = '\0';
    return len;
slow:
    n = snprintf(buf, FF_G9_MAX, "%.9g", v);
    return n > 0 ? (size_t)n : 0;
}

const char *ff_parse_decimal(const char *s, const char *end, double *v)
{
    uint64_t mant = 0;
    int neg = 0, digits = 0, any = 0, scale = 0, exp_neg = 0;
    long exp = 0;
    const char *p = s;

#if FLT_EVAL_METHOD != 0
    return NULL;  /* extended precision would round twice */
#endif
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    while (p < end && *p >= '0' && *p <= '9') {
        any = 1;
        if (mant || *p != '0') {
            if (++digits > 19)
                return NULL;
            mant = mant * 10 + (uint64_t)(*p - '0');
        }
        p++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            any = 1;
            if (mant || *p != '0') {
                if (++digits > 19)
                    return NULL;
                mant = mant * 10 + (uint64_t)(*p - '0');
            }
            scale--;
            p++;
        }
    }
    if (!any)
        return NULL;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            exp_neg = *p++ == '-';
        if (p == end || *p < '0' || *p > '9')
            return NULL;  /* "1e" or "1e+": strtod would stop before the e */
        while (p < end && *p >= '0' && *p <= '9') {
            if (exp < 100000)
                exp = exp * 10 + (*p - '0');
            p++;
        }
    }
    if (mant == 0) {
        *v = neg ? -0.0 : 0.0;
        return p;
    }
    exp = scale + (exp_neg ? -exp : exp);
    /* Clinger's fast path: an exact mantissa times or over an exact power of
     * ten is one correctly rounded operation. */
    if (mant > ((uint64_t)1 << 53) || exp < -22 || exp > 22)
        return NULL;
    *v = exp >= 0 ? (double)mant * pow10_exact[exp] : (double)mant / pow10_exact[-exp];
    if (neg)
        *v = -*v;
    return p;
}

/* ---- answers ---- */

void ff_query_point(const ff_field *f, const ff_query_options *o, double px, double py,
                    double ans[3])
{
    long long x, y;

    if (o->vectors && o->raw)
        ff_sample_raw_vector(&f->grid, o->vectors, px, py, &ans[0], &ans[1]);
    else if (o->vectors)
        ff_sample_smooth_vector(&f->grid, o->vectors, px, py, &ans[0], &ans[1]);
    else if (o->raw)
        ff_sample_raw(&f->grid, f->direction, px, py, &ans[0], &ans[1]);
    else
        ff_sample_smooth(&f->grid, f->direction, px, py, &ans[0], &ans[1]);
    if (!o->distance)
        ans[2] = 0;  /* not asked: spare the distance channel's cache misses */
    else if (ff_world_to_cell(&f->grid, px, py, &x, &y))
        ans[2] = f->distance[(size_t)y * (size_t)f->grid.w + (size_t)x];
    else
        ans[2] = INFINITY;
}

void ff_query_state(const ff_field *f, const ff_query_options *o, double px, double py, int h,
                    double ans[3])
{
    const uint8_t *dir;
    long long x, y;

    if (h < 0 || !o->heading_planes || !f->heading_distance) {
        ff_query_point(f, o, px, py, ans);
        return;
    }
    dir = o->heading_planes + (size_t)h * (size_t)f->grid.w * (size_t)f->grid.h;
    if (o->raw)
        ff_sample_raw(&f->grid, dir, px, py, &ans[0], &ans[1]);
    else
        ff_sample_smooth(&f->grid, dir, px, py, &ans[0], &ans[1]);
    if (!o->distance)
        ans[2] = 0;
    else if (ff_world_to_cell(&f->grid, px, py, &x, &y))
        ans[2] = f->heading_distance[8 * ((size_t)y * (size_t)f->grid.w + (size_t)x) + (size_t)h];
    else
        ans[2] = INFINITY;
}

/* Input read in large blocks from a file descriptor; answers gathered in a
 * large block and written to out. */
#define IN_CAP (1u << 18)
#define OUT_CAP (1u << 18)
#define OUT_ROOM 128  /* the longest answer, with margin */

typedef struct {
    int fd;
    const char *name;
    char in[IN_CAP];
    size_t start, end;     /* unread input is in[start, end) */
    long long consumed;    /* input bytes before in[start] */
    int eof;
    FILE *out;
    unsigned char ans[OUT_CAP];
    size_t nans;
} pump;

static ff_status drain(pump *p, int flush, ff_error *err)
{
    if (p->nans && fwrite(p->ans, 1, p->nans, p->out) != p->nans)
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    p->nans = 0;
    if (flush && fflush(p->out) != 0)
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}

/* Move the unread input to the front and read more; answers are flushed
 * first, since the read may wait for the caller, who waits for them. */
static ff_status refill(pump *p, ff_error *err)
{
    ssize_t got;
    ff_status st;

    if ((st = drain(p, 1, err)) != FF_OK)
        return st;
    if (p->start > 0) {
        memmove(p->in, p->in + p->start, p->end - p->start);
        p->consumed += (long long)p->start;
        p->end -= p->start;
        p->start = 0;
    }
    do
        got = read(p->fd, p->in + p->end, IN_CAP - p->end);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return ff_error_set(err, FF_EIO, p->name, 0, 0, "read error: %s", strerror(errno));
    if (got == 0)
        p->eof = 1;
    p->end += (size_t)got;
    return FF_OK;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Parse a line `x y` (no newline).  Returns FF_OK, FF_ENOTFOUND for a line
 * without a record (blank or comment), or FF_EINPUT.  The common form is
 * parsed here; anything else goes to records.h, which has the last word on
 * what a line means and how a bad one is reported. */
static ff_status parse_position(const char *line, size_t len, const char *name, long lineno,
                                int headings, double xy[2], int *heading, ff_error *err)
{
    const char *p = line, *end = line + len;
    ff_records rec;
    ff_status st;
    FILE *mem;
    int k, n;
    double v[3];

    *heading = -1;
    for (k = 0; k < 2; k++) {
        while (p < end && is_blank(*p))
            p++;
        if (k == 0 && p == end)
            return FF_ENOTFOUND;
        if (!(p = ff_parse_decimal(p, end, &xy[k])) || (p < end && !is_blank(*p)))
            goto slow;
    }
    while (p < end && is_blank(*p))
        p++;
    if (p == end)
        return FF_OK;
slow:
    if (!(mem = fmemopen((void *)line, len, "rb")))
        return ff_error_set(err, FF_ENOMEM, name, lineno, 0, "out of memory");
    ff_records_init(&rec, mem, name);
    rec.line = lineno - 1;
    st = ff_records_next(&rec, v, 2, headings ? 3 : 2, &n, err);
    fclose(mem);
    if (st != FF_OK)
        return st;
    xy[0] = v[0];
    xy[1] = v[1];
    if (n == 3) {
        if (!(v[2] >= 0 && v[2] <= 7 && v[2] == floor(v[2])))
            return ff_error_set(err, FF_EINPUT, name, lineno, 0,
                                "heading %g is not a direction code 0 to 7", v[2]);
        *heading = (int)v[2];
    }
    return FF_OK;
}

static size_t put_g9(unsigned char *out, double v)
{
    return ff_format_g9(v, (char *)out);
}

/* How many positions ahead of the one being answered the samples are
 * fetched from memory, so that on a large field the cache misses overlap
 * instead of queuing one behind the other. */
#define AHEAD 16

/* Text lines are parsed in batches of this many before they are answered,
 * for the same reason. */
#define BATCH 16

/* A function whose only effect is a prefetch counts for GCC as one without
 * effects, and its calls are dropped unless it is inlined first: hence
 * always_inline. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#define PREFETCHER static inline __attribute__((always_inline)) void
#else
#define PREFETCH(p) ((void)(p))
#define PREFETCHER static void
#endif

/* Ask the memory for the samples the answer at (px, py) will read: the
 * rows of the four surrounding cell centers (or of the cell, for raw
 * answers), and the distance.  A hint only: rounding may pick a neighbour
 * and costs nothing but time. */
PREFETCHER prefetch_samples(const ff_field *f, const ff_query_options *o, double inv_cell,
                            double px, double py)
{
    const ff_grid *g = &f->grid;
    double cx = (px - g->origin_x) * inv_cell, cy = (py - g->origin_y) * inv_cell;
    double sx = cx - 0.5, sy = cy - 0.5;
    /* the directions' bytes: codes, or an any-angle field's vectors */
    const char *dir = o->vectors ? (const char *)o->vectors : (const char *)f->direction;
    size_t i, bytes = o->vectors ? 2 * sizeof *o->vectors : 1;

    /* outside, or on the west or north edge: rare enough not to matter */
    if (o->raw || o->distance) {
        if (cx >= 0 && cy >= 0 && cx < g->w && cy < g->h) {
            i = (size_t)cy * (size_t)g->w + (size_t)cx;
            PREFETCH(dir + i * bytes);
            if (o->distance)
                PREFETCH(f->distance + i);
        }
        if (o->raw)
            return;
    }
    if (sx >= 0 && sy >= 0 && sx < g->w && sy < g->h) {
        i = (size_t)sy * (size_t)g->w + (size_t)sx;
        PREFETCH(dir + i * bytes);
        if (sy + 1 < g->h)
            PREFETCH(dir + (i + (size_t)g->w) * bytes);
    }
}

/* Take the next line (without its newline) when a complete one is at hand,
 * or the last one at the end of input: 1.  0 when there is none yet (or
 * no more), -1 for a line too long (lineno is the line before it). */
static int take_line(pump *p, long lineno, char **line, size_t *len, ff_error *err)
{
    char *s = p->in + p->start, *nl = memchr(s, '\n', p->end - p->start);
    size_t n = nl ? (size_t)(nl - s) : p->end - p->start;

    if (n > FF_RECORD_LINE_MAX - 1) {
        ff_error_set(err, FF_EINPUT, p->name, lineno + 1, 0, "line longer than %d bytes",
                     FF_RECORD_LINE_MAX - 1);
        return -1;
    }
    if (!nl && (!p->eof || n == 0))
        return 0;
    *line = s;
    *len = n;
    p->start += n + (nl != NULL);
    return 1;
}

static ff_status answer_text(const ff_field *f, const ff_query_options *o, pump *p,
                             ff_error *err)
{
    double xy[2 * BATCH], inv_cell = 1 / f->grid.cell_size;
    int heading[BATCH];
    long lineno = 0;
    ff_status st = FF_OK;

    for (;;) {
        size_t nb = 0, k, len;
        char *line;
        int got;

        /* Parse the lines at hand, up to a batch, asking the memory for
         * their samples; never wait for input to fill a batch. */
        while (nb < BATCH && (got = take_line(p, lineno, &line, &len, err)) > 0) {
            st = parse_position(line, len, p->name, ++lineno, o->heading_planes != NULL,
                                xy + 2 * nb, &heading[nb], err);
            if (st == FF_ENOTFOUND)
                continue;
            if (st != FF_OK)
                break;
            prefetch_samples(f, o, inv_cell, xy[2 * nb], xy[2 * nb + 1]);
            nb++;
        }
        if (p->nans > OUT_CAP - BATCH * OUT_ROOM && drain(p, 0, err) != FF_OK)
            return FF_EIO;
        for (k = 0; k < nb; k++) {
            unsigned char *a = p->ans + p->nans;
            double ans[3];
            ff_query_state(f, o, xy[2 * k], xy[2 * k + 1], heading[k], ans);
            a += put_g9(a, ans[0]);
            *a++ = ' ';
            a += put_g9(a, ans[1]);
            if (o->distance) {
                *a++ = ' ';
                a += put_g9(a, ans[2]);
            }
            *a++ = '\n';
            p->nans = (size_t)(a - p->ans);
        }
        if (got < 0)
            return err->status;
        if (st != FF_OK && st != FF_ENOTFOUND)
            return st;
        if (got == 0) {
            if (p->eof)
                return drain(p, 0, err);
            if ((st = refill(p, err)) != FF_OK)
                return st;
        }
    }
}

static ff_status answer_binary(const ff_field *f, const ff_query_options *o, pump *p,
                               ff_error *err)
{
    size_t rec_out = o->distance ? 24 : 16;
    double inv_cell = 1 / f->grid.cell_size;
    ff_status st;

    for (;;) {
        size_t have = (p->end - p->start) / 16, k;
        const unsigned char *q = (const unsigned char *)p->in + p->start;

        if (have == 0) {
            if (p->eof) {
                if (p->end > p->start)
                    return ff_error_at_byte(err, FF_EINPUT, p->name,
                                            p->consumed + (long long)p->start,
                                            "truncated position: %zu of 16 bytes",
                                            p->end - p->start);
                return drain(p, 0, err);
            }
            if ((st = refill(p, err)) != FF_OK)
                return st;
            continue;
        }
        for (k = 0; k < have && k < AHEAD; k++)
            prefetch_samples(f, o, inv_cell, ff_get_f64le(q + 16 * k), ff_get_f64le(q + 16 * k + 8));
        for (k = 0; k < have; k++, q += 16) {
            double px = ff_get_f64le(q), py = ff_get_f64le(q + 8), ans[3];
            unsigned char *a;

            if (k + AHEAD < have)
                prefetch_samples(f, o, inv_cell, ff_get_f64le(q + 16 * AHEAD),
                                 ff_get_f64le(q + 16 * AHEAD + 8));
            if (!isfinite(px) || !isfinite(py))
                return ff_error_at_byte(err, FF_EINPUT, p->name,
                                        p->consumed + (long long)p->start + 8 * !!isfinite(px),
                                        "position %g is not a finite number",
                                        isfinite(px) ? py : px);
            ff_query_point(f, o, px, py, ans);
            if (p->nans > OUT_CAP - rec_out && (st = drain(p, 0, err)) != FF_OK)
                return st;
            a = p->ans + p->nans;
            ff_put_f64le(a, ans[0] + 0.0);
            ff_put_f64le(a + 8, ans[1] + 0.0);
            if (o->distance)
                ff_put_f64le(a + 16, ans[2]);
            p->nans += rec_out;
            p->start += 16;
        }
    }
}

ff_status ff_query_stream(const ff_field *f, const ff_query_options *o, int fd,
                          const char *name, FILE *out, ff_error *err)
{
    pump *p = malloc(sizeof *p);
    ff_status st;

    if (!p)
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory");
    p->fd = fd;
    p->name = name;
    p->start = p->end = 0;
    p->consumed = 0;
    p->eof = 0;
    p->out = out;
    p->nans = 0;
    st = o->binary ? answer_binary(f, o, p, err) : answer_text(f, o, p, err);
    if (st != FF_OK && st != FF_EIO)
        drain(p, 1, NULL);  /* the answers before the bad input stand */
    free(p);
    return st;
}

/* ---- cells ---- */

ff_reach ff_query_reach(const ff_field *f, long long x, long long y)
{
    const ff_grid *g = &f->grid;
    size_t i;

    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return FF_REACH_OUTSIDE;
    i = (size_t)y * (size_t)g->w + (size_t)x;
    if (!ff_grid_open(g, i))
        return FF_REACH_BLOCKED;
    /* A field without directions (ffbuild alone) answers from its
     * distances: unreachable is +inf either way. */
    if (f->direction)
        return f->direction[i] == FF_DIR_NONE ? FF_REACH_UNREACHABLE : FF_REACH_OK;
    return f->distance && f->distance[i] < INFINITY ? FF_REACH_OK : FF_REACH_UNREACHABLE;
}

const char *ff_reach_name(ff_reach r)
{
    static const char *const names[] = { "ok", "blocked", "unreachable", "outside" };
    return (unsigned)r < 4 ? names[r] : "?";
}

ff_reach ff_query_reach_world(const ff_field *f, double px, double py, long long *x,
                              long long *y)
{
    return ff_world_to_cell(&f->grid, px, py, x, y) ? ff_query_reach(f, *x, *y)
                                                    : FF_REACH_OUTSIDE;
}

/* v in the shortest form that reads back, with ".0" after an integer so
 * that it reads back as a world position, not a cell. */
static void format_position(double v, char *buf, size_t cap)
{
    size_t n = ff_format_exact(v, buf, cap - 2);

    if (ff_integer_text(buf, buf + n))
        memcpy(buf + n, ".0", 3);
}

/* Write `x y reason` for a place that cannot reach a goal: a cell as its
 * integers, a world position as format_position writes it. */
static int write_unreached(FILE *out, int is_cell, const double v[2], ff_reach r)
{
    char x[FF_REAL_TEXT_MAX + 2], y[FF_REAL_TEXT_MAX + 2];

    if (is_cell)
        return fprintf(out, "%.0f %.0f %s\n", v[0] + 0.0, v[1] + 0.0, ff_reach_name(r));
    format_position(v[0], x, sizeof x);
    format_position(v[1], y, sizeof y);
    return fprintf(out, "%s %s %s\n", x, y, ff_reach_name(r));
}

ff_status ff_query_check(const ff_field *f, FILE *in, const char *name, FILE *out,
                         size_t *unreached, ff_error *err)
{
    ff_records rec;
    ff_status st;
    double v[2];
    size_t checked = 0;
    int n;

    *unreached = 0;
    ff_records_init(&rec, in, name);
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        int is_cell = rec.integers == 3;
        long long x, y;
        ff_reach r;
        checked++;
        if (!is_cell)
            r = ff_query_reach_world(f, v[0], v[1], &x, &y);
        /* Beyond +-2^62 a cell is outside any map; keep the conversion defined. */
        else if (fabs(v[0]) > 4.6e18 || fabs(v[1]) > 4.6e18)
            r = FF_REACH_OUTSIDE;
        else
            r = ff_query_reach(f, (long long)v[0], (long long)v[1]);
        if (r == FF_REACH_OK)
            continue;
        (*unreached)++;
        if (write_unreached(out, is_cell, v, r) < 0)
            return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    }
    if (st == FF_ENOTFOUND && checked == 0)
        return ff_error_set(err, FF_EINPUT, name, 0, 0,
                            "no positions to check (want cells 'x y' or 'x,y', one a line, "
                            "or world positions 'x.x y.y')");
    return st == FF_ENOTFOUND ? FF_OK : st;
}

ff_status ff_query_trace(const ff_field *f, long long x, long long y, const char *file,
                         uint32_t **path, size_t *ncells, ff_error *err)
{
    return ff_query_trace_state(f, x, y, -1, file, path, ncells, err);
}

ff_status ff_query_trace_state(const ff_field *f, long long x, long long y, int heading,
                               const char *file, uint32_t **path, size_t *ncells,
                               ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t n = 0, cap = 64, limit = (size_t)g->w * (size_t)g->h * (heading < 0 ? 1 : 8);
    uint32_t *cells;
    ff_reach r = ff_query_reach(f, x, y);

    *path = NULL;
    *ncells = 0;
    if (r == FF_REACH_OUTSIDE)
        return ff_error_set(err, FF_EUSAGE, file, 0, 0, "cell %lld,%lld is outside the %dx%d map",
                            x, y, g->w, g->h);
    if (r == FF_REACH_BLOCKED)
        return ff_error_set(err, FF_ENOTFOUND, file, 0, 0,
                            "cell %lld,%lld is blocked (a wall, or closed by the radius %g)", x, y,
                            g->radius);
    if (r == FF_REACH_UNREACHABLE)
        return ff_error_set(err, FF_ENOTFOUND, file, 0, 0, "cell %lld,%lld cannot reach a goal",
                            x, y);
    if (!(cells = malloc(cap * sizeof *cells)))
        return ff_error_set(err, FF_ENOMEM, file, 0, 0, "out of memory for the path");
    for (;;) {
        size_t i = (size_t)y * (size_t)g->w + (size_t)x;
        int d = heading < 0 ? f->direction[i] : f->heading_direction[8 * i + (size_t)heading];
        if (n == cap) {
            uint32_t *more = ff_grow(cells, &cap, n + 1, sizeof *cells, 64);
            if (!more) {
                free(cells);
                return ff_error_set(err, FF_ENOMEM, file, 0, 0, "out of memory for the path");
            }
            cells = more;
        }
        cells[n++] = (uint32_t)i;
        if (d == FF_DIR_GOAL)
            break;
        if (d > 7 || !ff_grid_step_ok(g, (int)x, (int)y, d) || n > limit) {
            free(cells);
            return ff_error_set(err, FF_EINPUT, file, 0, 0,
                                "the direction field is damaged: at cell %lld,%lld %s "
                                "(rebuild it with ffbuild and ffdir)", x, y,
                                d > 7 ? "a path ends before a goal"
                                : n > limit ? "the path loops"
                                : "a step is not a legal move");
        }
        if (heading >= 0)
            heading = d;  /* the step is the next state's heading */
        x += ff_dir_dx[d];
        y += ff_dir_dy[d];
    }
    *path = cells;
    *ncells = n;
    return FF_OK;
}

void ff_cell_center(const ff_grid *g, size_t i, double *wx, double *wy)
{
    *wx = g->origin_x + ((double)(i % (size_t)g->w) + 0.5) * g->cell_size;
    *wy = g->origin_y + ((double)(i / (size_t)g->w) + 0.5) * g->cell_size;
}

/* v with the fewest of 15..17 significant digits that reads back exactly. */
static void format_exact(double v, char *buf, size_t cap)
{
    ff_format_exact(v + 0.0, buf, cap);
}

/* One point `x y` of a path, as ff_query_write_path writes it. */
static ff_status write_point(FILE *out, double wx, double wy, ff_error *err)
{
    char bx[40], by[40];

    format_exact(wx, bx, sizeof bx);
    format_exact(wy, by, sizeof by);
    if (fprintf(out, "%s %s\n", bx, by) < 0)
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}

ff_status ff_query_write_path(FILE *out, const ff_grid *g, const uint32_t *path, size_t n,
                              ff_error *err)
{
    size_t k;

    for (k = 0; k < n; k++) {
        double wx, wy;
        ff_cell_center(g, path[k], &wx, &wy);
        if (write_point(out, wx, wy, err) != FF_OK)
            return FF_EIO;
    }
    return FF_OK;
}

ff_status ff_query_write_points(FILE *out, const double *xy, size_t n, ff_error *err)
{
    size_t k;

    for (k = 0; k < n; k++)
        if (write_point(out, xy[2 * k], xy[2 * k + 1], err) != FF_OK)
            return FF_EIO;
    return FF_OK;
}

ff_status ff_query_map_id(FILE *in, const char *name, const ff_field *f, uint64_t *id,
                          ff_error *err)
{
    ff_map_options opt;
    ff_grid g;
    ff_status st;

    ff_map_options_init(&opt);
    opt.path = in == stdin ? NULL : name;
    ff_grid_init(&g);
    if ((st = ff_map_read(in, name, &opt, &g, err)) != FF_OK)
        return st;
    g.moves = f->grid.moves;
    g.corners = f->grid.corners;
    st = ff_grid_apply_clearance(&g, f->grid.radius, err);
    if (st == FF_OK)
        *id = ff_grid_id(&g);
    ff_grid_free(&g);
    return st;
}
