/* test_draw.c - lib/draw: layers, scale, size limits, the ramp, overlay
 * rasterisation against a brute-force distance test, the trace reader and
 * the legend.  Fields are made by hand here; test_ffpng.c draws real ones
 * through the programs. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "draw.h"
#include "palette.h"

/* A w x h field of open cells (cost 1), walls where wall[] says, and
 * distance d(x, y) = x when with_distance. */
static void make_field(ff_field *f, int w, int h, int with_distance)
{
    size_t n = (size_t)w * (size_t)h, i;
    ff_error err;

    ff_field_init(f);
    cr_assert_eq(ff_grid_alloc(&f->grid, w, h, 0, "test", &err), FF_OK);
    for (i = 0; i < n; i++)
        f->grid.cost[i] = 1;
    if (with_distance) {
        f->distance = malloc(n * sizeof *f->distance);
        cr_assert_not_null(f->distance);
        for (i = 0; i < n; i++)
            f->distance[i] = (double)(i % (size_t)w);
    }
}

/* Every row of the picture, in one buffer (the tests' pictures are small). */
static uint8_t *draw_all(const ff_field *f, const ff_draw_options *opt, const ff_overlay *ov,
                         uint32_t *w, uint32_t *h)
{
    ff_drawing d;
    ff_error err;
    uint8_t *rgb;
    uint32_t y;

    cr_assert_eq(ff_draw_begin(&d, f, opt, ov, &err), FF_OK, "%s", err.msg);
    *w = d.width;
    *h = d.height;
    rgb = malloc((size_t)d.width * d.height * 3);
    cr_assert_not_null(rgb);
    for (y = 0; y < d.height; y++)
        cr_assert_eq(ff_draw_row(&d, rgb + (size_t)y * d.width * 3), y);
    ff_draw_end(&d);
    return rgb;
}

static unsigned at(const uint8_t *rgb, uint32_t w, uint32_t x, uint32_t y)
{
    const uint8_t *p = rgb + 3 * ((size_t)y * w + x);
    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

Test(layer, names_and_richest)
{
    ff_field f;
    ff_error err;

    cr_expect_eq(ff_layer_parse("map"), FF_LAYER_MAP);
    cr_expect_eq(ff_layer_parse("direction"), FF_LAYER_DIRECTION);
    cr_expect_eq(ff_layer_parse("Distance"), -1);
    cr_expect_eq(ff_layer_parse(""), -1);
    cr_expect_str_eq(ff_layer_name(FF_LAYER_COST), "cost");

    make_field(&f, 4, 3, 0);
    cr_expect_eq(ff_layer_richest(&f), FF_LAYER_COST);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_MAP, "s", &err), FF_OK);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_DISTANCE, "s.ff", &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "no distance channel"), "%s", err.msg);
    cr_expect(strstr(err.msg, "map, cost") && !strstr(err.msg, "cost, distance"), "%s", err.msg);
    cr_expect_str_eq(err.file, "s.ff");
    ff_field_free(&f);

    make_field(&f, 4, 3, 1);
    cr_expect_eq(ff_layer_richest(&f), FF_LAYER_DISTANCE);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_DIRECTION, "s", &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "map, cost, distance"), "%s", err.msg);
    f.direction = calloc(12, 1);
    cr_expect_eq(ff_layer_richest(&f), FF_LAYER_DIRECTION);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_DIRECTION, "s", &err), FF_OK);
    ff_field_free(&f);
}

Test(scale, default_aims_at_1024)
{
    ff_grid g;

    ff_grid_init(&g);
    g.w = 10, g.h = 5;
    cr_expect_eq(ff_draw_default_scale(&g), 102);
    g.w = 1, g.h = 1;
    cr_expect_eq(ff_draw_default_scale(&g), 1024);
    g.w = 3, g.h = 600;
    cr_expect_eq(ff_draw_default_scale(&g), 1);
    g.w = 5000, g.h = 10;
    cr_expect_eq(ff_draw_default_scale(&g), 1);
}

/* One cell at scale 26754 is 26754^2 * 3 = 2147329548 bytes, under
 * 2^31 = 2147483648; at 26755 it is 2147490075, over. */
Test(scale, picture_over_2_31_bytes_is_refused)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 26754, .legend = 0 };
    ff_error err;
    uint32_t w, h;

    make_field(&f, 1, 1, 0);
    cr_expect_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_OK);
    cr_expect_eq(w, 26754);
    opt.scale = 26755;
    cr_expect_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_EUSAGE);
    cr_expect(strstr(err.msg, "26755x26755"), "%s", err.msg);
    opt.scale = 2147483647;
    cr_expect_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_EUSAGE);
    ff_field_free(&f);

    /* A long thin map: each side fits, the product does not. */
    make_field(&f, 40000, 2, 0);
    opt.scale = 100;  /* 4e6 x 200 x 3 = 2.4e9 bytes */
    cr_expect_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_EUSAGE);
    opt.scale = 80;   /* 3.2e6 x 160 x 3 = 1.536e9 */
    cr_expect_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_OK);
    cr_expect_eq(w, 3200000);
    cr_expect_eq(h, 160);
    ff_field_free(&f);
}

/* The map layer's key has swatches and no bar. */
Test(scale, the_map_layer_has_a_key_without_a_bar)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_MAP, .scale = 4, .legend = 1 };
    ff_drawing d;
    ff_error err;

    make_field(&f, 3, 3, 0);
    f.grid.cost[4] = INFINITY;
    cr_assert_eq(ff_draw_begin(&d, &f, &opt, NULL, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(d.legend.bar, 0);
    cr_expect_eq(d.legend.nitems, 2, "open and wall");
    cr_expect_str_eq(d.legend.item[0].label, "open");
    cr_expect_str_eq(d.legend.item[1].label, "wall");
    ff_draw_end(&d);
    ff_field_free(&f);
}

/* Relative luminance (sRGB). */
static double luminance(unsigned c)
{
    double v[3];
    for (int k = 0; k < 3; k++) {
        double s = ((c >> (16 - 8 * k)) & 255) / 255.0;
        v[k] = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

/* A corridor with distance = x, 200 cells: the ramp's ends at the ends,
 * and the luminance never falls as distance grows (the ramp reads as a
 * lightness scale), strictly rising over every 5 cells. */
Test(ramp, ends_and_rising_lightness)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = 1, .legend = 0 };
    uint32_t w, h, x;
    uint8_t *rgb;

    make_field(&f, 200, 1, 1);
    rgb = draw_all(&f, &opt, NULL, &w, &h);
    cr_assert_eq(w, 200);
    cr_expect_eq(at(rgb, w, 0, 0), 0x360463u, "%06x", at(rgb, w, 0, 0));
    cr_expect_eq(at(rgb, w, 199, 0), 0xfcee2au, "%06x", at(rgb, w, 199, 0));
    for (x = 0; x + 1 < w; x++)
        cr_expect_geq(luminance(at(rgb, w, x + 1, 0)), luminance(at(rgb, w, x, 0)) - 1e-4,
                      "luminance falls at x %u", x);
    for (x = 0; x + 5 < w; x++)
        cr_expect_gt(luminance(at(rgb, w, x + 5, 0)), luminance(at(rgb, w, x, 0)));
    /* No two cells 10 apart share a colour: enough stops to tell them. */
    for (x = 0; x + 10 < w; x++)
        cr_expect_neq(at(rgb, w, x + 10, 0), at(rgb, w, x, 0));
    free(rgb);
    ff_field_free(&f);
}

Test(ramp, walls_unreachable_and_costs)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = 2, .legend = 0 };
    uint32_t w, h;
    uint8_t *rgb;

    make_field(&f, 5, 2, 1);
    f.grid.cost[1] = INFINITY;   /* wall at 1,0 */
    f.distance[1] = INFINITY;
    f.distance[7] = INFINITY;    /* open but unreachable at 2,1 */
    f.grid.cost[8] = 3;          /* dearer at 3,1 */
    rgb = draw_all(&f, &opt, NULL, &w, &h);
    cr_expect_eq(at(rgb, w, 2, 0), 0x202020u);
    cr_expect_eq(at(rgb, w, 3, 1), 0x202020u);
    cr_expect_eq(at(rgb, w, 4, 2), 0xb4b4b4u);
    cr_expect_eq(at(rgb, w, 0, 0), 0x360463u);
    cr_expect_eq(at(rgb, w, 9, 3), 0xfcee2au);
    free(rgb);

    /* Cost greys: cost 1 the lightest (245), cost 3 the darkest (90). */
    opt.layer = FF_LAYER_COST;
    rgb = draw_all(&f, &opt, NULL, &w, &h);
    cr_expect_eq(at(rgb, w, 0, 0), 0xf5f5f5u);
    cr_expect_eq(at(rgb, w, 6, 2), 0x5a5a5au);
    cr_expect_eq(at(rgb, w, 2, 0), 0x202020u);
    free(rgb);

    opt.layer = FF_LAYER_MAP;
    rgb = draw_all(&f, &opt, NULL, &w, &h);
    cr_expect_eq(at(rgb, w, 6, 2), 0xebebebu);
    cr_expect_eq(at(rgb, w, 2, 1), 0x202020u);
    free(rgb);
    ff_field_free(&f);
}

/* Distance from point (px, py) to segment a-b (brute force). */
static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
    if (l2 > 0) {
        t = ((px - ax) * dx + (py - ay) * dy) / l2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/* Random two-point paths at random scales: each pixel is the path's
 * colour exactly when its center lies within the line's half width of
 * the segment and outside the dots, the dots' colour within the dot
 * radius of an end (the widths man 1 ffpng gives: 0.06 and 0.15 of a
 * cell, at least 0.6 and 1.5 pixels).  Pixels within 1e-6 of an edge are
 * not judged. */
Test(overlay, path_pixels_match_brute_force)
{
    unsigned long long seed = 42;
    ff_field f;
    int trial;

    make_field(&f, 12, 9, 1);
    for (trial = 0; trial < 40; trial++) {
        int s = 1 + (int)(tu_next(&seed) % 14);
        double p[4], line_r = fmax(0.06 * s, 0.6), dot_r = fmax(0.15 * s, 1.5);
        double casing_r = line_r + fmax(0.03 * s, 1.0);
        char text[128];
        ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = s, .legend = 0 };
        ff_overlay ov;
        ff_error err;
        uint32_t w, h, x, y;
        uint8_t *rgb;
        FILE *in;
        int bad = 0;

        for (int k = 0; k < 4; k++)
            p[k] = (double)(tu_next(&seed) % 1400000) / 100000.0 - 1.0; /* -1 .. 13 */
        if (trial == 0)
            p[3] = p[1];  /* horizontal */
        if (trial == 1)
            p[2] = p[0];  /* vertical */
        snprintf(text, sizeof text, "%.5f %.5f\n%.5f %.5f\n", p[0], p[1], p[2], p[3]);
        in = tu_string_file(text);
        ff_overlay_init(&ov, &f.grid, s);
        cr_assert_eq(ff_overlay_read_path(&ov, in, "path", &err), FF_OK, "%s", err.msg);
        fclose(in);
        rgb = draw_all(&f, &opt, &ov, &w, &h);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                double cx = x + 0.5, cy = y + 0.5;
                double dl = seg_dist(cx, cy, p[0] * s, p[1] * s, p[2] * s, p[3] * s);
                double d0 = hypot(cx - p[0] * s, cy - p[1] * s);
                double d1 = hypot(cx - p[2] * s, cy - p[3] * s);
                unsigned c = at(rgb, w, x, y), want;
                if (fabs(dl - line_r) < 1e-6 || fabs(d0 - dot_r) < 1e-6 || fabs(d1 - dot_r) < 1e-6 ||
                    fabs(dl - casing_r) < 1e-6 || fabs(d0 - casing_r) < 1e-6 ||
                    fabs(d1 - casing_r) < 1e-6)
                    continue;
                if (d0 <= dot_r || d1 <= dot_r)
                    want = 0x8c1616u;  /* 55% of the line's 255 40 40 */
                else if (dl <= line_r)
                    want = 0xff2828u;
                else if (dl <= casing_r)
                    want = 0x000000u;  /* the casing */
                else
                    continue;
                if (c != want && bad++ < 3)
                    cr_expect_eq(c, want, "trial %d scale %d pixel %u,%u: %06x", trial, s, x, y, c);
            }
        /* And nothing of the path's colours far from it. */
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                double dl = seg_dist(x + 0.5, y + 0.5, p[0] * s, p[1] * s, p[2] * s, p[3] * s);
                unsigned c = at(rgb, w, x, y);
                if (dl > fmax(dot_r, casing_r) + 1e-6 &&
                    (c == 0xff2828u || c == 0x8c1616u || c == 0) && bad++ < 3)
                    cr_expect(0, "trial %d: stray path pixel %u,%u", trial, x, y);
            }
        free(rgb);
        ff_overlay_free(&ov);
    }
    ff_field_free(&f);
}

/* Random capsules placed by hand, crossing the picture's edges: each
 * pixel shows the last capsule whose segment lies within its radius of the
 * pixel's center, or the map.  Rounds of one capsule check the shape
 * itself; rounds of many, overlapping, check that later ones are on top. */
static int capsule_round(unsigned long long *seed, int n)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 1, .legend = 0 };
    ff_overlay ov;
    uint32_t w, h, x, y;
    uint8_t *rgb;
    int k, bad = 0;

    make_field(&f, 40, 30, 0);
    ff_overlay_init(&ov, &f.grid, 1);
    ov.shapes.shape = calloc((size_t)n, sizeof *ov.shapes.shape);
    ov.shapes.n = ov.shapes.cap = (size_t)n;
    for (k = 0; k < n; k++) {
        ff_shape *s = &ov.shapes.shape[k];
        s->ax = (double)(tu_next(seed) % 5000) / 100.0 - 5;
        s->ay = (double)(tu_next(seed) % 4000) / 100.0 - 5;
        s->bx = k % 5 == 4 ? s->ax : (double)(tu_next(seed) % 5000) / 100.0 - 5;
        s->by = k % 5 == 4 ? s->ay : (double)(tu_next(seed) % 4000) / 100.0 - 5;
        s->r = 0.3 + (double)(tu_next(seed) % 500) / 100.0;
        s->row0 = (int64_t)floor(fmin(s->ay, s->by) - s->r);
        s->row1 = (int64_t)floor(fmax(s->ay, s->by) + s->r);
        s->rgb[0] = (uint8_t)k;
        s->rgb[1] = 1;
        s->rgb[2] = 2;
    }
    rgb = draw_all(&f, &opt, &ov, &w, &h);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            unsigned want = 0xf5f5f5u;
            int tie = 0;
            for (k = 0; k < n; k++) {
                const ff_shape *s = &ov.shapes.shape[k];
                double d = seg_dist(x + 0.5, y + 0.5, s->ax, s->ay, s->bx, s->by);
                if (fabs(d - s->r) < 1e-6)
                    tie = 1;
                if (d <= s->r)
                    want = (unsigned)k << 16 | 0x102u;
            }
            if (!tie && at(rgb, w, x, y) != want && bad++ < 3)
                cr_expect_eq(at(rgb, w, x, y), want, "%d capsules: pixel %u,%u: %06x, want %06x",
                             n, x, y, at(rgb, w, x, y), want);
        }
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
    return bad;
}

Test(overlay, capsules_match_brute_force)
{
    unsigned long long seed = 7;
    int k, bad = 0;

    for (k = 0; k < 300; k++)
        bad += capsule_round(&seed, 1);
    for (k = 0; k < 5; k++)
        bad += capsule_round(&seed, 60);
    cr_expect_eq(bad, 0, "%d pixels differ", bad);
}

Test(overlay, later_overlays_on_top)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 10, .legend = 0 };
    ff_overlay ov;
    ff_error err;
    uint32_t w, h;
    uint8_t *rgb;
    FILE *a = tu_string_file("0 2.5\n5 2.5\n"), *b = tu_string_file("2.5 0\n2.5 5\n");

    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 10);
    cr_assert_eq(ff_overlay_read_path(&ov, a, "a", &err), FF_OK);
    cr_assert_eq(ff_overlay_read_path(&ov, b, "b", &err), FF_OK);
    rgb = draw_all(&f, &opt, &ov, &w, &h);
    /* The second path is violet, and crosses the first (red) at 25,25,
     * its casing cutting the red line. */
    cr_expect_eq(at(rgb, w, 25, 25), 0xaa3cffu);
    cr_expect_eq(at(rgb, w, 10, 25), 0xff2828u);
    cr_expect_eq(at(rgb, w, 25, 10), 0xaa3cffu);
    cr_expect_eq(at(rgb, w, 23, 25), 0x000000u, "the violet path's casing");
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
    fclose(a);
    fclose(b);
}

Test(overlay, far_points_and_bad_records)
{
    ff_field f;
    ff_overlay ov;
    ff_error err;
    FILE *in;

    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 4);
    in = tu_string_file("1 1\n1e300 2\n");
    cr_expect_eq(ff_overlay_read_path(&ov, in, "p.txt", &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.msg, "too far"), "%s", err.msg);
    fclose(in);
    in = tu_string_file("# points\n1 1\n2 x\n");
    cr_expect_eq(ff_overlay_read_points(&ov, in, "q.txt", &err), FF_EINPUT);
    cr_expect_str_eq(err.file, "q.txt");
    cr_expect_eq(err.line, 3);
    fclose(in);
    in = tu_string_file("1 2 3\n");
    cr_expect_eq(ff_overlay_read_path(&ov, in, "p.txt", &err), FF_EINPUT);
    cr_expect_eq(err.line, 1);
    fclose(in);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* ---- traces ---- */

/* Arrays, not pointers: Criterion runs each test in a new process. */
typedef struct {
    char text[64];
    long line, col;
    char words[24];
} bad_trace;

ParameterizedTestParameters(trace, malformed)
{
    static bad_trace cases[] = {
        { "0 1 2\n", 1, 0, "3 words" },
        { "# c\n0 1 2 3\n\n1 1 2 x\n", 4, 7, "'x' is not" },
        { "0 1.5 2 3\n", 1, 3, "not an integer" },
        { "0 nan 2 3\n", 1, 3, "not a finite" },
        { "tick 1 2 3\n", 1, 1, "tick 'tick'" },
        { "# tick id x y radius\n0 1 2 3 0\n", 2, 9, "must be > 0" },
        { "# tick id x y vx radius\n0 1 2 3 0.5 wide\n", 2, 13, "radius 'wide'" },
    };
    return cr_make_param_array(bad_trace, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_trace *c, trace, malformed)
{
    ff_field f;
    ff_overlay ov;
    ff_error err;
    FILE *in = tu_string_file(c->text);

    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 4);
    ff_error_clear(&err);
    cr_expect_eq(ff_overlay_read_trace(&ov, in, "t.txt", &err), FF_EINPUT, "%s", c->text);
    cr_expect_eq(err.line, c->line, "%s: line %ld", c->text, err.line);
    cr_expect_eq(err.col, c->col, "%s: col %ld", c->text, err.col);
    cr_expect(strstr(err.msg, c->words), "%s: '%s'", c->text, err.msg);
    fclose(in);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* ffsim's trace: a header naming the columns, a state word at the end. */
Test(trace, ffsim_columns_and_radius)
{
    const char *text =
        "# ffsim trace: tick id x y vx vy heading radius state\n"
        "# tick_dt 0.1 ticks 3 direction smooth agents 2\n"
        "0 7 1.5 1.5 0 0 0 0.5000 moving\n"
        "0 8 3.5 3.5 0 0 0 0.2500 moving\n"
        "1 7 2.5 1.5 1 0 0 0.5000 moving\n"
        "2 7 3.5 1.5 1 0 0 0.5000 arrived   # gone\n";
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 10, .legend = 0 };
    ff_overlay ov;
    ff_error err;
    uint32_t w, h;
    uint8_t *rgb;
    FILE *in = tu_string_file(text);
    unsigned c7, c8;

    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 10);
    cr_assert_eq(ff_overlay_read_trace(&ov, in, "t", &err), FF_OK, "%s", err.msg);
    fclose(in);
    rgb = draw_all(&f, &opt, &ov, &w, &h);
    /* Agent 7 ends at 35,15 with radius 5 pixels; agent 8 at 35,35, 2.5. */
    c7 = at(rgb, w, 35, 15);
    c8 = at(rgb, w, 35, 35);
    cr_expect_eq(c7, 0xff5aa0u, "agent 7 arrived: pink");
    cr_expect_eq(c8, 0x00ffffu, "agent 8 moving: cyan");
    cr_expect_eq(at(rgb, w, 35 + 4, 15), c7, "inside agent 7's disc");
    cr_expect_eq(at(rgb, w, 35 + 7, 15), 0xf5f5f5u, "outside disc and ring: the map");
    cr_expect_eq(at(rgb, w, 35 + 2, 35), 0x000000u, "agent 8's ring, radius 2.5 + 1");
    cr_expect_eq(at(rgb, w, 35 + 1, 35), c8, "inside agent 8's disc");
    /* The trail of 7 runs west from its disc, each piece in the state at
     * its end: moving, then arrived. */
    cr_expect_eq(at(rgb, w, 22, 15), 0x00ffffu);
    cr_expect_eq(at(rgb, w, 28, 15), 0xff5aa0u);
    cr_expect_eq(ov.states_seen, (1u << FF_TRACE_MOVING) | (1u << FF_TRACE_ARRIVED));
    cr_expect_eq(at(rgb, w, 22, 17), 0xf5f5f5u, "the trail is thin");
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* Without a header, every agent gets 0.4 cell; the radius is not taken
 * from an unnamed fifth column. */
Test(trace, default_radius_and_extra_columns)
{
    ff_field f;
    ff_overlay ov;
    ff_error err;
    FILE *in = tu_string_file("0 1 2.5 2.5 99 whatever\n");

    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 10);
    cr_assert_eq(ff_overlay_read_trace(&ov, in, "t", &err), FF_OK, "%s", err.msg);
    fclose(in);
    /* A ring and a disc, no trail: the agent never moved. */
    cr_assert_eq(ov.shapes.n, 2);
    cr_expect_float_eq(ov.shapes.shape[1].r, 4.0, 1e-12);
    cr_expect_float_eq(ov.shapes.shape[1].ax, 25.0, 1e-12);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* A long replay of tiny moves keeps only what can be seen: trail points
 * half a pixel apart at most, whatever the number of lines. */
Test(trace, tiny_moves_are_merged)
{
    ff_field f;
    ff_overlay ov;
    ff_error err;
    char *text = malloc(200000), *p = text;
    FILE *in;
    int k;

    for (k = 0; k < 5000; k++)  /* 0.0008 cells a tick: 4 cells in all */
        p += sprintf(p, "%d 3 %.4f 1.5\n", k, 0.5 + k * 0.0008);
    in = tu_string_file(text);
    make_field(&f, 5, 5, 0);
    ff_overlay_init(&ov, &f.grid, 1);
    cr_assert_eq(ff_overlay_read_trace(&ov, in, "t", &err), FF_OK, "%s", err.msg);
    /* 4 pixels of trail at scale 1: about 8 half-pixel segments + 2 disc. */
    cr_expect_leq(ov.shapes.n, 12, "%zu shapes", ov.shapes.n);
    cr_expect_geq(ov.shapes.n, 9);
    cr_expect_float_eq(ov.shapes.shape[ov.shapes.n - 1].ax, 0.5 + 4999 * 0.0008, 1e-9,
                       "the disc at the last position");
    fclose(in);
    free(text);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* ---- legend ---- */

/* Draw f and keep the drawing's key: every row in one buffer. */
static uint8_t *draw_key(const ff_field *f, const ff_draw_options *opt, const ff_overlay *ov,
                         ff_legend *lg, uint32_t *w, uint32_t *h)
{
    ff_drawing d;
    ff_error err;
    uint8_t *rgb;
    uint32_t y;

    cr_assert_eq(ff_draw_begin(&d, f, opt, ov, &err), FF_OK, "%s", err.msg);
    *w = d.width;
    *h = d.height;
    *lg = d.legend;
    rgb = malloc((size_t)d.width * d.height * 3);
    cr_assert_not_null(rgb);
    for (y = 0; y < d.height; y++)
        ff_draw_row(&d, rgb + (size_t)y * d.width * 3);
    ff_draw_end(&d);
    return rgb;
}

/* The centre pixel of the swatch labelled label. */
static unsigned swatch(const uint8_t *rgb, uint32_t w, const ff_legend *lg, const char *label)
{
    int i;

    for (i = 0; i < lg->nitems; i++)
        if (!strcmp(lg->item[i].label, label))
            return at(rgb, w, lg->item[i].x + lg->swatch / 2, lg->item[i].y + lg->swatch / 2);
    cr_assert(0, "no swatch '%s'", label);
    return 0;
}

/* Below the arrow scale, the key shows a swatch per direction drawn, in
 * the colours of the cells. */
Test(legend, swatches_for_direction_below_arrow_scale)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DIRECTION, .scale = 2, .legend = 1 };
    ff_legend lg;
    uint32_t w, h;
    uint8_t *rgb;

    make_field(&f, 10, 2, 1);
    f.direction = malloc(20);
    memset(f.direction, FF_DIR_W, 20);
    f.direction[0] = f.direction[10] = FF_DIR_GOAL;
    f.direction[5] = FF_DIR_N;
    f.direction[6] = FF_DIR_NONE;
    f.distance[6] = INFINITY;
    rgb = draw_key(&f, &opt, NULL, &lg, &w, &h);
    cr_expect_eq(lg.bar, 0, "no bar: the colours are directions");
    cr_expect_eq(lg.nitems, 3, "N, W, unreachable");
    cr_expect_eq(swatch(rgb, w, &lg, "W"), at(rgb, w, 4, 0));
    cr_expect_eq(swatch(rgb, w, &lg, "W"), 0xdc2828u);
    cr_expect_eq(swatch(rgb, w, &lg, "N"), at(rgb, w, 10, 0), "N is blue");
    cr_expect_eq(swatch(rgb, w, &lg, "unreachable"), at(rgb, w, 12, 0));
    /* The map part ends at x 20: paper beyond it. */
    cr_expect_eq(at(rgb, w, 30, 1), 0xffffffu);
    free(rgb);
    ff_field_free(&f);
}

/* Give f (made with distances) an any-angle field's vector channel, each
 * cell's vector at angle deg[i] degrees from east, y south, or zero where
 * deg[i] is NAN. */
static void add_vectors(ff_field *f, const double *deg)
{
    size_t n = (size_t)f->grid.w * (size_t)f->grid.h, i;
    float *v = malloc(2 * n * sizeof *v);

    cr_assert_not_null(v);
    for (i = 0; i < n; i++) {
        v[2 * i] = isnan(deg[i]) ? 0.0f : (float)cos(deg[i] * 3.14159265358979323846 / 180);
        v[2 * i + 1] = isnan(deg[i]) ? 0.0f : (float)sin(deg[i] * 3.14159265358979323846 / 180);
    }
    f->any_angle = 1;
    f->extra = calloc(1, sizeof *f->extra);
    cr_assert_not_null(f->extra);
    strcpy(f->extra[0].name, "vector");
    f->extra[0].type = FF_T_F32;
    f->extra[0].lanes = 2;
    f->extra[0].data = v;
    f->nextra = 1;
}

/* An any-angle field's direction layer draws each cell's arrow along its
 * own vector: a pixel 0.3 cell from the centre along the vector is the
 * arrow's, one as far along the nearest of the eight directions is not
 * (the head is narrower there than its 0.15 cell off the vector's line).
 * A zero vector (the goal) has none; below the arrow scale a cell takes
 * the colour of the nearest direction, and the key names the vectors. */
Test(layer, any_angle_vectors_as_arrows)
{
    static const double deg[3] = { 30, 120, NAN };
    ff_draw_options opt = { .layer = FF_LAYER_DIRECTION, .scale = 40, .legend = 1 };
    ff_field f;
    ff_error err;
    ff_legend lg;
    uint32_t w, h;
    uint8_t *rgb;

    make_field(&f, 3, 1, 1);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_DIRECTION, "s", &err), FF_EINPUT);
    add_vectors(&f, deg);
    cr_expect_eq(ff_layer_richest(&f), FF_LAYER_DIRECTION);
    cr_expect_eq(ff_layer_check(&f, FF_LAYER_DIRECTION, "s", &err), FF_OK);
    rgb = draw_key(&f, &opt, NULL, &lg, &w, &h);
    cr_expect(strstr(lg.title, "vectors"), "%s", lg.title);
    for (int c = 0; c < 2; c++) {
        double a = deg[c] * 3.14159265358979323846 / 180, cx = 40 * c + 20, cy = 20;
        double ex = c == 0 ? 1 : -FF_SQRT2 / 2, ey = c == 0 ? 0 : FF_SQRT2 / 2;
        cr_expect_eq(at(rgb, w, (uint32_t)(cx + 12 * cos(a)), (uint32_t)(cy + 12 * sin(a))),
                     0x000000u, "cell %d: on its vector", c);
        cr_expect_neq(at(rgb, w, (uint32_t)(cx + 12 * ex), (uint32_t)(cy + 12 * ey)), 0x000000u,
                      "cell %d: off its vector, toward the nearest direction", c);
        cr_expect_eq(at(rgb, w, (uint32_t)(cx - 12 * cos(a)), (uint32_t)(cy - 12 * sin(a))),
                     0x000000u, "cell %d: the shaft behind the centre", c);
    }
    for (uint32_t y = 0; y < 40; y++)
        for (uint32_t x = 80; x < 120; x++)
            cr_expect_neq(at(rgb, w, x, y), 0x000000u, "the goal's zero vector: no arrow");
    free(rgb);

    opt.scale = 2;
    rgb = draw_key(&f, &opt, NULL, &lg, &w, &h);
    cr_expect_eq(lg.nitems, 2, "SE and SW");
    cr_expect_eq(swatch(rgb, w, &lg, "SE"), at(rgb, w, 0, 0), "30 degrees: south-east");
    cr_expect_eq(swatch(rgb, w, &lg, "SW"), at(rgb, w, 2, 0), "120 degrees: south-west");
    free(rgb);
    ff_field_free(&f);
}

/* The key's colours are the drawn ones: the bar's ends are the colours of
 * the nearest and farthest cells, every tick lies in the range, and the
 * swatches of wall, unreachable, goal, path, points and agent states are
 * the colours of those marks on the map. */
Test(legend, colours_match_the_picture)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = 10, .legend = 1 };
    ff_overlay ov;
    ff_legend lg;
    ff_error err;
    uint32_t w, h;
    uint8_t *rgb;
    size_t goal = 2;
    FILE *path = tu_string_file("0.5 3.5\n5.5 3.5\n");
    FILE *pts = tu_string_file("7.5 0.5\n");
    FILE *trace = tu_string_file("# tick id x y radius state\n"
                                 "0 1 6.5 2.5 0.3 moving\n0 2 8.5 2.5 0.3 stuck\n");
    int i;

    make_field(&f, 10, 5, 1);
    f.grid.cost[1 * 10 + 4] = INFINITY;
    f.distance[1 * 10 + 4] = INFINITY;
    f.distance[4 * 10 + 9] = INFINITY;
    f.grid.goals = malloc(sizeof *f.grid.goals);
    f.grid.goals[0] = goal;
    f.grid.ngoals = 1;
    ff_overlay_init(&ov, &f.grid, 10);
    cr_assert_eq(ff_overlay_read_path(&ov, path, "p", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_overlay_read_points(&ov, pts, "m", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_overlay_read_trace(&ov, trace, "t", &err), FF_OK, "%s", err.msg);
    fclose(path);
    fclose(pts);
    fclose(trace);
    rgb = draw_key(&f, &opt, &ov, &lg, &w, &h);
    cr_assert_eq(lg.bar, 1);
    cr_expect_float_eq(lg.low, 0, 1e-12);
    cr_expect_float_eq(lg.high, 9, 1e-12);
    cr_expect_eq(at(rgb, w, lg.bar_x0, lg.bar_y0), at(rgb, w, 5, 5), "low end: column 0");
    cr_expect_eq(at(rgb, w, lg.bar_x1 - 1, lg.bar_y0), at(rgb, w, 95, 5), "high end: column 9");
    cr_expect_gt(lg.nticks, 1);
    for (i = 0; i < lg.nticks; i++)
        cr_expect(lg.tick[i] >= lg.low - 1e-9 && lg.tick[i] <= lg.high + 1e-9);
    cr_expect_eq(swatch(rgb, w, &lg, "wall"), at(rgb, w, 45, 15));
    cr_expect_eq(swatch(rgb, w, &lg, "unreachable"), at(rgb, w, 95, 45));
    cr_expect_eq(swatch(rgb, w, &lg, "goal"), 0xff00ffu);
    cr_expect_eq(at(rgb, w, 25 + 3, 5 - 1), 0xff00ffu, "the goal's ring, 0.28 to 0.42 cell");
    cr_expect_eq(swatch(rgb, w, &lg, "path"), at(rgb, w, 30, 35));
    cr_expect_eq(swatch(rgb, w, &lg, "points"), at(rgb, w, 75, 5));
    cr_expect_eq(swatch(rgb, w, &lg, "moving"), at(rgb, w, 65, 25));
    cr_expect_eq(swatch(rgb, w, &lg, "stuck"), at(rgb, w, 85, 25));
    cr_expect_neq(swatch(rgb, w, &lg, "moving"), swatch(rgb, w, &lg, "stuck"));
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* Goals above paths and traces, points above goals. */
Test(legend, goals_above_overlays_points_above_goals)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 20 };
    ff_overlay ov;
    ff_error err;
    uint32_t w, h;
    uint8_t *rgb;
    FILE *path = tu_string_file("0.5 0.5\n2.5 0.5\n");
    FILE *pts = tu_string_file("1.5 0.5\n");

    make_field(&f, 3, 1, 0);
    f.grid.goals = malloc(sizeof *f.grid.goals);
    f.grid.goals[0] = 1;
    f.grid.ngoals = 1;
    ff_overlay_init(&ov, &f.grid, 20);
    cr_assert_eq(ff_overlay_read_path(&ov, path, "p", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_overlay_read_points(&ov, pts, "m", &err), FF_OK, "%s", err.msg);
    fclose(path);
    fclose(pts);
    rgb = draw_all(&f, &opt, &ov, &w, &h);
    /* The goal's ring (5.6 to 8.4 pixels from 30,10) over the red path. */
    cr_expect_eq(at(rgb, w, 30 + 7, 10), 0xff00ffu);
    cr_expect_eq(at(rgb, w, 30 - 7, 10), 0xff00ffu);
    /* The marker (4.4 pixels and a ring of 1) in the ring's hole. */
    cr_expect_eq(at(rgb, w, 30, 10), 0x00ffffu);
    cr_expect_eq(at(rgb, w, 30 + 4, 10), 0x000000u, "its ring");
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* The key's dots grow with the picture: 1 pixel, 3 from 900 wide. */
Test(legend, glyph_size_grows_with_the_picture)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = 10, .legend = 1 };
    ff_error err;
    uint32_t w, h;

    make_field(&f, 100, 10, 1);
    cr_assert_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_OK);
    cr_expect_eq(w, 1000);
    /* margin 3, title 9, gap 3, bar 8, ticks 2, gap 1, labels 9, margin 3 */
    cr_expect_eq(h, 100 + 3 * 38);
    opt.scale = 1;
    cr_assert_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_OK);
    cr_expect_eq(h, 10 + 38);
    opt.legend = 0;
    cr_assert_eq(ff_draw_size(&f, &opt, NULL, &w, &h, &err), FF_OK);
    cr_expect_eq(w, 100);
    cr_expect_eq(h, 10);
    ff_field_free(&f);
}

/* --grid: a strip below and one right of the map, ticks under cells 0,
 * n, 2n, ... */
Test(legend, grid_strips_and_ticks)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_COST, .scale = 10, .grid = 5 };
    uint32_t w, h;
    uint8_t *rgb;

    make_field(&f, 20, 12, 0);
    rgb = draw_all(&f, &opt, NULL, &w, &h);
    /* 15 dots below; right: tick 2, gap 3, two digits (11), margin 3. */
    cr_expect_eq(h, 120 + 15);
    cr_expect_eq(w, 200 + 2 + 3 + 11 + 3);
    cr_expect_eq(at(rgb, w, 5, 120), 0x000000u, "tick under cell 0");
    cr_expect_eq(at(rgb, w, 55, 121), 0x000000u, "tick under cell 5");
    cr_expect_eq(at(rgb, w, 35, 121), 0xffffffu, "no tick under cell 3");
    cr_expect_eq(at(rgb, w, 201, 55), 0x000000u, "tick beside row 5");
    cr_expect_eq(at(rgb, w, 201, 45), 0xffffffu, "none beside row 4");
    free(rgb);
    ff_field_free(&f);
}

/* The density layer: agents per cell averaged over the ticks kept, counted
 * by hand; the densest cell takes the ramp's dark end, an empty open cell
 * the open grey, and the trace itself is not drawn. */
Test(density, agents_per_cell_over_the_ticks)
{
    const char *text =
        "# ffsim trace: tick id x y vx vy heading radius state\n"
        "0 1 0.5 0.5 0 0 0 0.3 moving\n"
        "0 2 0.6 0.4 0 0 0 0.3 moving\n"
        "0 3 2.5 0.5 0 0 0 0.3 moving\n"
        "1 1 0.5 0.5 0 0 0 0.3 waiting-field\n"
        "1 2 1.5 0.5 0 0 0 0.3 moving\n"
        "1 3 9.5 9.5 0 0 0 0.3 moving\n" /* off the map: not counted */
        "2 1 0.5 0.5 0 0 0 0.3 stuck\n"
        "3 1 0.5 0.5 0 0 0 0.3 stuck\n";
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DENSITY, .scale = 4 };
    ff_overlay ov;
    ff_error err;
    uint32_t w, h;
    uint8_t *rgb;
    FILE *in = tu_string_file(text);

    make_field(&f, 4, 2, 0);
    ff_overlay_init(&ov, &f.grid, 4);
    cr_assert_eq(ff_overlay_want_density(&ov, &err), FF_OK);
    cr_assert_eq(ff_overlay_read_trace(&ov, in, "t", &err), FF_OK, "%s", err.msg);
    fclose(in);
    cr_expect_eq(ov.density_ticks, 4);
    cr_expect_float_eq(ff_overlay_density(&ov, 0), 5 / 4.0, 1e-12);
    cr_expect_float_eq(ff_overlay_density(&ov, 1), 1 / 4.0, 1e-12);
    cr_expect_float_eq(ff_overlay_density(&ov, 2), 1 / 4.0, 1e-12);
    cr_expect_float_eq(ff_overlay_density(&ov, 3), 0, 1e-12);
    cr_expect_eq(ov.shapes.n, 0, "a counted trace is not drawn");
    opt.density = &ov;
    rgb = draw_all(&f, &opt, &ov, &w, &h);
    cr_expect_eq(at(rgb, w, 1, 1), 0x360463u, "the densest cell: the ramp's dark end");
    cr_expect_eq(at(rgb, w, 5, 1), at(rgb, w, 9, 1), "equal densities, equal colours");
    cr_expect_neq(at(rgb, w, 5, 1), 0x360463u);
    cr_expect_eq(at(rgb, w, 13, 1), 0xebebebu, "an empty open cell: the open grey");
    free(rgb);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* --every: the first tick of every N is kept, the others skipped, also
 * for the density's tick count. */
Test(density, every_keeps_the_first_of_n_ticks)
{
    const char *text = "0 1 0.5 0.5\n1 1 1.5 0.5\n1 2 1.5 0.5\n2 1 2.5 0.5\n3 1 3.5 0.5\n"
                       "4 1 0.5 1.5\n";
    ff_field f;
    ff_overlay ov;
    ff_error err;
    FILE *in = tu_string_file(text);

    make_field(&f, 4, 2, 0);
    ff_overlay_init(&ov, &f.grid, 4);
    ov.every = 2;
    cr_assert_eq(ff_overlay_want_density(&ov, &err), FF_OK);
    cr_assert_eq(ff_overlay_read_trace(&ov, in, "t", &err), FF_OK, "%s", err.msg);
    fclose(in);
    cr_expect_eq(ov.density_ticks, 3, "ticks 0, 2 and 4");
    cr_expect_float_eq(ff_overlay_density(&ov, 0), 1 / 3.0, 1e-12);
    cr_expect_float_eq(ff_overlay_density(&ov, 1), 0, 1e-12, "tick 1 skipped");
    cr_expect_float_eq(ff_overlay_density(&ov, 2), 1 / 3.0, 1e-12);
    cr_expect_float_eq(ff_overlay_density(&ov, 3), 0, 1e-12, "tick 3 skipped");
    cr_expect_float_eq(ff_overlay_density(&ov, 4), 1 / 3.0, 1e-12);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}

/* ---- the overlay palette stands out on every layer ---- */

static unsigned packed(const uint8_t *rgb)
{
    return (unsigned)rgb[0] << 16 | (unsigned)rgb[1] << 8 | rgb[2];
}

/* WCAG 2 contrast ratio of two packed sRGB colours. */
static double contrast(unsigned a, unsigned b)
{
    double la = luminance(a), lb = luminance(b);
    return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

/* Distance in Oklab (Ottosson 2020, the published M1 and M2 matrices). */
static double oklab_distance(unsigned a, unsigned b)
{
    double lab[2][3];
    unsigned c[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        double v[3], l, m, s;
        for (int k = 0; k < 3; k++) {
            double t = ((c[i] >> (16 - 8 * k)) & 255) / 255.0;
            v[k] = t <= 0.04045 ? t / 12.92 : pow((t + 0.055) / 1.055, 2.4);
        }
        l = cbrt(0.4122214708 * v[0] + 0.5363325363 * v[1] + 0.0514459929 * v[2]);
        m = cbrt(0.2119034982 * v[0] + 0.6806995451 * v[1] + 0.1073969566 * v[2]);
        s = cbrt(0.0883024619 * v[0] + 0.2817188376 * v[1] + 0.6299787005 * v[2]);
        lab[i][0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
        lab[i][1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
        lab[i][2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
    }
    return sqrt(pow(lab[0][0] - lab[1][0], 2) + pow(lab[0][1] - lab[1][1], 2) +
                pow(lab[0][2] - lab[1][2], 2));
}

/* Each overlay colour (paths, points, agent states): contrast 3 or more
 * with the ramp's dark end, 4.5 or more with its black casing (which has
 * 17 with the light end), and 0.15 or more in Oklab from every ramp stop,
 * every grey and every terrain tint a layer paints. */
Test(palette, overlay_colours_stand_out_on_every_layer)
{
    const uint8_t *colour[FF_PALETTE_SIZE * 2 + FF_TRACE_STATES];
    unsigned ground[FF_RAMP_STOPS + 9];
    size_t n = 0, ng = 0, i, j;
    uint8_t grey[3];

    for (i = 0; i < FF_PALETTE_SIZE; i++) {
        colour[n++] = ff_path_colour[i];
        colour[n++] = ff_points_colour[i];
    }
    for (i = 0; i < FF_TRACE_STATES; i++)
        colour[n++] = ff_state_colour[i];
    for (i = 0; i < FF_RAMP_STOPS; i++)
        ground[ng++] = packed(ff_ramp[i]);
    ground[ng++] = packed(ff_colour_wall);
    ground[ng++] = packed(ff_colour_open);
    ground[ng++] = packed(ff_colour_unreachable);
    ff_cost_grey(0, grey);
    ground[ng++] = packed(grey);
    ff_cost_grey(1, grey);
    ground[ng++] = packed(grey);
    for (i = 0; i < 4; i++)
        ground[ng++] = packed(ff_class_colour[i]);
    cr_expect_geq(contrast(0, packed(ff_ramp[FF_RAMP_STOPS - 1])), 17, "the casing on the light end");
    for (i = 0; i < n; i++) {
        unsigned c = packed(colour[i]);
        cr_expect_geq(contrast(c, packed(ff_ramp[0])), 3.0, "%06x on the dark end: %.2f", c,
                      contrast(c, packed(ff_ramp[0])));
        cr_expect_geq(contrast(c, 0), 4.5, "%06x in its casing: %.2f", c, contrast(c, 0));
        for (j = 0; j < ng; j++)
            cr_expect_geq(oklab_distance(c, ground[j]), 0.15, "%06x near %06x: %.3f", c, ground[j],
                          oklab_distance(c, ground[j]));
    }
    /* The states differ from one another. */
    for (i = 0; i < FF_TRACE_STATES; i++)
        for (j = i + 1; j < FF_TRACE_STATES; j++)
            cr_expect_geq(oklab_distance(packed(ff_state_colour[i]), packed(ff_state_colour[j])), 0.1);
}
