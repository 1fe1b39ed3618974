/* draw.c - pictures of fields, one pixel row at a time; see draw.h and
 * man 1 ffpng.
 *
 * The picture is made in bands of scale rows, one band a cell row: the
 * band's plain colours are expanded once into a row (base), and each of
 * its pixel rows adds the marks that vary within a cell (arrows), the
 * overlays (raster.h), the goals and the points.  Below the map come the
 * --grid strip and the key (legend.h).
 */
#include "draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "anyangle.h"
#include "palette.h"

#define LUT_SIZE 4096

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

/* The vector channel when f has it in place of direction codes (an
 * any-angle field, ffdir), else NULL. */
static const float *vectors_of(const ff_field *f)
{
    return f->direction || !f->distance ? NULL : ff_field_vectors(f);
}

/* 1 when f has directions to draw: codes, or an any-angle field's vectors. */
static int has_directions(const ff_field *f)
{
    return f->direction || vectors_of(f);
}

/* The direction code drawn for cell i: its code, or the one that stands
 * for its vector (ff_anyangle_code). */
static int cell_code(const ff_field *f, const float *vec, size_t i)
{
    return vec ? ff_anyangle_code(f->distance[i], vec[2 * i], vec[2 * i + 1]) : f->direction[i];
}

ff_layer ff_layer_richest(const ff_field *f)
{
    return has_directions(f) ? FF_LAYER_DIRECTION : f->distance ? FF_LAYER_DISTANCE : FF_LAYER_COST;
}

ff_status ff_layer_check(const ff_field *f, ff_layer layer, const char *name, ff_error *err)
{
    int has = layer == FF_LAYER_MAP || layer == FF_LAYER_COST || layer == FF_LAYER_DENSITY ||
              (layer == FF_LAYER_DISTANCE && f->distance) ||
              (layer == FF_LAYER_DIRECTION && has_directions(f));

    if (has)
        return FF_OK;
    return ff_error_set(err, FF_EINPUT, name, 0, 0,
                        "the stream has no %s channel: its layers are map, cost%s%s%s",
                        ff_layer_name(layer), f->distance ? ", distance" : "",
                        has_directions(f) ? ", direction" : "",
                        f->distance ? "" : " (run ffbuild for distance, then ffdir for direction)");
}
int ff_draw_default_scale(const ff_grid *g)
{
    int32_t side = g->w > g->h ? g->w : g->h;

    return side >= 1024 || side < 1 ? 1 : (int)(1024 / side);
}

/* ---- what the picture shows ---- */

/* One scan of the cells: the ramp's range (finite distances, open cells'
 * costs, or 0 to the densest cell), and which plain colours appear. */
typedef struct {
    double low, high;
    int has_range;
    int walls, unreachable;
    unsigned classes;      /* bit c for terrain class c >= 1 on the map */
    unsigned directions;   /* bit d for direction code d < 8 */
} census;

static void take_census(const ff_field *f, const ff_draw_options *opt, census *c)
{
    size_t n = (size_t)f->grid.w * (size_t)f->grid.h, i;
    ff_layer layer = opt->layer;
    const float *vec = vectors_of(f);

    memset(c, 0, sizeof *c);
    for (i = 0; i < n; i++) {
        double v;
        if (!ff_grid_open(&f->grid, i)) {
            c->walls = 1;
            continue;
        }
        if (f->grid.terrain && f->grid.terrain[i])
            c->classes |= 1u << ((f->grid.terrain[i] - 1) % 4 + 1);
        if ((layer == FF_LAYER_DISTANCE || layer == FF_LAYER_DIRECTION) &&
            !(f->distance && isfinite(f->distance[i])))
            c->unreachable = 1;
        if (layer == FF_LAYER_DIRECTION && has_directions(f)) {
            int code = cell_code(f, vec, i);
            if (code < 8)
                c->directions |= 1u << code;
            else if (code == FF_DIR_NONE)
                c->unreachable = 1;
        }
        if (layer == FF_LAYER_DENSITY)
            v = opt->density ? ff_overlay_density(opt->density, i) : 0;
        else if (layer == FF_LAYER_COST)
            v = f->grid.cost[i];
        else if (f->distance && isfinite(f->distance[i]))
            v = f->distance[i];
        else
            continue;
        if (layer == FF_LAYER_DENSITY) {
            c->low = 0;
            if (v > c->high)
                c->high = v;
            c->has_range |= v > 0;
            continue;
        }
        if (!c->has_range || v < c->low)
            c->low = v;
        if (!c->has_range || v > c->high)
            c->high = v;
        c->has_range = 1;
    }
}

static const int COMPASS[8] = { FF_DIR_N, FF_DIR_NE, FF_DIR_E, FF_DIR_SE,
                                FF_DIR_S, FF_DIR_SW, FF_DIR_W, FF_DIR_NW };
static const char *const COMPASS_NAME[8] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };
static const char *const CLASS_NAME[4] = { "water", "trees", "class 3", "class 4+" };

/* The key's title, bar and swatches for what the picture shows. */
static void build_key(ff_legend *lg, const ff_field *f, const ff_draw_options *opt,
                      const ff_overlay *ov, const census *c, uint64_t map_width)
{
    char title[128], label[40], heading[24] = "";
    int arrows = opt->layer == FF_LAYER_DIRECTION && opt->scale >= FF_DRAW_ARROW_SCALE, k;

    if (opt->heading_name)
        snprintf(heading, sizeof heading, " for heading %.8s", opt->heading_name);

    switch (opt->layer) {
    case FF_LAYER_MAP:
        snprintf(title, sizeof title, "Map: %d x %d cells of %g world units", (int)f->grid.w,
                 (int)f->grid.h, f->grid.cell_size);
        break;
    case FF_LAYER_COST:
        snprintf(title, sizeof title, "Terrain cost of a cell");
        break;
    case FF_LAYER_DISTANCE:
        snprintf(title, sizeof title, "Distance to the nearest goal%s (world units)", heading);
        break;
    case FF_LAYER_DIRECTION:
        if (vectors_of(f))
            snprintf(title, sizeof title,
                     arrows ? "Direction to the goal (vectors), on the distance (world units)"
                            : "Direction to the goal (vectors, to the nearest of eight)");
        else
            snprintf(title, sizeof title,
                     arrows ? "Direction to the goal%s, on the distance (world units)"
                            : "Direction to the goal%s", heading);
        break;
    case FF_LAYER_DENSITY:
        snprintf(title, sizeof title, "Agents per cell, mean of %llu tick%s",
                 (unsigned long long)(opt->density ? opt->density->density_ticks : 0),
                 opt->density && opt->density->density_ticks == 1 ? "" : "s");
        break;
    }
    ff_legend_init(lg, map_width, title);
    if (opt->layer != FF_LAYER_MAP && (opt->layer != FF_LAYER_DIRECTION || arrows) && c->has_range)
        ff_legend_bar(lg, c->low, c->high);
    if (opt->layer == FF_LAYER_DIRECTION && !arrows)
        for (k = 0; k < 8; k++)
            if (c->directions & (1u << COMPASS[k]))
                ff_legend_add(lg, ff_direction_colour[COMPASS[k]], FF_KEY_SQUARE, COMPASS_NAME[k]);
    if (opt->layer == FF_LAYER_MAP || opt->layer == FF_LAYER_DENSITY)
        ff_legend_add(lg, ff_colour_open, FF_KEY_SQUARE,
                      opt->layer == FF_LAYER_MAP ? "open" : "no agent");
    if (opt->layer == FF_LAYER_MAP)
        for (k = 1; k <= 4; k++)
            if (c->classes & (1u << k))
                ff_legend_add(lg, ff_class_colour[k - 1], FF_KEY_SQUARE, CLASS_NAME[k - 1]);
    if (c->walls)
        ff_legend_add(lg, ff_colour_wall, FF_KEY_SQUARE, "wall");
    if (c->unreachable)
        ff_legend_add(lg, ff_colour_unreachable, FF_KEY_SQUARE, "unreachable");
    if (f->grid.ngoals)
        ff_legend_add(lg, ff_colour_goal, FF_KEY_DISC, f->grid.ngoals == 1 ? "goal" : "goals");
    if (!ov)
        return;
    for (k = 0; k < ov->npath; k++) {
        snprintf(label, sizeof label, ov->npath == 1 ? "path" : "path %d", k + 1);
        ff_legend_add(lg, ff_path_colour[k % FF_PALETTE_SIZE], FF_KEY_LINE, label);
    }
    for (k = 0; k < ov->npoints; k++) {
        snprintf(label, sizeof label, ov->npoints == 1 ? "points" : "points %d", k + 1);
        ff_legend_add(lg, ff_points_colour[k % FF_PALETTE_SIZE], FF_KEY_DISC, label);
    }
    for (k = 0; k < FF_TRACE_STATES; k++)
        if (ov->states_seen & (1u << k))
            ff_legend_add(lg, ff_state_colour[k], FF_KEY_DISC, ff_trace_state_name((ff_trace_state)k));
}

/* ---- the picture ---- */

typedef struct {
    uint32_t width, height, map_width, map_height, grid_rows, grid_cols;
} layout;

static ff_status picture_size(const ff_field *f, const ff_draw_options *opt, const ff_overlay *ov,
                              ff_legend *lg, census *c, layout *out, ff_error *err)
{
    uint64_t s = (uint64_t)opt->scale, w, h, mw, mh, gr = 0, gc = 0;

    memset(lg, 0, sizeof *lg);
    memset(c, 0, sizeof *c);
    if (opt->scale < 1)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0, "scale %d: want 1 or more", opt->scale);
    mw = w = (uint64_t)f->grid.w * s;
    mh = h = (uint64_t)f->grid.h * s;
    if (w <= FF_DRAW_MAX_BYTES && h <= FF_DRAW_MAX_BYTES) {
        int k = mw >= 900 ? 3 : mw >= 600 ? 2 : 1;
        if (opt->grid > 0) {
            gr = ff_grid_strip_rows(k);
            gc = ff_grid_strip_cols(k, f->grid.h);
            w += gc;
            h += gr;
        }
        take_census(f, opt, c);
        if (opt->legend) {
            uint64_t need;
            build_key(lg, f, opt, ov, c, mw);
            need = ff_legend_min_width(lg);
            if (need > w)
                w = need;
            if (w <= FF_DRAW_MAX_BYTES) {
                ff_legend_layout(lg, (uint32_t)w, (uint32_t)h);
                h += lg->rows;
            }
        }
    }
    /* Each side is at most 2^31 here, so the product cannot wrap. */
    if (w > FF_DRAW_MAX_BYTES || h > FF_DRAW_MAX_BYTES || w * h * 3 > FF_DRAW_MAX_BYTES)
        return ff_error_set(err, FF_EUSAGE, NULL, 0, 0,
                            "scale %d makes a %llux%llu picture of %.3g bytes, over the "
                            "limit of 2^31: use a smaller -s",
                            opt->scale, (unsigned long long)w, (unsigned long long)h,
                            (double)w * (double)h * 3);
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    out->map_width = (uint32_t)mw;
    out->map_height = (uint32_t)mh;
    out->grid_rows = (uint32_t)gr;
    out->grid_cols = (uint32_t)gc;
    return FF_OK;
}

ff_status ff_draw_size(const ff_field *f, const ff_draw_options *opt, const ff_overlay *ov,
                       uint32_t *width, uint32_t *height, ff_error *err)
{
    ff_legend lg;
    census c;
    layout l;
    ff_status st = picture_size(f, opt, ov, &lg, &c, &l, err);

    if (st == FF_OK) {
        *width = l.width;
        *height = l.height;
    }
    return st;
}

/* The arrow along unit vector (ux, uy) in a cell of s pixels, as spans per
 * row: a shaft from behind the center to just past it, and a head reaching
 * 0.4 s from the center. */
static void arrow_spans(int32_t *span, double ux, double uy, int s)
{
    double nx = -uy, ny = ux;
    double c = s / 2.0, shaft_r = (0.07 * s > 0.6 ? 0.07 * s : 0.6), half = 0.24 * s;
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
        if (ff_capsule_span(tail_x, tail_y, base_x, base_y, shaft_r, oy + 0.5, &lo, &hi) &&
            ff_span_columns(lo, hi, s, &x0, &x1)) {
            p[0] = (int32_t)x0;
            p[1] = (int32_t)x1;
        }
        if (ff_triangle_span(tx, ty, oy + 0.5, &lo, &hi) && ff_span_columns(lo, hi, s, &x0, &x1)) {
            p[2] = (int32_t)x0;
            p[3] = (int32_t)x1;
        }
    }
}

/* The goal mark's spans per pixel row of a cell: the whole cell below
 * scale 3, a disc of 0.35 cell below FF_DRAW_RING_SCALE, else a ring from
 * 0.28 to 0.42 cell, so that a point or an agent on the goal shows. */
static void goal_spans(int32_t *span, int s)
{
    double c = s / 2.0, lo, hi;
    int oy;

    for (oy = 0; oy < s; oy++) {
        int32_t *p = span + 4 * oy;
        int64_t x0 = 0, x1 = s - 1, i0, i1;
        p[2] = 1;
        p[3] = 0;
        if (s >= 3) {
            double r = s >= FF_DRAW_RING_SCALE ? 0.42 * s : 0.35 * s;
            if (!(ff_capsule_span(c, c, c, c, r, oy + 0.5, &lo, &hi) &&
                  ff_span_columns(lo, hi, s, &x0, &x1))) {
                x0 = 1;
                x1 = 0;
            } else if (s >= FF_DRAW_RING_SCALE &&
                       ff_capsule_span(c, c, c, c, 0.28 * s, oy + 0.5, &lo, &hi) &&
                       ff_span_columns(lo, hi, s, &i0, &i1)) {
                p[2] = (int32_t)i1 + 1;
                p[3] = (int32_t)x1;
                x1 = i0 - 1;
            }
        }
        p[0] = (int32_t)x0;
        p[1] = (int32_t)x1;
    }
}

ff_status ff_draw_begin(ff_drawing *d, const ff_field *f, const ff_draw_options *opt,
                        const ff_overlay *ov, ff_error *err)
{
    ff_status st;
    census c;
    layout l;
    size_t k;
    int s = opt->scale, dir;

    memset(d, 0, sizeof *d);
    d->field = f;
    d->overlay = ov;
    d->opt = *opt;
    if ((st = picture_size(f, opt, ov, &d->legend, &c, &l, err)) != FF_OK)
        return st;
    d->width = l.width;
    d->height = l.height;
    d->map_width = l.map_width;
    d->map_height = l.map_height;
    d->grid_rows = l.grid_rows;
    d->grid_cols = l.grid_cols;
    d->low = c.low;
    d->high = c.high;
    d->has_range = c.has_range;
    d->arrows = opt->layer == FF_LAYER_DIRECTION && s >= FF_DRAW_ARROW_SCALE;
    d->vectors = opt->layer == FF_LAYER_DIRECTION ? vectors_of(f) : NULL;
    d->base = malloc((size_t)d->width * 3);
    d->goal_span = malloc((size_t)s * 4 * sizeof *d->goal_span);
    d->lut = malloc(LUT_SIZE * 3);
    /* Eight arrows, or with vectors each cell's of the current cell row. */
    if (d->arrows)
        d->arrow_span = malloc((size_t)(d->vectors ? f->grid.w : 8) * (size_t)s * 4 *
                               sizeof *d->arrow_span);
    if (!d->base || !d->goal_span || !d->lut || (d->arrows && !d->arrow_span)) {
        ff_draw_end(d);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a %ux%u picture",
                            (unsigned)d->width, (unsigned)d->height);
    }
    if (ov && (st = ff_shape_rows_begin(&d->shapes, &ov->shapes, err)) != FF_OK) {
        ff_draw_end(d);
        return st;
    }
    for (k = 0; k < LUT_SIZE; k++) {
        ff_ramp_at((double)k / (LUT_SIZE - 1), d->lut + 3 * k);
        if (d->arrows)
            ff_pastel(d->lut + 3 * k);
    }
    goal_spans(d->goal_span, s);
    if (d->arrows && !d->vectors)
        for (dir = 0; dir < 8; dir++) {
            double len = dir >= FF_DIR_NE ? FF_SQRT2 : 1.0;
            arrow_spans(d->arrow_span + (size_t)dir * (size_t)s * 4, ff_dir_dx[dir] / len,
                        ff_dir_dy[dir] / len, s);
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

/* The colour of value v on the layer's scale: the bar of the key and the
 * cells share it. */
static void value_colour(const void *ctx, double v, uint8_t out[3])
{
    const ff_drawing *d = ctx;

    if (d->opt.layer == FF_LAYER_COST)
        ff_cost_grey(d->high > d->low ? (v - d->low) / (d->high - d->low) : 0, out);
    else if (d->opt.layer == FF_LAYER_DENSITY)
        ff_set_rgb(out, ramp_colour(d, d->high - v));
    else
        ff_set_rgb(out, ramp_colour(d, v));
}

/* The plain colour of cell i: everything but arrows and marks. */
static void cell_colour(const ff_drawing *d, size_t i, uint8_t out[3])
{
    const ff_field *f = d->field;
    double density;
    int code;

    if (!ff_grid_open(&f->grid, i)) {
        ff_set_rgb(out, ff_colour_wall);
        return;
    }
    switch (d->opt.layer) {
    case FF_LAYER_MAP:
        if (f->grid.terrain && f->grid.terrain[i])
            ff_set_rgb(out, ff_class_colour[(f->grid.terrain[i] - 1) % 4]);
        else
            ff_set_rgb(out, ff_colour_open);
        return;
    case FF_LAYER_COST:
        value_colour(d, f->grid.cost[i], out);
        return;
    case FF_LAYER_DISTANCE:
        if (isfinite(f->distance[i]))
            value_colour(d, f->distance[i], out);
        else
            ff_set_rgb(out, ff_colour_unreachable);
        return;
    case FF_LAYER_DIRECTION:
        code = cell_code(f, d->vectors, i);
        if (code == FF_DIR_NONE || !isfinite(f->distance[i]))
            ff_set_rgb(out, ff_colour_unreachable);
        else if (d->arrows)
            value_colour(d, f->distance[i], out);
        else if (code < 8)
            ff_set_rgb(out, ff_direction_colour[code]);
        else
            ff_set_rgb(out, ff_colour_open);
        return;
    case FF_LAYER_DENSITY:
        density = ff_overlay_density(d->opt.density, i);
        if (density > 0)
            value_colour(d, density, out);
        else
            ff_set_rgb(out, ff_colour_open);
        return;
    }
    ff_set_rgb(out, ff_colour_open);
}

/* The plain colours of cell row cy, and with vectors its arrows' spans. */
static void build_base(ff_drawing *d, uint32_t cy)
{
    const ff_grid *g = &d->field->grid;
    uint32_t s = (uint32_t)d->opt.scale, x, k;
    size_t i = (size_t)cy * (size_t)g->w;
    uint8_t *p = d->base, rgb[3];

    for (x = 0; x < (uint32_t)g->w; x++, i++) {
        cell_colour(d, i, rgb);
        for (k = 0; k < s; k++, p += 3)
            ff_set_rgb(p, rgb);
        if (d->arrows && d->vectors && cell_code(d->field, d->vectors, i) < 8)
            arrow_spans(d->arrow_span + (size_t)x * s * 4, d->vectors[2 * i],
                        d->vectors[2 * i + 1], (int)s);
    }
    for (x = d->map_width; x < d->width; x++, p += 3)
        ff_set_rgb(p, ff_colour_paper);
}

/* Arrows on pixel row oy of cell row cy. */
static void arrows_row(const ff_drawing *d, uint8_t *row, uint32_t cy, uint32_t oy)
{
    const ff_field *f = d->field;
    size_t s = (size_t)d->opt.scale, first = (size_t)cy * (size_t)f->grid.w, i;

    for (i = 0; i < (size_t)f->grid.w; i++) {
        int code = cell_code(f, d->vectors, first + i);
        const int32_t *a;
        if (code >= 8)
            continue;
        a = d->arrow_span + ((d->vectors ? i : (size_t)code) * s + oy) * 4;
        if (a[0] <= a[1])
            ff_fill(row, (int64_t)(i * s) + a[0], (int64_t)(i * s) + a[1], ff_colour_black);
        if (a[2] <= a[3])
            ff_fill(row, (int64_t)(i * s) + a[2], (int64_t)(i * s) + a[3], ff_colour_black);
    }
}

void ff_draw_goals_row(const ff_drawing *d, uint8_t *rgb, uint32_t py)
{
    const ff_grid *g = &d->field->grid;
    uint32_t s = (uint32_t)d->opt.scale, cy = py / s, oy = py % s;
    size_t first = (size_t)cy * (size_t)g->w, lo = 0, hi = g->ngoals, k;
    const int32_t *gs = d->goal_span + 4 * oy;

    /* The goals are in cell order: the first in this cell row. */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->goals[mid] < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (k = lo; k < g->ngoals && g->goals[k] < first + (size_t)g->w; k++) {
        int64_t x = (int64_t)(g->goals[k] - first) * (int64_t)s;
        if (gs[0] <= gs[1])
            ff_fill(rgb, x + gs[0], x + gs[1], ff_colour_goal);
        if (gs[2] <= gs[3])
            ff_fill(rgb, x + gs[2], x + gs[3], ff_colour_goal);
    }
}

uint32_t ff_draw_row(ff_drawing *d, uint8_t *rgb)
{
    uint32_t py = d->next_row++, s = (uint32_t)d->opt.scale;
    const ff_grid *g = &d->field->grid;

    if (py < d->map_height) {
        uint32_t cy = py / s, oy = py % s;
        if (oy == 0)
            build_base(d, cy);
        memcpy(rgb, d->base, (size_t)d->width * 3);
        if (d->arrows)
            arrows_row(d, rgb, cy, oy);
        if (d->overlay) {
            ff_shape_rows_step(&d->shapes, py);
            ff_shape_rows_draw(&d->shapes, rgb, py, d->map_width, 0);
        }
        if (!d->opt.background) {
            ff_draw_goals_row(d, rgb, py);
            if (d->overlay)
                ff_shape_rows_draw(&d->shapes, rgb, py, d->map_width, 1);
        }
        if (d->grid_cols)
            ff_grid_right_row(rgb, d->map_width, d->width, py, d->legend.k ? d->legend.k : 1, (int)s,
                              d->opt.grid, g->h);
    } else if (py < d->map_height + d->grid_rows) {
        ff_fill(rgb, 0, (int64_t)d->width - 1, ff_colour_paper);
        ff_grid_bottom_row(rgb, d->map_width, py - d->map_height, d->legend.k ? d->legend.k : 1,
                           (int)s, d->opt.grid, g->w);
    } else if (py < d->height) {
        ff_legend_row(&d->legend, rgb, d->width, py, value_colour, d);
    }
    return py;
}

void ff_draw_end(ff_drawing *d)
{
    free(d->base);
    free(d->arrow_span);
    free(d->goal_span);
    free(d->lut);
    ff_shape_rows_end(&d->shapes);
    d->lut = NULL;
    d->base = NULL;
    d->arrow_span = NULL;
    d->goal_span = NULL;
}
