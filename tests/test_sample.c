/* test_sample.c - the smoothed and raw directions of lib/field/sample.c against
 * hand-worked blends (man 1 ffquery, "Smoothing"), and the corridor
 * with a 90-degree turn. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "direction.h"
#include "mapread.h"
#include "sample.h"
#include "search.h"

#define S2 0.70710678118654752440 /* 1/sqrt(2): a diagonal's unit components */
#define TOL 1e-9
#define PI 3.14159265358979323846

enum { N = FF_DIR_N, E = FF_DIR_E, S = FF_DIR_S, W = FF_DIR_W, NE = FF_DIR_NE,
       SE = FF_DIR_SE, SW = FF_DIR_SW, NW = FF_DIR_NW, GOAL = FF_DIR_GOAL,
       NONE = FF_DIR_NONE };

/* A w x h grid, every cell open with cost 1, and a direction array the test
 * fills by hand (the smoothing reads only these). */
typedef struct {
    ff_grid g;
    uint8_t dir[64];
} hand_field;

static void hand_init(hand_field *f, int w, int h, uint8_t fill)
{
    ff_error err;
    size_t i;

    cr_assert(w * h <= 64);
    ff_grid_init(&f->g);
    cr_assert_eq(ff_grid_alloc(&f->g, w, h, 0, "hand", &err), FF_OK);
    for (i = 0; i < (size_t)(w * h); i++) {
        f->g.cost[i] = 1;
        f->dir[i] = fill;
    }
}

static void hand_set(hand_field *f, int x, int y, uint8_t d)
{
    f->dir[y * f->g.w + x] = d;
}

static void hand_wall(hand_field *f, int x, int y)
{
    f->g.cost[y * f->g.w + x] = INFINITY;
    f->dir[y * f->g.w + x] = NONE;
}

static void expect_smooth(hand_field *f, double px, double py, double ex, double ey)
{
    double dx = 7, dy = 7;
    int got = ff_sample_smooth(&f->g, f->dir, px, py, &dx, &dy);
    cr_expect(fabs(dx - ex) < TOL && fabs(dy - ey) < TOL,
              "smooth at %g %g: got %.12f %.12f, want %.12f %.12f", px, py, dx, dy, ex, ey);
    cr_expect_eq(got, ex != 0 || ey != 0, "smooth at %g %g: returned %d", px, py, got);
}

static void expect_raw(hand_field *f, double px, double py, int code, double ex, double ey)
{
    double dx = 7, dy = 7;
    int got = ff_sample_raw(&f->g, f->dir, px, py, &dx, &dy);
    cr_expect_eq(got, code, "raw at %g %g: code %d, want %d", px, py, got, code);
    cr_expect(fabs(dx - ex) < TOL && fabs(dy - ey) < TOL,
              "raw at %g %g: got %.12f %.12f, want %g %g", px, py, dx, dy, ex, ey);
}

/* The same rule over an any-angle field's vectors (ff_sample_smooth_vector):
 * at the corner (2,1) of four cells of vectors (1,0), (0.6,0.8), 0 0 (a
 * goal: skipped) and (0,1), each weighs 1/4: (1.6, 1.8) / 4, normalised
 * (0.664364, 0.747409).  On a cell center, that cell's own vector; where
 * every sample is 0 0, the raw vector of the cell, here 0 0. */
Test(sample, vectors_blend_by_the_same_rule)
{
    hand_field f;
    float vec[2 * 12] = { 0 };
    double dx, dy, len = hypot(1.6, 1.8);

    hand_init(&f, 4, 3, E);
    vec[2 * 1] = 1;                        /* cell 1,0 */
    vec[2 * 2] = 0.6f, vec[2 * 2 + 1] = 0.8f; /* cell 2,0 */
    vec[2 * 6 + 1] = 1;                    /* cell 2,1; cell 1,1 is 0 0 */
    cr_assert_eq(ff_sample_smooth_vector(&f.g, vec, 2.0, 1.0, &dx, &dy), 1);
    cr_expect(fabs(dx - 1.6 / len) < 1e-7 && fabs(dy - 1.8 / len) < 1e-7, "%.9f %.9f", dx, dy);
    cr_assert_eq(ff_sample_smooth_vector(&f.g, vec, 2.5, 0.5, &dx, &dy), 1);
    cr_expect(fabs(dx - 0.6) < 1e-7 && fabs(dy - 0.8) < 1e-7, "%.9f %.9f", dx, dy);
    cr_assert_eq(ff_sample_raw_vector(&f.g, vec, 2.9, 0.1, &dx, &dy), 1);
    cr_expect(fabs(dx - 0.6) < 1e-7 && fabs(dy - 0.8) < 1e-7);
    cr_assert_eq(ff_sample_smooth_vector(&f.g, vec, 1.5, 1.5, &dx, &dy), 0);
    cr_expect(dx == 0 && dy == 0);
    cr_assert_eq(ff_sample_raw_vector(&f.g, vec, -1, 0.5, &dx, &dy), 0);
    ff_grid_free(&f.g);
}

/* On a cell center the blend has one sample at weight 1: that cell's
 * direction, whatever its neighbours say. */
Test(sample, cell_center)
{
    hand_field f;
    hand_init(&f, 4, 3, E);
    hand_set(&f, 2, 1, NE);
    expect_smooth(&f, 2.5, 1.5, S2, -S2);
    expect_raw(&f, 2.5, 1.5, NE, S2, -S2);
    hand_set(&f, 2, 1, SW);
    expect_smooth(&f, 2.5, 1.5, -S2, S2);
    ff_grid_free(&f.g);
}

/* At the corner (2,1) of four cells, each weighs 1/4.  Samples E, E, E, NE:
 * 3/4 (1,0) + 1/4 (s,-s), s = 1/sqrt2, = (0.926777, -0.176777), normalised
 * (0.982290, -0.187366).  Had the diagonal not been normalised first, (1,-1)
 * would weigh sqrt2 and give (0.970142, -0.242536). */
Test(sample, cell_corner)
{
    hand_field f;
    hand_init(&f, 4, 3, E);
    hand_set(&f, 2, 1, NE);
    expect_smooth(&f, 2.0, 1.0, 0.982290257781, -0.187365550379);
    /* E, N above; E, N below: (1/2, -1/2) normalised. */
    hand_set(&f, 1, 0, E);
    hand_set(&f, 2, 0, N);
    hand_set(&f, 1, 1, E);
    hand_set(&f, 2, 1, N);
    expect_smooth(&f, 2.0, 1.0, S2, -S2);
    ff_grid_free(&f.g);
}

/* On the border x = 2 of cells (1,1) and (2,1), at their centers' height:
 * tx = 1/2, ty = 0, so the row below weighs nothing.  E and S give (s, s).
 * A quarter of the way on, x = 2.25: 1/4 E + 3/4 S = (0.316228, 0.948683). */
Test(sample, cell_border)
{
    hand_field f;
    hand_init(&f, 4, 3, N);
    hand_set(&f, 1, 1, E);
    hand_set(&f, 2, 1, S);
    expect_smooth(&f, 2.0, 1.5, S2, S2);
    expect_smooth(&f, 2.25, 1.5, 0.316227766017, 0.948683298051);
    /* the raw direction jumps at the border: floor puts x = 2 in cell 2 */
    expect_raw(&f, 1.999, 1.5, E, 1, 0);
    expect_raw(&f, 2.0, 1.5, S, 0, 1);
    ff_grid_free(&f.g);
}

/* Next to a wall: at (2.2, 1.1), sx = 1.7, sy = 0.6, so tx = 0.7, ty = 0.6:
 * weights (1,0) 0.12 [a wall: skipped], (2,0) 0.28 E, (1,1) 0.18 N,
 * (2,1) 0.42 NE.  Sum (0.28 + 0.42 s, -(0.18 + 0.42 s)) normalised. */
Test(sample, next_to_wall)
{
    hand_field f;
    hand_init(&f, 4, 3, S);
    hand_wall(&f, 1, 0);
    hand_set(&f, 2, 0, E);
    hand_set(&f, 1, 1, N);
    hand_set(&f, 2, 1, NE);
    expect_smooth(&f, 2.2, 1.1, 0.770735294947, -0.637155479552);
    expect_raw(&f, 1.5, 0.5, NONE, 0, 0);
    /* A goal sample has no direction either: replace the wall by a goal. */
    hand_set(&f, 1, 0, GOAL);
    f.g.cost[1] = 1;
    expect_smooth(&f, 2.2, 1.1, 0.770735294947, -0.637155479552);
    expect_raw(&f, 1.5, 0.5, GOAL, 0, 0);
    ff_grid_free(&f.g);
}

/* Next to the map edge: at (0.9, 0.25), sx = 0.4, sy = -0.25, so x0 = 0,
 * tx = 0.4, y0 = -1, ty = 0.75.  Row -1 is outside; (0,0) weighs 0.6 * 0.75
 * = 0.45 (E), (1,0) 0.4 * 0.75 = 0.3 (S): (0.45, 0.3) normalised.  At the
 * far corner (3.9, 2.9) of a 4x3 map only (3,2) is inside: its direction. */
Test(sample, next_to_map_edge)
{
    hand_field f;
    hand_init(&f, 4, 3, N);
    hand_set(&f, 0, 0, E);
    hand_set(&f, 1, 0, S);
    hand_set(&f, 3, 2, W);
    expect_smooth(&f, 0.9, 0.25, 0.832050294338, 0.554700196225);
    expect_smooth(&f, 3.9, 2.9, -1, 0);
    expect_raw(&f, 3.9, 2.9, W, -1, 0);
    expect_raw(&f, 4.0, 2.9, NONE, 0, 0);
    expect_raw(&f, 3.9, 3.0, NONE, 0, 0);
    ff_grid_free(&f.g);
}

/* Negative coordinates take floor, never truncation.  At (-0.2, 0.5),
 * outside the map: sx = -0.7, so x0 = -1, tx = 0.3; sy = 0.  Only (0,0)
 * (E) is inside, at weight 0.3: E.  Truncation would make x0 = 0, tx = -0.7
 * and blend 1.7 E - 0.7 N = (0.924678, 0.380750). */
Test(sample, negative_coordinates)
{
    hand_field f;
    long long x, y;
    hand_init(&f, 4, 3, S);
    hand_set(&f, 0, 0, E);
    hand_set(&f, 1, 0, N);
    expect_smooth(&f, -0.2, 0.5, 1, 0);
    expect_raw(&f, -0.2, 0.5, NONE, 0, 0);
    cr_expect_eq(ff_world_to_cell(&f.g, -0.2, 0.5, &x, &y), 0);
    cr_expect(x == -1 && y == 0, "cell of -0.2 0.5: %lld %lld", x, y);
    cr_expect_eq(ff_world_to_cell(&f.g, -1.0, -2.5, &x, &y), 0);
    cr_expect(x == -1 && y == -3, "cell of -1 -2.5: %lld %lld", x, y);
    ff_grid_free(&f.g);
}

/* Negative world positions inside the map: origin (-3, -2).  World
 * (-2.3, -1.9) is (0.7, 0.1) in cells: sx = 0.2, sy = -0.4, so y0 = -1,
 * ty = 0.6 (truncation: y0 = 0, ty = -0.4).  (0,0) S weighs 0.8 * 0.6 =
 * 0.48, (1,0) E 0.2 * 0.6 = 0.12: (0.12, 0.48) normalised. */
Test(sample, negative_origin)
{
    hand_field f;
    long long x, y;
    hand_init(&f, 4, 3, N);
    f.g.origin_x = -3;
    f.g.origin_y = -2;
    hand_set(&f, 0, 0, S);
    hand_set(&f, 1, 0, E);
    expect_smooth(&f, -2.3, -1.9, 0.242535625036, 0.970142500145);
    expect_raw(&f, -2.3, -1.9, S, 0, 1);
    expect_raw(&f, -3.1, -1.9, NONE, 0, 0);
    cr_expect_eq(ff_world_to_cell(&f.g, -2.3, -1.9, &x, &y), 1);
    cr_expect(x == 0 && y == 0);
    ff_grid_free(&f.g);
}

/* Opposite directions cancel: E at (1,1) and W at (2,1), on their border:
 * 1/2 E + 1/2 W = 0, so the answer is the direction of the cell the
 * position lies in, (2,1): W.  A little off the border, 0.51 E + 0.49 W =
 * (0.02, 0) is long enough: E. */
Test(sample, opposite_directions_cancel)
{
    hand_field f;
    hand_init(&f, 4, 3, N);
    hand_set(&f, 1, 1, E);
    hand_set(&f, 2, 1, W);
    expect_smooth(&f, 2.0, 1.5, -1, 0);
    expect_smooth(&f, 1.99, 1.5, 1, 0);
    ff_grid_free(&f.g);
}

/* The threshold: on the border x = 2 (tx = 1/2), N at (1,1) and S at (2,1)
 * cancel; E at (1,2) weighs ty/2 and the goal (2,2) nothing.  The sum is
 * (ty/2, 0), squared length ty^2/4: below 1e-6 exactly when ty < 0.002.
 * Then the answer is the cell the position is in, (2,1): S. */
Test(sample, cancel_threshold)
{
    hand_field f;
    hand_init(&f, 4, 3, W);
    hand_set(&f, 1, 1, N);
    hand_set(&f, 2, 1, S);
    hand_set(&f, 1, 2, E);
    hand_set(&f, 2, 2, GOAL);
    expect_smooth(&f, 2.0, 1.5019, 0, 1);
    expect_smooth(&f, 2.0, 1.5021, 1, 0);
    ff_grid_free(&f.g);
}

/* Cancelling where the position's own cell has no direction: E at (1,1)
 * and W at (2,2) weigh the same when tx + ty = 1; (2,1) is a goal, (1,2) a
 * wall.  At (2.1, 1.9): tx = 0.6, ty = 0.4, both weigh 0.24; the cell is
 * the goal (2,1): 0 0. */
Test(sample, cancel_to_nothing)
{
    hand_field f;
    hand_init(&f, 4, 3, N);
    hand_set(&f, 1, 1, E);
    hand_set(&f, 2, 2, W);
    hand_set(&f, 2, 1, GOAL);
    hand_wall(&f, 1, 2);
    expect_smooth(&f, 2.1, 1.9, 0, 0);
    ff_grid_free(&f.g);
}

/* Cell size 2.5, origin (10, -5): world (14.5, -1.75) is (1.8, 1.3) in
 * cells, sx = 1.3, sy = 0.8: tx = 0.3, ty = 0.8.  Weights (1,0) N 0.14,
 * (2,0) NE 0.06, (1,1) E 0.56, (2,1) SE 0.24: sum (0.56 + 0.30 s,
 * -0.14 + 0.18 s) = (0.772132, -0.012721), normalised (0.999864, -0.016473).
 * The raw direction is that of cell (1,1): E. */
Test(sample, cell_size_and_origin)
{
    hand_field f;
    hand_init(&f, 4, 3, W);
    f.g.cell_size = 2.5;
    f.g.origin_x = 10;
    f.g.origin_y = -5;
    hand_set(&f, 1, 0, N);
    hand_set(&f, 2, 0, NE);
    hand_set(&f, 1, 1, E);
    hand_set(&f, 2, 1, SE);
    expect_smooth(&f, 14.5, -1.75, 0.999864316853, -0.016472640462);
    expect_raw(&f, 14.5, -1.75, E, 1, 0);
    /* (9.9, 0) is left of the origin: outside */
    expect_raw(&f, 9.9, 0, NONE, 0, 0);
    /* the center of cell (2,1) is (10 + 2.5 * 2.5, -5 + 1.5 * 2.5) */
    expect_smooth(&f, 16.25, -1.25, S2, S2);
    ff_grid_free(&f.g);
}

Test(sample, raw_unit_vectors)
{
    static const double ex[8] = { 0, 1, 0, -1, S2, S2, -S2, -S2 };
    static const double ey[8] = { -1, 0, 1, 0, -S2, S2, S2, -S2 };
    hand_field f;
    int d;
    hand_init(&f, 4, 3, N);
    for (d = 0; d < 8; d++) {
        hand_set(&f, 3, 2, (uint8_t)d);
        expect_raw(&f, 3.5, 2.5, d, ex[d], ey[d]);
        expect_smooth(&f, 3.5, 2.5, ex[d], ey[d]);
    }
    ff_grid_free(&f.g);
}

Test(sample, far_and_not_finite_positions)
{
    hand_field f;
    double dx, dy;
    hand_init(&f, 4, 3, E);
    expect_smooth(&f, 1e300, 1, 0, 0);
    expect_smooth(&f, -1e300, -1e300, 0, 0);
    cr_expect_eq(ff_sample_smooth(&f.g, f.dir, NAN, 1, &dx, &dy), 0);
    cr_expect(dx == 0 && dy == 0);
    cr_expect_eq(ff_sample_raw(&f.g, f.dir, INFINITY, 1, &dx, &dy), NONE);
    ff_grid_free(&f.g);
}

/* ---- the corridor with a 90-degree turn ---- */

/* A corridor five cells wide runs east along rows 17..21 from column 1,
 * turns north into columns 16..20 and ends at goals across row 1. */
static void corridor_field(const ff_map_options *opt, ff_grid *g, uint8_t **dir)
{
    char text[4096], *p = text;
    double *dist;
    ff_error err;
    int x, y;

    p += sprintf(p, "ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\nmap\n");
    for (y = 0; y < 24; y++) {
        for (x = 0; x < 24; x++) {
            int up = x >= 16 && x <= 20 && y >= 1 && y <= 21;
            int along = x >= 1 && x <= 20 && y >= 17 && y <= 21;
            *p++ = y == 1 && up ? 'G' : up || along ? '.' : '#';
        }
        *p++ = '\n';
    }
    *p = '\0';
    cr_assert_eq(ff_map_parse((const unsigned char *)text, strlen(text), "corridor", opt, g, &err),
                 FF_OK, "%s", err.msg);
    dist = malloc(24 * 24 * sizeof *dist);
    *dir = malloc(24 * 24);
    cr_assert(dist && *dir);
    cr_assert_eq(ff_search(g, dist, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_direction_field(g, dist, *dir, &err), FF_OK, "%s", err.msg);
    free(dist);
}

static double turn(double ax, double ay, double bx, double by)
{
    return fabs(atan2(ax * by - ay * bx, ax * bx + ay * by));
}

/* Sampled every h = 0.01 cells along the corridor's middle line (east
 * along y = 19.5 to x = 18.5, then north to y = 4), the raw direction jumps
 * by 45 degrees or more at cell borders, while the smoothed one turns by at
 * most 2h radians (1.15 degrees) between neighbouring samples.
 *
 * Why 2h: on this line all four samples around every point are open and
 * point E, NE or N (asserted below), so they lie within 90 degrees of each
 * other.  The blend S = sum w_k u_k has weights summing to 1, so its
 * component along the bisector of that 90-degree cone is at least cos 45:
 * |S| >= 1/sqrt2.  Along an axis-parallel line, dS/ds = (1-t)(u1-u0) +
 * t(u3-u2) with |u_i - u_j| <= sqrt2, so |dS/ds| <= sqrt2 per cell.  The
 * angle of S turns at |S x dS/ds| / |S|^2 <= |dS/ds| / |S| <= 2 radians per
 * cell, and S is continuous across the sample squares (the bilinear weights
 * agree on their shared edges), so a step of h turns it by at most 2h. */
/* The k-th point of the line: 1650 steps east, then 1550 north. */
static int corridor_point(int k, double h, double *px, double *py)
{
    if (k <= 1650) {
        *px = 2.0 + k * h;
        *py = 19.5;
    } else if (k <= 1650 + 1550) {
        *px = 18.5;
        *py = 19.5 - (k - 1650) * h;
    } else
        return 0;
    return 1;
}

Test(sample, corridor_turn_is_smooth)
{
    const double h = 0.01, bound = 2 * h + 1e-12;
    ff_map_options opt;
    ff_grid g;
    uint8_t *dir;
    double px, py, sdx = 0, sdy = 0, rdx = 0, rdy = 0;
    double max_smooth = 0, max_raw = 0, first_x = 0, first_y = 0;
    int k, raw_jumps = 0;

    ff_map_options_init(&opt);
    corridor_field(&opt, &g, &dir);
    for (k = 0; corridor_point(k, h, &px, &py); k++) {
        double dx, dy, qx, qy;
        long long x0 = (long long)floor(px - 0.5), y0 = (long long)floor(py - 0.5);
        int j;
        /* the premise of the bound */
        for (j = 0; j < 4; j++) {
            int d = dir[(y0 + (j >> 1)) * 24 + x0 + (j & 1)];
            cr_assert(d == FF_DIR_E || d == FF_DIR_NE || d == FF_DIR_N,
                      "sample %lld,%lld near %g %g has direction %d", x0 + (j & 1),
                      y0 + (j >> 1), px, py, d);
        }
        cr_assert_eq(ff_sample_smooth(&g, dir, px, py, &dx, &dy), 1);
        ff_sample_raw(&g, dir, px, py, &qx, &qy);
        if (k == 0) {
            first_x = dx;
            first_y = dy;
        } else {
            double ts = turn(sdx, sdy, dx, dy), tr = turn(rdx, rdy, qx, qy);
            if (ts > max_smooth)
                max_smooth = ts;
            if (tr > max_raw)
                max_raw = tr;
            if (tr > 0)
                raw_jumps++;
            cr_expect(ts <= bound, "smoothed turn %.6f rad > %.6f at %g %g", ts, bound, px, py);
        }
        sdx = dx, sdy = dy, rdx = qx, rdy = qy;
    }
    cr_expect_eq(k, 3201);
    cr_expect_geq(max_raw, PI / 4 - 1e-9, "largest raw jump %.4f rad", max_raw);
    cr_expect_gt(raw_jumps, 0);
    cr_expect_leq(max_smooth, bound);
    /* and it does turn: from within 45 degrees of east to north */
    cr_expect_leq(turn(first_x, first_y, 1, 0), PI / 4 + 1e-9);
    cr_expect_lt(turn(sdx, sdy, 0, -1), 1e-9);
    free(dir);
    ff_grid_free(&g);
}

/* The blend as ffquery(1) words it ("Smoothing"), sample by sample, against the library
 * on random fields and positions (inside, on borders, outside): the same
 * answer to the last bit. */
static void reference_smooth(const ff_grid *g, const uint8_t *dir, double px, double py,
                             double *dx, double *dy)
{
    static const double h = 0.70710678118654752440;
    static const double ux[8] = { 0, 1, 0, -1, h, h, -h, -h };
    static const double uy[8] = { -1, 0, 1, 0, -h, h, h, -h };
    double sx = (px - g->origin_x) / g->cell_size - 0.5, sy = (py - g->origin_y) / g->cell_size - 0.5;
    double fx = floor(sx), fy = floor(sy), tx = sx - fx, ty = sy - fy, ax = 0, ay = 0, len;
    int k;

    for (k = 0; k < 4; k++) {
        double x = fx + (k & 1), y = fy + (k >> 1);
        double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
        int d;
        if (x < 0 || y < 0 || x >= g->w || y >= g->h)
            continue;
        d = dir[(size_t)y * (size_t)g->w + (size_t)x];
        if (d < 8) {
            ax += wgt * ux[d];
            ay += wgt * uy[d];
        }
    }
    len = ax * ax + ay * ay;
    if (len < 1e-6) {
        double cx = floor((px - g->origin_x) / g->cell_size), cy = floor((py - g->origin_y) / g->cell_size);
        int d = cx >= 0 && cy >= 0 && cx < g->w && cy < g->h ? dir[(size_t)cy * (size_t)g->w + (size_t)cx] : 9;
        *dx = d < 8 ? ux[d] : 0;
        *dy = d < 8 ? uy[d] : 0;
        return;
    }
    len = sqrt(len);
    *dx = ax / len;
    *dy = ay / len;
}

Test(sample, random_fields_match_the_blend_bit_for_bit)
{
    unsigned long long rng = 4242;
    int trial, k;

    for (trial = 0; trial < 200; trial++) {
        ff_grid g;
        uint8_t dir[64];
        ff_grid_init(&g);
        g.w = 1 + (int)(tu_next(&rng) % 8);
        g.h = 1 + (int)(tu_next(&rng) % 8);
        g.cell_size = trial % 3 == 0 ? 0.75 : 1.0;
        g.origin_x = trial % 5 == 0 ? -2.5 : 0;
        g.origin_y = trial % 7 == 0 ? 1.25 : 0;
        for (k = 0; k < g.w * g.h; k++)
            dir[k] = (uint8_t)(tu_next(&rng) % 10);
        for (k = 0; k < 500; k++) {
            double px = g.origin_x + ((double)(tu_next(&rng) % 2000) / 200.0 - 1) * g.cell_size;
            double py = g.origin_y + ((double)(tu_next(&rng) % 2000) / 200.0 - 1) * g.cell_size;
            double ax, ay, bx, by;
            ff_sample_smooth(&g, dir, px, py, &ax, &ay);
            reference_smooth(&g, dir, px, py, &bx, &by);
            cr_assert(memcmp(&ax, &bx, 8) == 0 && memcmp(&ay, &by, 8) == 0,
                      "trial %d at %.17g %.17g: %.17g %.17g vs %.17g %.17g", trial, px, py, ax, ay,
                      bx, by);
        }
    }
}
