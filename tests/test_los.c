/* test_los.c - line of sight: hand-worked cases of each corner rule, an
 * independent reference written from the definition in los.h (exact
 * rational clipping of the segment against every cell, then a search for
 * the chain of open cells) compared on random maps and segments, the
 * clearance-radius guarantee, and the exact orientation predicate. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "los.h"

/* ---- maps ---- */

static int los3(ff_grid *g, ff_corners rule, double ax, double ay, double bx, double by)
{
    g->corners = rule;
    return ff_los(g, ax, ay, bx, by);
}

/* The three rules at once, as a 3-character string: strict cut free. */
static void expect_rules(ff_grid *g, double ax, double ay, double bx, double by, const char *want)
{
    char got[4];

    got[0] = los3(g, FF_CORNERS_STRICT, ax, ay, bx, by) ? 'y' : 'n';
    got[1] = los3(g, FF_CORNERS_CUT, ax, ay, bx, by) ? 'y' : 'n';
    got[2] = los3(g, FF_CORNERS_FREE, ax, ay, bx, by) ? 'y' : 'n';
    got[3] = '\0';
    cr_expect_str_eq(got, want, "%g %g -> %g %g: strict/cut/free %s, want %s", ax, ay, bx, by,
                     got, want);
    /* Without one-way cells, sight is symmetric. */
    got[0] = los3(g, FF_CORNERS_STRICT, bx, by, ax, ay) ? 'y' : 'n';
    got[1] = los3(g, FF_CORNERS_CUT, bx, by, ax, ay) ? 'y' : 'n';
    got[2] = los3(g, FF_CORNERS_FREE, bx, by, ax, ay) ? 'y' : 'n';
    cr_expect_str_eq(got, want, "%g %g -> %g %g reversed: %s, want %s", ax, ay, bx, by, got,
                     want);
}

/* ---- hand-worked cases ---- */

Test(los, corner_rules)
{
    ff_grid g;

    /* A pillar at 1,1. */
    tu_make_grid(&g, 3, 3, "....#....", FF_CORNERS_STRICT);
    /* Along row 0: it never touches the pillar. */
    expect_rules(&g, 0.5, 0.5, 2.5, 0.5, "yyy");
    /* Through the pillar. */
    expect_rules(&g, 0.5, 1.5, 2.5, 1.5, "nnn");
    /* Exactly through its corner point 1,1 (the other side cell 0,0 is
     * open): strict refuses the touch, cut and free allow it. */
    expect_rules(&g, 0.5, 1.5, 1.5, 0.5, "nyy");
    /* Along the grid line y = 1, grazing the pillar's north edge. */
    expect_rules(&g, 0.25, 1, 2.75, 1, "nyy");
    /* Ending on the pillar's corner 2,1 (b lies in cell 2,1 by floor). */
    expect_rules(&g, 2.5, 0.5, 2, 1, "nyy");
    /* Ending on its corner 1,1, which lies in the pillar by floor. */
    expect_rules(&g, 0.5, 0.5, 1, 1, "nnn");
    /* A point in the pillar has no sight. */
    expect_rules(&g, 0.5, 0.5, 1.5, 1.5, "nnn");
    ff_grid_free(&g);

    /* Two walls meeting at the corner 1,1 diagonally: the pinch. */
    tu_make_grid(&g, 2, 2, ".##.", FF_CORNERS_STRICT);
    expect_rules(&g, 0.5, 0.5, 1.5, 1.5, "nny");
    expect_rules(&g, 0.25, 0.5, 1.5, 1.75, "nnn");
    ff_grid_free(&g);
    /* Along the grid line y = 1 through two pinches. */
    tu_make_grid(&g, 3, 2, "#.#.#.", FF_CORNERS_STRICT);
    expect_rules(&g, 0.5, 1, 2.5, 1, "nny");
    ff_grid_free(&g);

    /* A slit between two walls that share an edge is a wall. */
    tu_make_grid(&g, 3, 2, ".#..#.", FF_CORNERS_STRICT);
    expect_rules(&g, 0.5, 1, 2.5, 1, "nnn");
    ff_grid_free(&g);

    /* The map edge is a wall: a line along it touches outside cells. */
    tu_make_grid(&g, 3, 1, "...", FF_CORNERS_STRICT);
    expect_rules(&g, 0.5, 0, 2.5, 0, "nyy");
    expect_rules(&g, 0.5, 0.5, 2.5, 0.5, "yyy");
    ff_grid_free(&g);
}

Test(los, classes_and_costs)
{
    ff_grid g;

    /* Water (class 1) in the middle: ground cannot see across it, and
     * water sees only water. */
    tu_make_grid(&g, 3, 1, ".w.", FF_CORNERS_FREE);
    expect_rules(&g, 0.5, 0.5, 2.5, 0.5, "nnn");
    expect_rules(&g, 0.5, 0.5, 1.5, 0.5, "nnn");
    ff_grid_free(&g);
    tu_make_grid(&g, 3, 1, "ww.", FF_CORNERS_FREE);
    expect_rules(&g, 0.5, 0.5, 1.5, 0.5, "yyy");
    ff_grid_free(&g);
    /* A costlier cell in the way counts as blocked. */
    tu_make_grid(&g, 3, 1, ".~.", FF_CORNERS_FREE);
    expect_rules(&g, 0.5, 0.5, 2.5, 0.5, "nnn");
    ff_grid_free(&g);
    tu_make_grid(&g, 3, 1, "~~.", FF_CORNERS_FREE);
    expect_rules(&g, 0.5, 0.5, 1.5, 0.5, "yyy");
    ff_grid_free(&g);
}

Test(los, four_moves_read_free_as_cut)
{
    ff_grid g;

    tu_make_grid(&g, 2, 2, ".##.", FF_CORNERS_FREE);
    cr_expect(ff_los(&g, 0.5, 0.5, 1.5, 1.5));
    g.moves = 4;
    cr_expect(!ff_los(&g, 0.5, 0.5, 1.5, 1.5));
    ff_grid_free(&g);
}

Test(los, one_way_cells)
{
    ff_grid g;

    tu_make_grid(&g, 3, 3, ".........", FF_CORNERS_STRICT);
    g.oneway = malloc(9);
    memset(g.oneway, FF_ONEWAY_ALL, 9);
    g.oneway[3 + 1] = 1u << FF_DIR_E;  /* the center: leave eastwards only */
    cr_expect(ff_los(&g, 0.5, 1.5, 2.5, 1.5));
    cr_expect(!ff_los(&g, 2.5, 1.5, 0.5, 1.5));
    /* Through the center leaving north. */
    cr_expect(!ff_los(&g, 1.5, 2.5, 1.5, 0.5));
    /* Leaving it through its corner 2,1 is a NE step. */
    cr_expect(!ff_los(&g, 0.5, 2.5, 2.5, 0.5));
    g.oneway[3 + 1] |= 1u << FF_DIR_NE;
    cr_expect(ff_los(&g, 0.5, 2.5, 2.5, 0.5));
    /* Ending in it: it is not left. */
    cr_expect(ff_los(&g, 1.5, 0.5, 1.5, 1.5));
    /* Along a grid line beside it: it must allow the line's direction. */
    cr_expect(ff_los(&g, 0.5, 1, 2.5, 1));
    cr_expect(!ff_los(&g, 2.5, 2, 0.5, 2));
    cr_expect(ff_los(&g, 0.5, 2, 2.5, 2));
    ff_grid_free(&g);
}

Test(los, world_units)
{
    ff_grid g;

    /* The pillar map at cell size 2, origin -3 5. */
    tu_make_grid(&g, 3, 3, "....#....", FF_CORNERS_CUT);
    g.cell_size = 2;
    g.origin_x = -3;
    g.origin_y = 5;
    cr_expect(ff_los(&g, -2, 8, 0, 6));      /* through the corner 1,1 */
    cr_expect(!ff_los(&g, -2, 8, 2, 8));     /* through the pillar */
    cr_expect(!ff_los(&g, -3.5, 6, -2, 6));  /* outside the map */
    cr_expect(ff_los(&g, -3, 6, -2, 6));     /* on its west edge: inside */
    cr_expect(!ff_los(&g, -2, 6, 3, 6));     /* the east edge is outside */
    ff_grid_free(&g);
}

/* ---- the reference ---- */

/* Coordinates are integers in quarters of a cell; cell (i, j) is the box
 * [4i, 4i+4] x [4j, 4j+4].  A parameter t along the segment is a fraction
 * num/den with den > 0. */
#define Q 4

typedef struct {
    long long num, den;
} frac;

static int frac_cmp(frac a, frac b)
{
    long long l = a.num * b.den, r = b.num * a.den;
    return (l > r) - (l < r);
}

/* Narrow [*t0, *t1] to the parameters t of p + t d with lo <= x <= hi
 * along one axis; 0 when no t qualifies (d = 0 and p outside). */
static int narrow(long long p, long long d, long long lo, long long hi, int open, frac *t0,
                  frac *t1)
{
    frac a, b;

    if (d == 0)
        return open ? (lo < p && p < hi) : (lo <= p && p <= hi);
    a.num = d > 0 ? lo - p : p - hi;
    b.num = d > 0 ? hi - p : p - lo;
    a.den = b.den = d > 0 ? d : -d;
    if (frac_cmp(a, *t0) > 0)
        *t0 = a;
    if (frac_cmp(b, *t1) < 0)
        *t1 = b;
    return 1;
}

/* The parameters of the segment in cell (i, j): its closed box (touch) or
 * its open box (interior).  An open box leaves an open interval, so it is
 * met only when t0 < t1; [0, 1] itself is never a single point. */
static int meets(long long px, long long py, long long qx, long long qy, long long i,
                 long long j, int open, frac *t0, frac *t1)
{
    t0->num = 0;
    t0->den = 1;
    t1->num = 1;
    t1->den = 1;
    if (!narrow(px, qx - px, Q * i, Q * i + Q, open, t0, t1) ||
        !narrow(py, qy - py, Q * j, Q * j + Q, open, t0, t1))
        return 0;
    return open ? frac_cmp(*t0, *t1) < 0 : frac_cmp(*t0, *t1) <= 0;
}


static long long floor_div(long long a, long long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The definition of los.h, directly: strict = no touched cell blocked;
 * cut / free = a chain of open cells from a's cell to b's covering the
 * segment in order, consecutive cells sharing an edge (cut) or at least a
 * corner (free).  The chain is found by relaxing, for each open touched
 * cell, the smallest parameter at which a chain can enter it. */
static int ref_los(const ff_grid *g, ff_corners rule, long long px, long long py, long long qx,
                   long long qy)
{
    enum { MAXN = 512 };
    long long ai = floor_div(px, Q), aj = floor_div(py, Q), bi = floor_div(qx, Q),
              bj = floor_div(qy, Q);
    long long i0, i1, j0, j1, i, j;
    long long ci[MAXN], cj[MAXN];
    frac lo[MAXN], hi[MAXN], entry[MAXN];
    int reached[MAXN], n = 0, a = -1, b = -1, changed, u, v;
    tu_sight_cells r;

    if (ai < 0 || aj < 0 || ai >= g->w || aj >= g->h)
        return 0;
    r = tu_sight_from(g, ai, aj);
    if (!isfinite(r.cost) || !tu_sight_open(&r, bi, bj))
        return 0;
    if (px == qx && py == qy)
        return 1;
    i0 = floor_div(px < qx ? px : qx, Q) - 1;
    i1 = floor_div(px > qx ? px : qx, Q) + 1;
    j0 = floor_div(py < qy ? py : qy, Q) - 1;
    j1 = floor_div(py > qy ? py : qy, Q) + 1;
    for (j = j0; j <= j1; j++)
        for (i = i0; i <= i1; i++) {
            frac t0, t1, o0, o1;
            int ok = tu_sight_open(&r, i, j);
            if (!meets(px, py, qx, qy, i, j, 0, &t0, &t1))
                continue;
            if (!ok && (rule == FF_CORNERS_STRICT || meets(px, py, qx, qy, i, j, 1, &o0, &o1)))
                return 0;
            if (!ok)
                continue;
            cr_assert_lt(n, MAXN);
            ci[n] = i;
            cj[n] = j;
            lo[n] = t0;
            hi[n] = t1;
            reached[n] = 0;
            if (i == ai && j == aj)
                a = n;
            if (i == bi && j == bj)
                b = n;
            n++;
        }
    if (rule == FF_CORNERS_STRICT)
        return 1;
    cr_assert(a >= 0 && b >= 0);
    reached[a] = 1;
    entry[a].num = 0;
    entry[a].den = 1;
    do {
        changed = 0;
        for (u = 0; u < n; u++) {
            if (!reached[u])
                continue;
            for (v = 0; v < n; v++) {
                long long di = ci[v] - ci[u], dj = cj[v] - cj[u];
                frac tau;
                if (di < -1 || di > 1 || dj < -1 || dj > 1 || (di == 0 && dj == 0))
                    continue;
                if (rule == FF_CORNERS_CUT && di != 0 && dj != 0)
                    continue;
                /* Hand over at the earliest parameter both cells hold. */
                tau = frac_cmp(entry[u], lo[v]) > 0 ? entry[u] : lo[v];
                if (frac_cmp(tau, hi[u]) > 0 || frac_cmp(tau, hi[v]) > 0)
                    continue;
                if (!reached[v] || frac_cmp(tau, entry[v]) < 0) {
                    reached[v] = 1;
                    entry[v] = tau;
                    changed = 1;
                }
            }
        }
    } while (changed);
    return reached[b];
}

/* A random map: 22% walls, 8% water, 8% cost 2. */
static void random_grid(ff_grid *g, int w, int h, unsigned long long *seed)
{
    char rows[400];
    int k;

    cr_assert_leq(w * h, 400);
    for (k = 0; k < w * h; k++) {
        int v = (int)(tu_next(seed) % 100);
        rows[k] = v < 22 ? '#' : v < 30 ? 'w' : v < 38 ? '~' : '.';
    }
    tu_make_grid(g, w, h, rows, FF_CORNERS_STRICT);
}

/* A coordinate in quarters: often on a grid line, often a cell center. */
static long long random_coord(int cells, unsigned long long *seed)
{
    long long c = (long long)(tu_next(seed) % (unsigned long long)cells);
    switch (tu_next(seed) % 4) {
    case 0: return Q * c;
    case 1: return Q * c + Q / 2;
    default: return Q * c + (long long)(tu_next(seed) % Q);
    }
}

static void compare_random(int moves, ff_corners rule, ff_corners ref_rule, int trials,
                           unsigned long long seed)
{
    int map, t, agree = 0, seen = 0;

    for (map = 0; map < 40; map++) {
        ff_grid g;
        int w = 4 + (int)(tu_next(&seed) % 10), h = 4 + (int)(tu_next(&seed) % 10);
        random_grid(&g, w, h, &seed);
        g.moves = moves;
        g.corners = rule;
        /* World units: cell size 2, origin -3 5, all exact. */
        g.cell_size = 2;
        g.origin_x = -3;
        g.origin_y = 5;
        for (t = 0; t < trials; t++) {
            long long px = random_coord(w, &seed), py = random_coord(h, &seed);
            long long qx = random_coord(w, &seed), qy = random_coord(h, &seed);
            int want = ref_los(&g, ref_rule, px, py, qx, qy);
            int got = ff_los(&g, -3 + 2.0 * px / Q, 5 + 2.0 * py / Q, -3 + 2.0 * qx / Q,
                             5 + 2.0 * qy / Q);
            cr_expect_eq(got, want,
                         "map %d (%dx%d, rule %d, moves %d): %g %g -> %g %g (cells): los %d, "
                         "reference %d",
                         map, w, h, rule, moves, (double)px / Q, (double)py / Q, (double)qx / Q,
                         (double)qy / Q, got, want);
            agree += got == want;
            seen += want;
        }
        ff_grid_free(&g);
    }
    /* The sample must hold both answers in numbers. */
    cr_expect_gt(seen, trials * 40 / 50);
    cr_expect_lt(seen, trials * 40 * 19 / 20);
    cr_expect_eq(agree, trials * 40);
}

Test(los, reference_strict, .timeout = 120)
{
    compare_random(8, FF_CORNERS_STRICT, FF_CORNERS_STRICT, 10000, 1);
}

Test(los, reference_cut, .timeout = 120)
{
    compare_random(8, FF_CORNERS_CUT, FF_CORNERS_CUT, 10000, 2);
}

Test(los, reference_free, .timeout = 120)
{
    compare_random(8, FF_CORNERS_FREE, FF_CORNERS_FREE, 10000, 3);
}

Test(los, reference_four_moves, .timeout = 120)
{
    compare_random(4, FF_CORNERS_FREE, FF_CORNERS_CUT, 5000, 4);
    compare_random(4, FF_CORNERS_STRICT, FF_CORNERS_STRICT, 5000, 5);
}

/* ---- clearance ---- */

/* Distance from the segment a-b to the closed box [x0,x1] x [y0,y1]: 0 when
 * they meet; else the least of the box corners' distances to the segment
 * and the end points' distances to the box. */
static double point_segment(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;

    if (l2 > 0) {
        t = ((px - ax) * dx + (py - ay) * dy) / l2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

static double point_box(double px, double py, double x0, double y0, double x1, double y1)
{
    double dx = px < x0 ? x0 - px : px > x1 ? px - x1 : 0;
    double dy = py < y0 ? y0 - py : py > y1 ? py - y1 : 0;
    return hypot(dx, dy);
}

/* 1 when the segment meets the box (Liang and Barsky's clipping). */
static int segment_meets_box(double ax, double ay, double bx, double by, double x0, double y0,
                             double x1, double y1)
{
    double t0 = 0, t1 = 1, p[4] = { -(bx - ax), bx - ax, -(by - ay), by - ay };
    double q[4] = { ax - x0, x1 - ax, ay - y0, y1 - ay };
    int k;

    for (k = 0; k < 4; k++) {
        if (p[k] == 0) {
            if (q[k] < 0)
                return 0;
        } else {
            double t = q[k] / p[k];
            if (p[k] < 0 && t > t0)
                t0 = t;
            if (p[k] > 0 && t < t1)
                t1 = t;
        }
    }
    return t0 <= t1;
}

/* Distance from the segment to the closed box: 0 when they meet, else the
 * least of the box corners' distances to the segment and the end points'
 * distances to the box. */
static double segment_box(double ax, double ay, double bx, double by, double x0, double y0,
                          double x1, double y1)
{
    double d = fmin(point_box(ax, ay, x0, y0, x1, y1), point_box(bx, by, x0, y0, x1, y1));
    int k;

    if (segment_meets_box(ax, ay, bx, by, x0, y0, x1, y1))
        return 0;
    for (k = 0; k < 4; k++)
        d = fmin(d, point_segment(k & 1 ? x1 : x0, k & 2 ? y1 : y0, ax, ay, bx, by));
    return d;
}

/* A field built with radius r keeps every sight line at least
 * r - cell * sqrt(2) / 2 from the walls (blocked cells and the map edge),
 * and that bound is nearly reached. */
Test(los, clearance_guarantee, .timeout = 120)
{
    unsigned long long seed = 11;
    const double r = 2.12, bound = r - sqrt(0.5);
    double closest = INFINITY;
    int map;

    for (map = 0; map < 30; map++) {
        ff_grid g, walls;
        ff_error err;
        int w = 14 + (int)(tu_next(&seed) % 8), h = 14 + (int)(tu_next(&seed) % 8), k, t;
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, "t", &err), FF_OK);
        g.corners = (ff_corners)(map % 3);
        for (k = 0; k < w * h; k++)
            g.cost[k] = tu_next(&seed) % 100 < 4 ? INFINITY : 1.0f;
        cr_assert_eq(ff_grid_copy(&walls, &g, &err), FF_OK);
        cr_assert_eq(ff_grid_apply_clearance(&g, r, &err), FF_OK);
        for (t = 0; t < 3000; t++) {
            double ax = (double)(tu_next(&seed) % (unsigned)(4 * w)) / 4,
                   ay = (double)(tu_next(&seed) % (unsigned)(4 * h)) / 4,
                   bx = (double)(tu_next(&seed) % (unsigned)(4 * w)) / 4,
                   by = (double)(tu_next(&seed) % (unsigned)(4 * h)) / 4;
            double d;
            int x, y;
            if (!ff_los(&g, ax, ay, bx, by))
                continue;
            d = fmin(fmin(ax, bx), fmin(ay, by));
            d = fmin(d, fmin(w - fmax(ax, bx), h - fmax(ay, by)));
            for (y = 0; y < h; y++)
                for (x = 0; x < w; x++)
                    if (!isfinite(walls.cost[y * w + x]))
                        d = fmin(d, segment_box(ax, ay, bx, by, x, y, x + 1, y + 1));
            cr_expect_geq(d, bound - 1e-12, "%g %g -> %g %g keeps only %g from walls", ax, ay,
                          bx, by, d);
            closest = fmin(closest, d);
        }
        ff_grid_free(&walls);
        ff_grid_free(&g);
    }
    cr_expect_lt(closest, bound + 0.01, "the bound %g is not approached: closest %g", bound,
                 closest);
}

/* ---- orientation ---- */

Test(los, orient_exact)
{
    /* Walking north (y falls), west is left: negative. */
    cr_expect_eq(ff_orient(0, 0, 0, -1, -1, 0), -1);
    cr_expect_eq(ff_orient(0, 0, 0, -1, 1, 0), 1);
    cr_expect_eq(ff_orient(0, 0, 2, 2, 5, 5), 0);
    /* Nearly collinear points that a plain double evaluation gets wrong:
     * c is 2^-60 off the line through a and b. */
    cr_expect_eq(ff_orient(0.5, 0.5, 12, 12, 24, 24), 0);
    cr_expect_eq(ff_orient(0.5, 0.5, 12, 12, 24, 24 + ldexp(1, -48)), 1);
    /* c one unit in the last place off the line y = x. */
    cr_expect_eq(ff_orient(0.1, 0.1, 0.3, 0.3, 0.7, nextafter(0.7, 1)), 1);
    cr_expect_eq(ff_orient(0.1, 0.1, 0.3, 0.3, 0.7, nextafter(0.7, 0)), -1);
    /* Far from the origin, where the products lose the difference. */
    cr_expect_eq(ff_orient(1e15, 1e15, 1e15 + 1, 1e15 + 1, 1e15 + 3, 1e15 + 3), 0);
    cr_expect_eq(ff_orient(1e15 + 0.5, 1e15, 1e15 + 2.5, 1e15 + 2, 1e15 + 4.5,
                           nextafter(1e15 + 4, 2e15)), 1);
    /* Points exactly on a line, and random points off it. */
    {
        unsigned long long seed = 5;
        int k, zero = 0;
        for (k = 0; k < 10000; k++) {
            double x = (double)(tu_next(&seed) % 1000000) / 1024.0;
            double y = (double)(tu_next(&seed) % 1000000) / 1024.0;
            /* Exactly on the line y = x * 3 - 7 (exact in binary). */
            cr_expect_eq(ff_orient(0, -7, 1, -4, x, 3 * x - 7), 0);
            zero += ff_orient(0, -7, 1, -4, x, y) == 0;
        }
        cr_expect_lt(zero, 10);
    }
}
