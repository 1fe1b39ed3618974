/* draw.c - pictures of fields, one pixel row at a time; see draw.h and
 * man 1 ffpng.
 *
 * The picture is made in bands of scale rows, one band a cell row: the
 * band's plain colours are expanded once into a row (base), and each of
 * its pixel rows adds the marks that vary within a cell (goal discs,
 * arrows) and the overlays.  Overlay marks are capsules kept in a list
 * sorted by first row; a row draws only the ones active on it, in their
 * drawing order.  Every mark covers the pixels whose centers lie inside
 * it: no antialiasing, so colours are exact and tests can check them.
 */
#include "draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "trace.h"

/* ---- colours (man 1 ffpng, COLOURS) ---- */

static const uint8_t WALL[3] = { 32, 32, 32 };
static const uint8_t OPEN[3] = { 235, 235, 235 };
static const uint8_t UNREACHABLE[3] = { 180, 180, 180 };
static const uint8_t GOAL[3] = { 255, 0, 255 };
static const uint8_t ARROW[3] = { 0, 0, 0 };
static const uint8_t BLACK[3] = { 0, 0, 0 };
static const uint8_t PAPER[3] = { 255, 255, 255 };

/* The distance ramp, 33 stops: Oklab lightness rising linearly from 0.28
 * to 0.93 while the hue turns from 300 to 105 degrees (purple, blue,
 * teal, green, yellow), the chroma at most 0.15..0.2 and smoothed to stay
 * inside sRGB.  Equal steps of distance are equal steps of lightness, and
 * the ramp reads in grey print too, as viridis does. */
#define RAMP_STOPS 33
static const uint8_t RAMP[RAMP_STOPS][3] = {
    {  54,   4,  99 }, {  54,  17, 109 }, {  52,  26, 120 }, {  49,  35, 130 },
    {  44,  44, 139 }, {  38,  56, 141 }, {  34,  67, 140 }, {  32,  77, 138 },
    {  30,  85, 139 }, {  28,  93, 141 }, {  26, 101, 143 }, {  23, 109, 146 },
    {  20, 116, 148 }, {  18, 124, 151 }, {  19, 132, 152 }, {  24, 139, 154 },
    {  32, 146, 155 }, {  39, 154, 155 }, {  46, 161, 156 }, {  53, 168, 155 },
    {  60, 176, 154 }, {  68, 183, 152 }, {  75, 191, 149 }, {  83, 198, 144 },
    {  92, 206, 135 }, { 102, 214, 122 }, { 118, 220, 106 }, { 140, 225,  88 },
    { 164, 229,  75 }, { 188, 231,  64 }, { 210, 234,  55 }, { 231, 236,  48 },
    { 252, 238,  42 },
};
#define LUT_SIZE 4096

/* Cost greys: the cheapest open cell COST_LIGHT, the dearest COST_DARK. */
#define COST_LIGHT 245
#define COST_DARK 90

/* A colour per direction code, round the compass: N blue, E green,
 * S amber, W red, and the diagonals between them. */
static const uint8_t DIRECTION_COLOUR[8][3] = {
    { 40, 100, 220 },  /* N */
    { 40, 170, 60 },   /* E */
    { 250, 190, 0 },   /* S */
    { 220, 40, 40 },   /* W */
    { 0, 170, 190 },   /* NE */
    { 160, 200, 20 },  /* SE */
    { 250, 120, 0 },   /* SW */
    { 150, 60, 190 },  /* NW */
};

/* Terrain classes other than ground (0) on the map layer: water, trees,
 * then whatever a map brings, in turn. */
static const uint8_t CLASS_COLOUR[4][3] = {
    { 150, 190, 235 }, { 150, 200, 140 }, { 215, 195, 150 }, { 200, 170, 215 },
};

static const uint8_t PATH_COLOUR[4][3] = {
    { 255, 30, 30 }, { 255, 255, 255 }, { 255, 150, 0 }, { 0, 200, 255 },
};

static const uint8_t POINT_COLOUR[4][3] = {
    { 0, 220, 255 }, { 255, 220, 0 }, { 255, 80, 200 }, { 120, 255, 120 },
};

/* Agents: twelve hues 150 degrees apart in Oklab (so that agents with
 * neighbouring ids differ most), lightness alternating 0.72 and 0.60. */
#define AGENT_COLOURS 12
static const uint8_t AGENT_COLOUR[AGENT_COLOURS][3] = {
    { 248, 121, 102 }, { 5, 149, 131 },   { 219, 124, 212 }, { 118, 140, 2 },
    { 130, 158, 255 }, { 187, 104, 2 },   { 5, 185, 207 },   { 201, 79, 124 },
    { 74, 192, 108 },  { 144, 101, 208 }, { 200, 159, 7 },   { 6, 137, 200 },
};

static void set_rgb(uint8_t *dst, const uint8_t *src)
{
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
}

/* The ramp at t in [0, 1], interpolated between stops. */
static void ramp_at(double t, uint8_t out[3])
{
    double p = (t < 0 ? 0 : t > 1 ? 1 : t) * (RAMP_STOPS - 1);
    int i = (int)p, c;
    double f;

    if (i >= RAMP_STOPS - 1)
        i = RAMP_STOPS - 2;
    f = p - i;
    for (c = 0; c < 3; c++)
        out[c] = (uint8_t)lround(RAMP[i][c] + (RAMP[i + 1][c] - RAMP[i][c]) * f);
}

/* Half way to white: the background under arrows. */
static void pastel(uint8_t rgb[3])
{
    int c;

    for (c = 0; c < 3; c++)
        rgb[c] = (uint8_t)((rgb[c] + 255) / 2);
}

/* ---- layers ---- */

#define LAYERS 5
static const char *const LAYER_NAME[LAYERS] = { "map", "cost", "distance", "direction",
                                                "density" };

const char *ff_layer_name(ff_layer layer)
{
    return layer >= FF_LAYER_MAP && layer <= FF_LAYER_DENSITY ? LAYER_NAME[layer] : "?";
}

int ff_layer_parse(const char *s)
{
    int k;

    for (k = 0; k < LAYERS; k++)
        if (strcmp(s, LAYER_NAME[k]) == 0)
            return k;
    return -1;
}

ff_layer ff_layer_richest(const ff_field *f)
{
    return f->direction ? FF_LAYER_DIRECTION : f->distance ? FF_LAYER_DISTANCE : FF_LAYER_COST;
}

ff_status ff_layer_check(const ff_field *f, ff_layer layer, const char *name, ff_error *err)
{
    int has = layer == FF_LAYER_MAP || layer == FF_LAYER_COST || layer == FF_LAYER_DENSITY ||
              (layer == FF_LAYER_DISTANCE && f->distance) ||
              (layer == FF_LAYER_DIRECTION && f->direction);

    if (has)
        return FF_OK;
    return ff_error_set(err, FF_EINPUT, name, 0, 0,
                        "the stream has no %s channel: its layers are map, cost%s%s%s",
                        ff_layer_name(layer), f->distance ? ", distance" : "",
                        f->direction ? ", direction" : "",
                        f->distance ? "" : " (run ffbuild for distance, then ffdir for direction)");
}

int ff_draw_default_scale(const ff_grid *g)
{
    int32_t side = g->w > g->h ? g->w : g->h;

    return side >= 1024 || side < 1 ? 1 : (int)(1024 / side);
}

/* ---- geometry ---- */

/* The x extent, on the horizontal line y = yc, of the capsule of radius r
 * around segment a-b.  The capsule is convex and the union of two discs
 * and a rectangle, so the extent is the hull of the three pieces' extents.
 * Returns 0 when the line misses it. */
static int capsule_span(double ax, double ay, double bx, double by, double r, double yc,
                        double *lo, double *hi)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, v = yc - ay, e;

    *lo = INFINITY;
    *hi = -INFINITY;
    if (v * v <= r * r) {
        e = sqrt(r * r - v * v);
        *lo = ax - e;
        *hi = ax + e;
    }
    if ((yc - by) * (yc - by) <= r * r) {
        e = sqrt(r * r - (yc - by) * (yc - by));
        if (bx - e < *lo)
            *lo = bx - e;
        if (bx + e > *hi)
            *hi = bx + e;
    }
    if (len2 > 0) {
        /* Points (ax + u, yc): |cross(d, (u, v))| <= r |d| (within r of the
         * line) and 0 <= dot(d, (u, v)) <= |d|^2 (between the ends). */
        double rl = r * sqrt(len2), ulo = -INFINITY, uhi = INFINITY, p, q;
        if (dy != 0) {
            p = (dx * v - rl) / dy;
            q = (dx * v + rl) / dy;
            ulo = p < q ? p : q;
            uhi = p < q ? q : p;
        } else if (fabs(dx * v) > rl) {
            return *lo <= *hi;
        }
        if (dx != 0) {
            p = -dy * v / dx;
            q = (len2 - dy * v) / dx;
            if ((p < q ? p : q) > ulo)
                ulo = p < q ? p : q;
            if ((p < q ? q : p) < uhi)
                uhi = p < q ? q : p;
        } else if (dy * v < 0 || dy * v > len2) {
            return *lo <= *hi;
        }
        if (ulo <= uhi) {
            if (ax + ulo < *lo)
                *lo = ax + ulo;
            if (ax + uhi > *hi)
                *hi = ax + uhi;
        }
    }
    return *lo <= *hi;
}

/* The x extent of a triangle on the line y = yc (closed); 0 when missed. */
static int triangle_span(const double *x, const double *y, double yc, double *lo, double *hi)
{
    int k;

    *lo = INFINITY;
    *hi = -INFINITY;
    for (k = 0; k < 3; k++) {
        double x0 = x[k], y0 = y[k], x1 = x[(k + 1) % 3], y1 = y[(k + 1) % 3], xc;
        if ((yc < y0 && yc < y1) || (yc > y0 && yc > y1))
            continue;
        if (y0 == y1) {
            xc = x0 < x1 ? x0 : x1;
            if (xc < *lo)
                *lo = xc;
            xc = x0 < x1 ? x1 : x0;
            if (xc > *hi)
                *hi = xc;
            continue;
        }
        xc = x0 + (yc - y0) * (x1 - x0) / (y1 - y0);
        if (xc < *lo)
            *lo = xc;
        if (xc > *hi)
            *hi = xc;
    }
    return *lo <= *hi;
}

/* The pixel columns whose centers lie in [lo, hi], clipped to [0, limit):
 * sets *x0, *x1 (inclusive); 0 when none. */
static int span_columns(double lo, double hi, int64_t limit, int64_t *x0, int64_t *x1)
{
    double a = ceil(lo - 0.5), b = floor(hi - 0.5);

    if (a < 0)
        a = 0;
    if (b > (double)(limit - 1))
        b = (double)(limit - 1);
    if (!(a <= b))
        return 0;
    *x0 = (int64_t)a;
    *x1 = (int64_t)b;
    return 1;
}

static void fill(uint8_t *row, int64_t x0, int64_t x1, const uint8_t *rgb)
{
    uint8_t *p = row + 3 * x0;
    int64_t x;

    for (x = x0; x <= x1; x++, p += 3)
        set_rgb(p, rgb);
}

/* ---- overlays ---- */

/* Marks farther than this outside the picture are refused rather than
 * risk overflow: 2^40 pixels. */
#define FAR_PIXELS 1099511627776.0

void ff_overlay_init(ff_overlay *o, const ff_grid *g, int scale)
{
    memset(o, 0, sizeof *o);
    o->grid = g;
    o->scale = scale;
    o->every = 1;
}

void ff_overlay_free(ff_overlay *o)
{
    free(o->shape);
    free(o->density_count);
    memset(o, 0, sizeof *o);
}

static ff_status push(ff_overlay *o, double ax, double ay, double bx, double by, double r,
                      const uint8_t *rgb, const char *name, ff_error *err)
{
    ff_shape *s;

    if (o->nshape == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        ff_shape *grown;
        if (cap > UINT32_MAX || cap > SIZE_MAX / sizeof *grown ||
            !(grown = realloc(o->shape, cap * sizeof *grown)))
            return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for %zu overlay marks",
                                o->nshape + 1);
        o->shape = grown;
        o->cap = cap;
    }
    s = &o->shape[o->nshape++];
    s->ax = ax;
    s->ay = ay;
    s->bx = bx;
    s->by = by;
    s->r = r;
    s->row0 = (int64_t)floor((ay < by ? ay : by) - r);
    s->row1 = (int64_t)floor((ay < by ? by : ay) + r);
    set_rgb(s->rgb, rgb);
    return FF_OK;
}

/* World position to picture pixels; refuses positions absurdly far away. */
static ff_status to_pixels(const ff_overlay *o, const double *v, double *px, double *py,
                           const ff_records *rec, ff_error *err)
{
    const ff_grid *g = o->grid;

    *px = (v[0] - g->origin_x) / g->cell_size * o->scale;
    *py = (v[1] - g->origin_y) / g->cell_size * o->scale;
    if (!(fabs(*px) <= FAR_PIXELS) || !(fabs(*py) <= FAR_PIXELS))
        return ff_error_set(err, FF_EINPUT, rec->name, rec->line, 0,
                            "position %g %g lies too far outside the map", v[0], v[1]);
    return FF_OK;
}

static double at_least(double v, double lo)
{
    return v > lo ? v : lo;
}

ff_status ff_overlay_read_path(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    const uint8_t *line_rgb = PATH_COLOUR[o->npath % 4];
    uint8_t dot_rgb[3];
    double v[2], x, y, px = 0, py = 0, s = o->scale;
    double line_r = at_least(0.06 * s, 0.6), dot_r = at_least(0.15 * s, 1.5);
    ff_records rec;
    ff_status st;
    long npoints = 0;
    int n, c;

    for (c = 0; c < 3; c++)
        dot_rgb[c] = (uint8_t)(line_rgb[c] * 11 / 20);
    o->npath++;
    ff_records_init(&rec, f, name);
    /* Each point's dot is drawn after both of its segments. */
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        if ((st = to_pixels(o, v, &x, &y, &rec, err)) != FF_OK)
            return st;
        if (npoints > 0 && ((st = push(o, px, py, x, y, line_r, line_rgb, name, err)) != FF_OK ||
                            (st = push(o, px, py, px, py, dot_r, dot_rgb, name, err)) != FF_OK))
            return st;
        px = x;
        py = y;
        npoints++;
    }
    if (st != FF_ENOTFOUND)
        return st;
    if (npoints > 0)
        return push(o, px, py, px, py, dot_r, dot_rgb, name, err);
    return FF_OK;
}

ff_status ff_overlay_read_points(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    const uint8_t *rgb = POINT_COLOUR[o->npoints % 4];
    double v[2], x, y, s = o->scale;
    double r = at_least(0.25 * s, 2.0), ring = at_least(0.05 * s, 1.0);
    ff_records rec;
    ff_status st;
    int n;

    o->npoints++;
    ff_records_init(&rec, f, name);
    while ((st = ff_records_next(&rec, v, 2, 2, &n, err)) == FF_OK) {
        if ((st = to_pixels(o, v, &x, &y, &rec, err)) != FF_OK ||
            (st = push(o, x, y, x, y, r + ring, BLACK, name, err)) != FF_OK ||
            (st = push(o, x, y, x, y, r, rgb, name, err)) != FF_OK)
            return st;
    }
    return st == FF_ENOTFOUND ? FF_OK : st;
}

/* One agent of a trace: where its trail was last drawn to, where it was
 * last seen, and its radius. */
typedef struct {
    int64_t id;
    double kept_x, kept_y;  /* end of the trail drawn so far, pixels */
    double last_x, last_y;  /* last position read, pixels */
    double radius;          /* pixels */
} agent;

typedef struct {
    agent *agent;
    size_t n, cap;
    uint32_t *slot;  /* open addressing: agent index + 1, 0 = empty */
    size_t nslot;    /* power of two, > 2n */
} agent_table;

static size_t id_hash(int64_t id, size_t nslot)
{
    uint64_t z = (uint64_t)id + 0x9e3779b97f4a7c15u;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (size_t)((z ^ (z >> 31)) & (nslot - 1));
}

/* The agent with this id, added (with the position as its start) if new;
 * NULL when out of memory. */
static agent *agent_find(agent_table *t, int64_t id, double x, double y, double radius)
{
    size_t h, k;

    if (t->nslot) {
        for (h = id_hash(id, t->nslot); t->slot[h]; h = (h + 1) & (t->nslot - 1))
            if (t->agent[t->slot[h] - 1].id == id)
                return &t->agent[t->slot[h] - 1];
    }
    if (t->n + 1 > UINT32_MAX - 1)
        return NULL;
    if (2 * (t->n + 1) >= t->nslot) {
        size_t nslot = t->nslot ? 2 * t->nslot : 64;
        uint32_t *slot = calloc(nslot, sizeof *slot);
        if (!slot)
            return NULL;
        for (k = 0; k < t->n; k++) {
            for (h = id_hash(t->agent[k].id, nslot); slot[h]; h = (h + 1) & (nslot - 1))
                ;
            slot[h] = (uint32_t)k + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslot = nslot;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        agent *grown = realloc(t->agent, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->agent = grown;
        t->cap = cap;
    }
    for (h = id_hash(id, t->nslot); t->slot[h]; h = (h + 1) & (t->nslot - 1))
        ;
    t->slot[h] = (uint32_t)t->n + 1;
    t->agent[t->n] = (agent){ id, x, y, x, y, radius };
    return &t->agent[t->n++];
}

static const uint8_t *agent_colour(int64_t id)
{
    return AGENT_COLOUR[((id % AGENT_COLOURS) + AGENT_COLOURS) % AGENT_COLOURS];
}

/* Count the agent at world x y in the density's cell, if on the map. */
static void density_add(ff_overlay *o, double x, double y)
{
    const ff_grid *g = o->grid;
    double cx = floor((x - g->origin_x) / g->cell_size), cy = floor((y - g->origin_y) / g->cell_size);

    if (cx >= 0 && cy >= 0 && cx < g->w && cy < g->h)
    {
        uint32_t *c = &o->density_count[(size_t)cy * (size_t)g->w + (size_t)cx];
        if (*c < UINT32_MAX)
            ++*c;
    }
}

ff_status ff_overlay_read_trace(ff_overlay *o, FILE *f, const char *name, ff_error *err)
{
    double x, y, s = o->scale;
    double per_world = s / o->grid->cell_size, trail_r = at_least(0.03 * s, 0.5);
    double ring = at_least(0.03 * s, 1.0), radius;
    agent_table t = { NULL, 0, 0, NULL, 0 };
    ff_trace_reader tr;
    ff_trace_record r;
    ff_records place = { f, name, 0 };
    ff_status st;
    size_t k;

    ff_trace_init(&tr, f, name, o->every);
    o->ntrace++;
    while ((st = ff_trace_next(&tr, &r, err)) == FF_OK) {
        agent *a;
        double v[2] = { r.x, r.y };
        place.line = tr.rec.line;
        if ((st = to_pixels(o, v, &x, &y, &place, err)) != FF_OK)
            goto done;
        if (o->density_count) {
            density_add(o, r.x, r.y);
            continue;
        }
        radius = r.radius > 0 ? r.radius * per_world : FF_TRACE_RADIUS * s;
        if (!(radius <= FAR_PIXELS)) {
            st = ff_error_set(err, FF_EINPUT, name, tr.rec.line, 0, "radius %g is too large",
                              r.radius);
            goto done;
        }
        if (!(a = agent_find(&t, r.id, x, y, radius))) {
            st = ff_error_set(err, FF_ENOMEM, name, tr.rec.line, 0, "out of memory for agents");
            goto done;
        }
        a->radius = radius;
        a->last_x = x;
        a->last_y = y;
        /* A trail keeps the points that moved half a pixel or more. */
        if ((x - a->kept_x) * (x - a->kept_x) + (y - a->kept_y) * (y - a->kept_y) >= 0.25) {
            if ((st = push(o, a->kept_x, a->kept_y, x, y, trail_r, agent_colour(a->id), name,
                           err)) != FF_OK)
                goto done;
            a->kept_x = x;
            a->kept_y = y;
        }
    }
    if (st != FF_ENOTFOUND)
        goto done;
    st = FF_OK;
    o->density_ticks += tr.frames;
    for (k = 0; k < t.n && st == FF_OK; k++) {
        agent *a = &t.agent[k];
        if (a->last_x != a->kept_x || a->last_y != a->kept_y)
            st = push(o, a->kept_x, a->kept_y, a->last_x, a->last_y, trail_r,
                      agent_colour(a->id), name, err);
    }
    /* Discs above every trail, in the order the agents first appeared. */
    for (k = 0; k < t.n && st == FF_OK; k++) {
        agent *a = &t.agent[k];
        double r = at_least(a->radius, 1.0);
        if ((st = push(o, a->last_x, a->last_y, a->last_x, a->last_y, r + ring, BLACK, name,
                       err)) == FF_OK)
            st = push(o, a->last_x, a->last_y, a->last_x, a->last_y, r, agent_colour(a->id),
                      name, err);
    }
done:
    free(t.agent);
    free(t.slot);
    return st;
}

ff_status ff_overlay_want_density(ff_overlay *o, ff_error *err)
{
    size_t n = (size_t)o->grid->w * (size_t)o->grid->h;

    if (o->density_count)
        return FF_OK;
    if (!(o->density_count = calloc(n ? n : 1, sizeof *o->density_count)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the density of %zu cells",
                            n);
    return FF_OK;
}

double ff_overlay_density(const ff_overlay *o, size_t cell)
{
    return o->density_count && o->density_ticks
               ? (double)o->density_count[cell] / (double)o->density_ticks
               : 0;
}

/* ---- the legend ---- */

/* 5x7 glyphs, one byte a row, bit 4 the leftmost dot. */
static const char GLYPH_CHARS[] = "0123456789.-+ENSW";
static const uint8_t GLYPH[sizeof GLYPH_CHARS - 1][7] = {
    { 0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E }, /* 0 */
    { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E }, /* 1 */
    { 0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F }, /* 2 */
    { 0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E }, /* 3 */
    { 0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02 }, /* 4 */
    { 0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E }, /* 5 */
    { 0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E }, /* 6 */
    { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 }, /* 7 */
    { 0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E }, /* 8 */
    { 0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C }, /* 9 */
    { 0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C }, /* . */
    { 0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00 }, /* - */
    { 0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00 }, /* + */
    { 0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F }, /* E */
    { 0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11 }, /* N */
    { 0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E }, /* S */
    { 0x11, 0x11, 0x11, 0x15, 0x15, 0x1B, 0x11 }, /* W */
};

/* The strip, in glyph dots (times legend.glyph pixels): a margin, the bar,
 * a gap, a line of text, a margin. */
#define LEGEND_MARGIN 4
#define LEGEND_BAR_TOP 3
#define LEGEND_BAR_ROWS 10
#define LEGEND_TEXT_TOP 16
#define LEGEND_ROWS 26
#define GLYPH_ADVANCE 6
#define SWATCH_WIDTH 16

/* Compass order for the direction swatches, and their labels. */
static const int SWATCH_DIR[8] = { FF_DIR_N, FF_DIR_NE, FF_DIR_E, FF_DIR_SE,
                                   FF_DIR_S, FF_DIR_SW, FF_DIR_W, FF_DIR_NW };
static const char *const SWATCH_LABEL[8] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };

static void format_label(char *buf, size_t cap, double v)
{
    char *p;

    snprintf(buf, cap, "%.5g", v);
    for (p = buf; *p; p++)
        if (*p == 'e')
            *p = 'E';
}

static uint64_t text_width(const char *s, int k)
{
    size_t n = strlen(s);

    return n ? (uint64_t)(GLYPH_ADVANCE * n - 1) * (uint64_t)k : 0;
}

/* Draw row gy (0..6) of the text s at column x0, k pixels a dot. */
static void text_row(uint8_t *row, uint32_t width, const char *s, int64_t x0, int k, int gy)
{
    for (; *s; s++, x0 += GLYPH_ADVANCE * k) {
        const char *at = strchr(GLYPH_CHARS, *s);
        int gx;
        if (!at)
            continue;
        for (gx = 0; gx < 5; gx++)
            if (GLYPH[at - GLYPH_CHARS][gy] & (0x10 >> gx)) {
                int64_t a = x0 + (int64_t)gx * k, b = a + k - 1;
                if (a >= 0 && b < (int64_t)width)
                    fill(row, a, b, BLACK);
            }
    }
}

/* Whether the legend shows eight direction swatches instead of a ramp. */
static int swatch_legend(const ff_draw_options *opt)
{
    return opt->layer == FF_LAYER_DIRECTION && opt->scale < FF_DRAW_ARROW_SCALE;
}

/* The range the ramp spans: finite distances, open cells' costs, or 0 to
 * the densest cell's density. */
static int value_range(const ff_field *f, const ff_draw_options *opt, double *low, double *high)
{
    size_t n = (size_t)f->grid.w * (size_t)f->grid.h, i;
    ff_layer layer = opt->layer;
    int any = 0;

    *low = *high = 0;
    if (layer == FF_LAYER_DENSITY) {
        for (i = 0; opt->density && i < n; i++)
            if (ff_overlay_density(opt->density, i) > *high)
                *high = ff_overlay_density(opt->density, i);
        return *high > 0;
    }
    for (i = 0; i < n; i++) {
        double v;
        if (!ff_grid_open(&f->grid, i))
            continue;
        if (layer == FF_LAYER_COST)
            v = f->grid.cost[i];
        else if (f->distance && isfinite(f->distance[i]))
            v = f->distance[i];
        else
            continue;
        if (!any || v < *low)
            *low = v;
        if (!any || v > *high)
            *high = v;
        any = 1;
    }
    return any;
}

/* Lay the legend out for a map part map_width pixels wide: its labels,
 * glyph size, and the width the picture needs for it. */
static uint64_t legend_layout(ff_legend *lg, const ff_field *f, const ff_draw_options *opt,
                              uint64_t map_width, double *low, double *high, int *has_range)
{
    int k = map_width >= 900 ? 3 : map_width >= 600 ? 2 : 1;

    memset(lg, 0, sizeof *lg);
    lg->glyph = k;
    *has_range = value_range(f, opt, low, high);
    if (swatch_legend(opt))
        return (uint64_t)(2 * LEGEND_MARGIN + 8 * SWATCH_WIDTH) * (uint64_t)k;
    if (*has_range) {
        format_label(lg->low, sizeof lg->low, *low);
        format_label(lg->high, sizeof lg->high, *high);
    }
    return (uint64_t)(2 * LEGEND_MARGIN + GLYPH_ADVANCE) * (uint64_t)k +
           text_width(lg->low, k) + text_width(lg->high, k);
}

/* ---- the picture ---- */

static ff_status picture_size(const ff_field *f, const ff_draw_options *opt, ff_legend *lg,
                              uint32_t *width, uint32_t *height, uint32_t *map_width,
                              uint32_t *map_height, double *low, double *high, int *has_range,
                              ff_error *err)
{
    uint64_t s = (uint64_t)opt->scale, w, h, mw, mh;

    if (opt->scale < 1)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "scale %d: want 1 or more", opt->scale);
    if (opt->legend && opt->layer == FF_LAYER_MAP)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "--legend: the map layer has no scale to show "
                            "(use --layer cost, distance or direction)");
    mw = w = (uint64_t)f->grid.w * s;
    mh = h = (uint64_t)f->grid.h * s;
    *has_range = 0;
    *low = *high = 0;
    memset(lg, 0, sizeof *lg);
    if (opt->legend && w <= FF_DRAW_MAX_BYTES && h <= FF_DRAW_MAX_BYTES) {
        uint64_t need = legend_layout(lg, f, opt, w, low, high, has_range);
        if (need > w)
            w = need;
        lg->top = (uint32_t)h;
        h += (uint64_t)LEGEND_ROWS * (uint64_t)lg->glyph;
        lg->bar_x0 = (uint32_t)(LEGEND_MARGIN * lg->glyph);
        lg->bar_x1 = (uint32_t)(w - (uint64_t)LEGEND_MARGIN * (uint64_t)lg->glyph);
    }
    /* Each side is at most 2^31 here, so the product cannot wrap. */
    if (w > FF_DRAW_MAX_BYTES || h > FF_DRAW_MAX_BYTES || w * h * 3 > FF_DRAW_MAX_BYTES)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "scale %d makes a %llux%llu picture of %.3g bytes, over the "
                            "limit of 2^31: use a smaller -s",
                            opt->scale, (unsigned long long)w, (unsigned long long)h,
                            (double)w * (double)h * 3);
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    *map_width = (uint32_t)mw;
    *map_height = (uint32_t)mh;
    return FF_OK;
}

ff_status ff_draw_size(const ff_field *f, const ff_draw_options *opt, uint32_t *width,
                       uint32_t *height, ff_error *err)
{
    ff_legend lg;
    uint32_t mw, mh;
    double low, high;
    int has_range;

    return picture_size(f, opt, &lg, width, height, &mw, &mh, &low, &high, &has_range, err);
}

/* The arrow of direction dir in a cell of s pixels, as spans per row:
 * a shaft from behind the center to just past it, and a head reaching
 * 0.4 s from the center. */
static void arrow_spans(int32_t *span, int dir, int s)
{
    double len = dir >= FF_DIR_NE ? FF_SQRT2 : 1.0;
    double ux = ff_dir_dx[dir] / len, uy = ff_dir_dy[dir] / len, nx = -uy, ny = ux;
    double c = s / 2.0, shaft_r = at_least(0.07 * s, 0.6), half = 0.24 * s;
    double tail_x = c - 0.38 * s * ux, tail_y = c - 0.38 * s * uy;
    double base_x = c + 0.02 * s * ux, base_y = c + 0.02 * s * uy;
    double tx[3], ty[3], lo, hi;
    int64_t x0, x1;
    int oy;

    tx[0] = c + 0.40 * s * ux;
    ty[0] = c + 0.40 * s * uy;
    tx[1] = base_x + half * nx;
    ty[1] = base_y + half * ny;
    tx[2] = base_x - half * nx;
    ty[2] = base_y - half * ny;
    for (oy = 0; oy < s; oy++) {
        int32_t *p = span + 4 * oy;
        p[0] = p[2] = 1;
        p[1] = p[3] = 0;
        if (capsule_span(tail_x, tail_y, base_x, base_y, shaft_r, oy + 0.5, &lo, &hi) &&
            span_columns(lo, hi, s, &x0, &x1)) {
            p[0] = (int32_t)x0;
            p[1] = (int32_t)x1;
        }
        if (triangle_span(tx, ty, oy + 0.5, &lo, &hi) && span_columns(lo, hi, s, &x0, &x1)) {
            p[2] = (int32_t)x0;
            p[3] = (int32_t)x1;
        }
    }
}

typedef struct {
    int64_t row0;
    uint32_t index;
} by_row;

static int by_row_cmp(const void *a, const void *b)
{
    const by_row *p = a, *q = b;

    if (p->row0 != q->row0)
        return p->row0 < q->row0 ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

ff_status ff_draw_begin(ff_drawing *d, const ff_field *f, const ff_draw_options *opt,
                        const ff_overlay *ov, ff_error *err)
{
    size_t nshape = ov ? ov->nshape : 0, k;
    ff_status st;
    int s = opt->scale, dir, oy;

    memset(d, 0, sizeof *d);
    d->field = f;
    d->overlay = ov;
    d->opt = *opt;
    if ((st = picture_size(f, opt, &d->legend, &d->width, &d->height, &d->map_width,
                           &d->map_height, &d->low, &d->high, &d->has_range, err)) != FF_OK)
        return st;
    /* The legend's layout found the range already; otherwise find it here
     * rather than in ff_draw_size, a scan of every cell. */
    if (!opt->legend && opt->layer != FF_LAYER_MAP)
        d->has_range = value_range(f, opt, &d->low, &d->high);
    d->arrows = opt->layer == FF_LAYER_DIRECTION && s >= FF_DRAW_ARROW_SCALE;
    d->base = malloc((size_t)d->width * 3);
    d->goal_span = malloc((size_t)s * 2 * sizeof *d->goal_span);
    d->lut = malloc(LUT_SIZE * 3);
    if (d->arrows)
        d->arrow_span = malloc((size_t)8 * (size_t)s * 4 * sizeof *d->arrow_span);
    if (nshape) {
        d->order = malloc(nshape * sizeof *d->order);
        d->active = malloc(nshape * sizeof *d->active);
    }
    if (!d->base || !d->goal_span || !d->lut || (d->arrows && !d->arrow_span) ||
        (nshape && (!d->order || !d->active))) {
        ff_draw_end(d);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a %ux%u picture",
                            (unsigned)d->width, (unsigned)d->height);
    }
    for (k = 0; k < LUT_SIZE; k++) {
        ramp_at((double)k / (LUT_SIZE - 1), d->lut + 3 * k);
        if (d->arrows)
            pastel(d->lut + 3 * k);
    }
    /* Goal marks: the whole cell when small, else a disc of 0.35 cell. */
    for (oy = 0; oy < s; oy++) {
        double lo, hi, c = s / 2.0;
        int64_t x0 = 0, x1 = s - 1;
        if (s >= 3 && !(capsule_span(c, c, c, c, 0.35 * s, oy + 0.5, &lo, &hi) &&
                        span_columns(lo, hi, s, &x0, &x1))) {
            x0 = 1;
            x1 = 0;
        }
        d->goal_span[2 * oy] = (int32_t)x0;
        d->goal_span[2 * oy + 1] = (int32_t)x1;
    }
    if (d->arrows)
        for (dir = 0; dir < 8; dir++)
            arrow_spans(d->arrow_span + (size_t)dir * (size_t)s * 4, dir, s);
    if (nshape) {
        by_row *tmp = malloc(nshape * sizeof *tmp);
        if (!tmp) {
            ff_draw_end(d);
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for overlays");
        }
        for (k = 0; k < nshape; k++) {
            tmp[k].row0 = ov->shape[k].row0;
            tmp[k].index = (uint32_t)k;
        }
        qsort(tmp, nshape, sizeof *tmp, by_row_cmp);
        for (k = 0; k < nshape; k++)
            d->order[k] = tmp[k].index;
        free(tmp);
    }
    return FF_OK;
}

/* The ramp colour of value v, through d->lut (LUT_SIZE steps) so that a
 * large field costs a lookup a cell. */
static const uint8_t *ramp_colour(const ff_drawing *d, double v)
{
    double t = d->high > d->low ? (v - d->low) / (d->high - d->low) : 0;

    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return d->lut + 3 * (size_t)floor(t * (LUT_SIZE - 1) + 0.5);
}

static void cost_grey(const ff_drawing *d, double cost, uint8_t out[3])
{
    double t = d->high > d->low ? (cost - d->low) / (d->high - d->low) : 0;

    out[0] = out[1] = out[2] = (uint8_t)(COST_LIGHT - lround(t * (COST_LIGHT - COST_DARK)));
}

/* The plain colour of cell i: everything but goal discs and arrows. */
static void cell_colour(const ff_drawing *d, size_t i, uint8_t out[3])
{
    const ff_field *f = d->field;
    double density;
    int code;

    if (!ff_grid_open(&f->grid, i)) {
        set_rgb(out, WALL);
        return;
    }
    switch (d->opt.layer) {
    case FF_LAYER_MAP:
        if (f->grid.terrain && f->grid.terrain[i])
            set_rgb(out, CLASS_COLOUR[(f->grid.terrain[i] - 1) % 4]);
        else
            set_rgb(out, OPEN);
        return;
    case FF_LAYER_COST:
        cost_grey(d, f->grid.cost[i], out);
        return;
    case FF_LAYER_DISTANCE:
        set_rgb(out, isfinite(f->distance[i]) ? ramp_colour(d, f->distance[i]) : UNREACHABLE);
        return;
    case FF_LAYER_DIRECTION:
        code = f->direction[i];
        if (code == FF_DIR_NONE || !isfinite(f->distance[i]))
            set_rgb(out, UNREACHABLE);
        else if (d->arrows)
            set_rgb(out, ramp_colour(d, f->distance[i]));
        else if (code < 8)
            set_rgb(out, DIRECTION_COLOUR[code]);
        else
            set_rgb(out, OPEN);
        return;
    case FF_LAYER_DENSITY:
        density = ff_overlay_density(d->opt.density, i);
        if (density > 0)
            set_rgb(out, ramp_colour(d, d->high - density));
        else
            set_rgb(out, OPEN);
        return;
    }
    set_rgb(out, OPEN);
}

static void build_base(ff_drawing *d, uint32_t cy)
{
    const ff_grid *g = &d->field->grid;
    uint32_t s = (uint32_t)d->opt.scale, x, k;
    size_t i = (size_t)cy * (size_t)g->w;
    uint8_t *p = d->base, rgb[3];

    for (x = 0; x < (uint32_t)g->w; x++, i++) {
        cell_colour(d, i, rgb);
        for (k = 0; k < s; k++, p += 3)
            set_rgb(p, rgb);
    }
    for (x = d->map_width; x < d->width; x++, p += 3)
        set_rgb(p, PAPER);
}

/* Goal discs and arrows on pixel row oy of cell row cy. */
static void cell_marks(ff_drawing *d, uint8_t *row, uint32_t cy, uint32_t oy)
{
    const ff_field *f = d->field;
    const ff_grid *g = &f->grid;
    size_t s = (size_t)d->opt.scale, first = (size_t)cy * (size_t)g->w, i, k;
    const int32_t *gs = d->goal_span + 2 * oy;

    if (d->arrows) {
        for (i = 0; i < (size_t)g->w; i++) {
            int code = f->direction[first + i];
            const int32_t *a;
            if (code >= 8)
                continue;
            a = d->arrow_span + ((size_t)code * s + oy) * 4;
            if (a[0] <= a[1])
                fill(row, (int64_t)(i * s) + a[0], (int64_t)(i * s) + a[1], ARROW);
            if (a[2] <= a[3])
                fill(row, (int64_t)(i * s) + a[2], (int64_t)(i * s) + a[3], ARROW);
        }
    }
    while (d->goal_at < g->ngoals && g->goals[d->goal_at] < first)
        d->goal_at++;
    for (k = d->goal_at; k < g->ngoals && g->goals[k] < first + (size_t)g->w; k++)
        if (gs[0] <= gs[1]) {
            int64_t x = (int64_t)(g->goals[k] - first) * (int64_t)s;
            fill(row, x + gs[0], x + gs[1], GOAL);
        }
}

/* The overlay marks on picture row py, clipped to the map part. */
static void overlay_row(ff_drawing *d, uint8_t *row, uint32_t py)
{
    const ff_overlay *ov = d->overlay;
    size_t k, kept;
    double lo, hi;
    int64_t x0, x1;

    if (!ov || !ov->nshape)
        return;
    /* Retire the marks that ended above this row. */
    for (k = kept = 0; k < d->nactive; k++)
        if (ov->shape[d->active[k]].row1 >= (int64_t)py)
            d->active[kept++] = d->active[k];
    d->nactive = kept;
    /* Take in the marks that start here, keeping the drawing order. */
    while (d->next_shape < ov->nshape && ov->shape[d->order[d->next_shape]].row0 <= (int64_t)py) {
        uint32_t idx = d->order[d->next_shape++];
        size_t lo_i = 0, hi_i = d->nactive;
        if (ov->shape[idx].row1 < (int64_t)py)
            continue;
        while (lo_i < hi_i) {
            size_t mid = (lo_i + hi_i) / 2;
            if (d->active[mid] < idx)
                lo_i = mid + 1;
            else
                hi_i = mid;
        }
        memmove(d->active + lo_i + 1, d->active + lo_i, (d->nactive - lo_i) * sizeof *d->active);
        d->active[lo_i] = idx;
        d->nactive++;
    }
    for (k = 0; k < d->nactive; k++) {
        const ff_shape *sh = &ov->shape[d->active[k]];
        if (capsule_span(sh->ax, sh->ay, sh->bx, sh->by, sh->r, py + 0.5, &lo, &hi) &&
            span_columns(lo, hi, d->map_width, &x0, &x1))
            fill(row, x0, x1, sh->rgb);
    }
}

static void legend_row(const ff_drawing *d, uint8_t *row, uint32_t ly)
{
    const ff_legend *lg = &d->legend;
    uint32_t k = (uint32_t)lg->glyph, x;
    int dot = (int)(ly / k), slot;
    uint8_t rgb[3];

    fill(row, 0, (int64_t)d->width - 1, PAPER);
    if (swatch_legend(&d->opt)) {
        for (slot = 0; slot < 8; slot++) {
            int64_t x0 = (int64_t)(LEGEND_MARGIN + slot * SWATCH_WIDTH) * k;
            const char *label = SWATCH_LABEL[slot];
            if (dot >= LEGEND_BAR_TOP && dot < LEGEND_BAR_TOP + LEGEND_BAR_ROWS)
                fill(row, x0 + 2 * k, x0 + (SWATCH_WIDTH - 2) * k - 1,
                     DIRECTION_COLOUR[SWATCH_DIR[slot]]);
            else if (dot >= LEGEND_TEXT_TOP && dot < LEGEND_TEXT_TOP + 7)
                text_row(row, d->width, label,
                         x0 + ((int64_t)SWATCH_WIDTH * k - (int64_t)text_width(label, (int)k)) / 2,
                         (int)k, dot - LEGEND_TEXT_TOP);
        }
        return;
    }
    if (dot >= LEGEND_BAR_TOP && dot < LEGEND_BAR_TOP + LEGEND_BAR_ROWS) {
        uint32_t span = lg->bar_x1 - lg->bar_x0;
        for (x = lg->bar_x0; x < lg->bar_x1; x++) {
            double t = span > 1 ? (double)(x - lg->bar_x0) / (span - 1) : 0;
            if (d->opt.layer == FF_LAYER_COST) {
                rgb[0] = rgb[1] = rgb[2] = (uint8_t)(COST_LIGHT - lround(t * (COST_LIGHT - COST_DARK)));
            } else {
                ramp_at(d->opt.layer == FF_LAYER_DENSITY ? 1 - t : t, rgb);
                if (d->arrows)
                    pastel(rgb);
            }
            set_rgb(row + 3 * (size_t)x, rgb);
        }
    } else if (dot >= LEGEND_TEXT_TOP && dot < LEGEND_TEXT_TOP + 7) {
        text_row(row, d->width, lg->low, lg->bar_x0, (int)k, dot - LEGEND_TEXT_TOP);
        text_row(row, d->width, lg->high,
                 (int64_t)lg->bar_x1 - (int64_t)text_width(lg->high, (int)k), (int)k,
                 dot - LEGEND_TEXT_TOP);
    }
}

uint32_t ff_draw_row(ff_drawing *d, uint8_t *rgb)
{
    uint32_t py = d->next_row++, s = (uint32_t)d->opt.scale;

    if (py < d->map_height) {
        uint32_t cy = py / s, oy = py % s;
        if (oy == 0)
            build_base(d, cy);
        memcpy(rgb, d->base, (size_t)d->width * 3);
        cell_marks(d, rgb, cy, oy);
        overlay_row(d, rgb, py);
    } else if (py < d->height) {
        legend_row(d, rgb, py - d->map_height);
    }
    return py;
}

void ff_draw_end(ff_drawing *d)
{
    free(d->base);
    free(d->arrow_span);
    free(d->goal_span);
    free(d->order);
    free(d->active);
    free(d->lut);
    d->lut = NULL;
    d->base = NULL;
    d->arrow_span = NULL;
    d->goal_span = NULL;
    d->order = NULL;
    d->active = NULL;
}
