/* test_anyangle.c - the any-angle field (anyangle.h) against an oracle
 * written from the definition (issue 36): a Dijkstra over the visibility
 * graph of the goal centres and the grid vertices touching a wall, each
 * cell taking the best node it sees.  The oracle's sight test is its own:
 * it lists every crossing of the segment with a grid line as an exact
 * fraction, and asks of each crossing and of the middle of each piece
 * between two crossings whether that point lies in an open closed square
 * (and, under strict, is no point where two walls touch diagonally).
 * Hand-worked cases, and Euclidean <= any-angle <= 8-move, complete it. */
#include "testutil.h"

#include <limits.h>

#include "anyangle.h"
#include "freesight.h"
#include "search.h"

/* ---- the oracle ---- */

static int oracle_open(const ff_grid *g, long long x, long long y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h && isfinite(g->cost[y * g->w + x]);
}

/* floor(n / d) for d > 0. */
static long long floor_div(long long n, long long d)
{
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* Is the point (xn / den, yn / den), in cells, in the free space? */
static int oracle_point_free(const ff_grid *g, long long xn, long long yn, long long den)
{
    long long fx = floor_div(xn, den), fy = floor_div(yn, den);
    int on_x = fx * den == xn, on_y = fy * den == yn;
    int any = 0;

    for (long long i = on_x ? fx - 1 : fx; i <= fx; i++)
        for (long long j = on_y ? fy - 1 : fy; j <= fy; j++)
            any |= oracle_open(g, i, j);
    if (any && on_x && on_y && g->corners == FF_CORNERS_STRICT) {
        /* Two walls touching diagonally at this vertex. */
        int nw = oracle_open(g, fx - 1, fy - 1), ne = oracle_open(g, fx, fy - 1);
        int sw = oracle_open(g, fx - 1, fy), se = oracle_open(g, fx, fy);
        if ((!nw && !se) || (!ne && !sw))
            return 0;
    }
    return any;
}

typedef struct {
    long long n, d;  /* the parameter n / d along the segment, d > 0 */
} frac;

static int frac_cmp(const void *a, const void *b)
{
    const frac *p = a, *q = b;
    long long l = p->n * q->d, r = q->n * p->d;
    return (l > r) - (l < r);
}

/* Points in cells times 2 (half cells), so centres are whole numbers. */
static int oracle_sees(const ff_grid *g, long long ax, long long ay, long long bx, long long by)
{
    long long dx = bx - ax, dy = by - ay;
    frac t[512];
    int n = 0;

    t[n++] = (frac){ 0, 1 };
    t[n++] = (frac){ 1, 1 };
    /* Grid lines are at even half-cell coordinates. */
    for (long long k = 0; k <= 2 * g->w && dx != 0; k += 2) {
        long long num = (k - ax) * (dx > 0 ? 1 : -1), den = dx > 0 ? dx : -dx;
        if (num > 0 && num < den)
            t[n++] = (frac){ num, den };
    }
    for (long long k = 0; k <= 2 * g->h && dy != 0; k += 2) {
        long long num = (k - ay) * (dy > 0 ? 1 : -1), den = dy > 0 ? dy : -dy;
        if (num > 0 && num < den)
            t[n++] = (frac){ num, den };
    }
    cr_assert_lt(n, 512);
    qsort(t, (size_t)n, sizeof *t, frac_cmp);
    for (int i = 0; i < n; i++) {
        /* The point at t[i], then the middle of the piece after it, in
         * cells: (2a + 2 d t) / 4 with the common denominator. */
        long long den = 2 * t[i].d;
        if (!oracle_point_free(g, ax * t[i].d + dx * t[i].n, ay * t[i].d + dy * t[i].n, den))
            return 0;
        if (i + 1 < n) {
            long long md = 2 * t[i].d * t[i + 1].d;
            long long mn = t[i].n * t[i + 1].d + t[i + 1].n * t[i].d;
            if (!oracle_point_free(g, ax * md + dx * mn, ay * md + dy * mn, 2 * md))
                return 0;
        }
    }
    return 1;
}

/* The oracle's distances, in cells of length, into out[w*h]. */
static void oracle_field(const ff_grid *g, double *out)
{
    int w = g->w, h = g->h, nn = 0;
    int cap = (int)g->ngoals + (w + 1) * (h + 1);
    long long *nx = malloc((size_t)cap * sizeof *nx), *ny = malloc((size_t)cap * sizeof *ny);
    double *d = malloc((size_t)cap * sizeof *d);
    char *done = calloc((size_t)cap, 1);

    cr_assert(nx && ny && d && done);
    for (size_t k = 0; k < g->ngoals; k++) {
        nx[nn] = 2 * (long long)(g->goals[k] % (uint32_t)w) + 1;
        ny[nn] = 2 * (long long)(g->goals[k] / (uint32_t)w) + 1;
        d[nn++] = 0;
    }
    for (int y = 0; y <= h; y++)
        for (int x = 0; x <= w; x++) {
            int walls = !oracle_open(g, x - 1, y - 1) + !oracle_open(g, x, y - 1) +
                        !oracle_open(g, x - 1, y) + !oracle_open(g, x, y);
            if (walls == 0 || walls == 4 || !oracle_point_free(g, x, y, 1))
                continue;
            nx[nn] = 2 * x;
            ny[nn] = 2 * y;
            d[nn++] = INFINITY;
        }
    for (;;) {
        int u = -1;
        for (int i = 0; i < nn; i++)
            if (!done[i] && isfinite(d[i]) && (u < 0 || d[i] < d[u]))
                u = i;
        if (u < 0)
            break;
        done[u] = 1;
        for (int v = 0; v < nn; v++) {
            double c;
            if (done[v])
                continue;
            c = d[u] + 0.5 * hypot((double)(nx[u] - nx[v]), (double)(ny[u] - ny[v]));
            if (c < d[v] && oracle_sees(g, nx[u], ny[u], nx[v], ny[v]))
                d[v] = c;
        }
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double best = INFINITY;
            if (oracle_open(g, x, y))
                for (int v = 0; v < nn; v++) {
                    double c = d[v] + 0.5 * hypot((double)(nx[v] - 2 * x - 1),
                                                  (double)(ny[v] - 2 * y - 1));
                    if (c < best && oracle_sees(g, 2 * x + 1, 2 * y + 1, nx[v], ny[v]))
                        best = c;
                }
            out[y * w + x] = best;
        }
    free(nx);
    free(ny);
    free(d);
    free(done);
}

/* ---- random maps ---- */

static void random_map(ff_grid *g, unsigned long long *seed, int w, int h, double walls,
                       int ngoals, ff_corners corners)
{
    ff_error err;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->corners = corners;
    for (int i = 0; i < w * h; i++)
        g->cost[i] = (double)(tu_next(seed) % 1000000) / 1e6 < walls ? INFINITY : 1.0f;
    for (int k = 0; k < ngoals; k++) {
        int i = (int)(tu_next(seed) % (unsigned long long)(w * h));
        g->cost[i] = 1.0f;
        cr_assert_eq(ff_grid_add_goal(g, i % w, i / w, "t", 0, 0, &err), FF_OK);
    }
}

static void expect_oracle(const ff_grid *g, const char *what)
{
    size_t n = (size_t)g->w * (size_t)g->h;
    double *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
    ff_error err;

    cr_assert(got && want);
    cr_assert_eq(ff_anyangle_search(g, got, NULL, &err), FF_OK, "%s: %s", what, err.msg);
    oracle_field(g, want);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(want[i])) {
            cr_assert(isinf(got[i]), "%s: cell %zu,%zu: %.17g, oracle inf", what,
                      i % (size_t)g->w, i / (size_t)g->w, got[i]);
            continue;
        }
        cr_assert_leq(fabs(got[i] - want[i]), 1e-9 * want[i] + 1e-12,
                      "%s: cell %zu,%zu: %.17g, oracle %.17g", what, i % (size_t)g->w,
                      i / (size_t)g->w, got[i], want[i]);
    }
    free(got);
    free(want);
}

/* A random map against the oracle. */
static void random_map_matches(unsigned long long *seed, int w, int h, double walls, int ngoals,
                               ff_corners rule, const char *what)
{
    ff_grid g;

    random_map(&g, seed, w, h, walls, ngoals, rule);
    expect_oracle(&g, what);
    ff_grid_free(&g);
}

Test(anyangle, random_maps_match_the_oracle)
{
    unsigned long long seed = 36;
    char what[96];

    for (int k = 0; k < 120; k++) {
        int w = 4 + (int)(tu_next(&seed) % 17), h = 4 + (int)(tu_next(&seed) % 17);
        double walls = 0.10 + 0.20 * (double)(tu_next(&seed) % 1000) / 999.0;
        int ngoals = 1 + (int)(tu_next(&seed) % 3) * (int)(tu_next(&seed) % 2);
        ff_corners rule = k % 3 == 0 ? FF_CORNERS_STRICT : k % 3 == 1 ? FF_CORNERS_CUT
                                                                    : FF_CORNERS_FREE;
        snprintf(what, sizeof what, "map %d (%dx%d, %.0f%% walls, %d goals, %s)", k, w, h,
                 100 * walls, ngoals, ff_corners_name(rule));
        random_map_matches(&seed, w, h, walls, ngoals, rule, what);
    }
}

Test(anyangle, larger_maps_match_the_oracle)
{
    unsigned long long seed = 3636;

    for (int k = 0; k < 6; k++) {
        char what[64];
        snprintf(what, sizeof what, "40x32 map %d", k);
        random_map_matches(&seed, 40, 32, 0.10 + 0.04 * k, 1 + k % 3,
                           k % 2 ? FF_CORNERS_CUT : FF_CORNERS_STRICT, what);
    }
}

/* Corridors of one cell, staircases and pinch points: thin walls in long
 * lines, where a sight line grazes many corners. */
Test(anyangle, wall_lines_match_the_oracle)
{
    unsigned long long seed = 99;

    for (int k = 0; k < 30; k++) {
        ff_grid g;
        ff_error err;
        int w = 24, h = 18;
        char what[64];
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, "t", &err), FF_OK);
        g.corners = k % 2 ? FF_CORNERS_CUT : FF_CORNERS_STRICT;
        for (int i = 0; i < w * h; i++)
            g.cost[i] = 1.0f;
        for (int s = 0; s < 8; s++) {
            int x = (int)(tu_next(&seed) % (unsigned)w), y = (int)(tu_next(&seed) % (unsigned)h);
            int dir = (int)(tu_next(&seed) % 8), len = 2 + (int)(tu_next(&seed) % 10);
            for (int t = 0; t < len; t++, x += ff_dir_dx[dir], y += ff_dir_dy[dir])
                if (x >= 0 && y >= 0 && x < w && y < h)
                    g.cost[y * w + x] = INFINITY;
        }
        g.cost[0] = 1.0f;
        cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
        if (k % 3 == 0) {
            g.cost[w * h - 1] = 1.0f;
            cr_assert_eq(ff_grid_add_goal(&g, w - 1, h - 1, "t", 0, 0, &err), FF_OK);
        }
        snprintf(what, sizeof what, "wall lines %d", k);
        expect_oracle(&g, what);
        ff_grid_free(&g);
    }
}

/* ---- hand-worked cases ---- */

static double *field_of(const ff_grid *g)
{
    double *d = malloc((size_t)g->w * (size_t)g->h * sizeof *d);
    ff_error err;

    cr_assert_not_null(d);
    cr_assert_eq(ff_anyangle_search(g, d, NULL, &err), FF_OK, "%s", err.msg);
    return d;
}

Test(anyangle, open_map_is_euclidean)
{
    ff_grid g;
    ff_error err;
    double *d;

    tu_make_grid(&g, 9, 6, "........."
                           "........."
                           "........."
                           "........."
                           "........."
                           ".........", FF_CORNERS_STRICT);
    g.cell_size = 0.5;
    cr_assert_eq(ff_grid_add_goal(&g, 2, 1, "t", 0, 0, &err), FF_OK);
    d = field_of(&g);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 9; x++)
            cr_assert_float_eq(d[y * 9 + x], 0.5 * hypot(x - 2, y - 1), 1e-12, "%d,%d", x, y);
    free(d);
    ff_grid_free(&g);
}

/* A wall from the west edge to x = 5 on row 2, the gap at x = 6, 7; the
 * goal below the gap at (7,4).  From (0,0) the path turns once, at the
 * wall's north-east corner (6,2): sqrt(5.5^2 + 1.5^2) + sqrt(1.5^2 +
 * 2.5^2), as ffbuild(1) works it out. */
Test(anyangle, wall_with_a_gap_turns_round_its_end)
{
    ff_grid g;
    ff_error err;
    double *d;

    tu_make_grid(&g, 8, 6, "........"
                           "........"
                           "######.."
                           "........"
                           "........"
                           "........", FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 7, 4, "t", 0, 0, &err), FF_OK);
    d = field_of(&g);
    cr_assert_float_eq(d[0], hypot(5.5, 1.5) + hypot(1.5, 2.5), 1e-12);
    /* Below the wall: a straight line. */
    cr_assert_float_eq(d[5 * 8 + 0], hypot(7, 1), 1e-12);
    free(d);
    ff_grid_free(&g);
}

Test(anyangle, walls_touching_at_a_corner_block_the_diagonal_under_strict)
{
    ff_grid g;
    ff_error err;
    double *d;

    tu_make_grid(&g, 2, 2, ".#"
                           "#.", FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
    d = field_of(&g);
    cr_assert(isinf(d[3]));
    free(d);
    g.corners = FF_CORNERS_CUT;
    d = field_of(&g);
    cr_assert_float_eq(d[3], FF_SQRT2, 1e-15);
    free(d);
    ff_grid_free(&g);
}

/* Cost and cell size scale the length. */
Test(anyangle, cost_and_cell_size_scale_the_length)
{
    ff_grid g;
    ff_error err;
    double *d;

    tu_make_grid(&g, 4, 3, "~~~~"
                           "~#~~"
                           "~~~~", FF_CORNERS_STRICT);
    g.cell_size = 3;
    cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
    d = field_of(&g);
    /* (2,2) round the corner (2,1) of the wall: sqrt(1.5^2+0.5^2) + sqrt(
     * 0.5^2+1.5^2), times cost 2 and cell size 3. */
    cr_assert_float_eq(d[2 * 4 + 2], 6 * 2 * hypot(1.5, 0.5), 1e-12);
    free(d);
    ff_grid_free(&g);
}

/* ---- bounds: the straight line and the 8-move field ---- */

Test(anyangle, between_the_straight_line_and_the_octile_field)
{
    unsigned long long seed = 8;

    for (int k = 0; k < 60; k++) {
        ff_grid g, octile;
        ff_error err;
        int w = 8 + (int)(tu_next(&seed) % 40), h = 8 + (int)(tu_next(&seed) % 40);
        size_t n = (size_t)w * (size_t)h;
        double *aa, *oct = malloc(n * sizeof *oct);
        random_map(&g, &seed, w, h, 0.1 + 0.2 * (k % 5) / 4.0, 1 + k % 3,
                   k % 2 ? FF_CORNERS_CUT : FF_CORNERS_STRICT);
        aa = field_of(&g);
        /* The same rule for the octile field gives no shorter distances;
         * under cut the any-angle path may slip between two walls as an
         * 8-move path does only under free: the same reachability. */
        octile = g;
        cr_assert_eq(ff_search(&octile, oct, &err), FF_OK);
        for (size_t i = 0; i < n; i++)
            cr_assert_leq(aa[i], oct[i] * (1 + 1e-12), "map %d cell %zu", k, i);
        if (g.corners == FF_CORNERS_CUT) {
            octile.corners = FF_CORNERS_FREE;
            cr_assert_eq(ff_search(&octile, oct, &err), FF_OK);
        }
        for (size_t i = 0; i < n; i++) {
            double straight = INFINITY;
            cr_assert_eq(isfinite(aa[i]), isfinite(oct[i]), "map %d cell %zu", k, i);
            cr_assert_leq(aa[i], oct[i] * (1 + 1e-12), "map %d cell %zu", k, i);
            for (size_t j = 0; j < g.ngoals; j++)
                straight = fmin(straight, hypot((double)(i % (size_t)w) - g.goals[j] % (size_t)w,
                                                (double)(i / (size_t)w) - g.goals[j] / (size_t)w));
            if (isfinite(aa[i]))
                cr_assert_geq(aa[i], straight * (1 - 1e-12), "map %d cell %zu", k, i);
        }
        free(aa);
        free(oct);
        ff_grid_free(&g);
    }
}

/* ---- the direction vectors ---- */

/* Each vector is a unit vector toward a point the cell sees, and one step
 * along the path it starts agrees with the distance: the distance of the
 * cell equals the length to that point plus the point's distance, which
 * for a goal is 0. */
Test(anyangle, vectors_point_along_a_shortest_path)
{
    ff_grid g;
    ff_error err;
    unsigned long long seed = 5;
    double *d;
    float *v;
    size_t n;

    random_map(&g, &seed, 30, 20, 0.2, 2, FF_CORNERS_STRICT);
    n = (size_t)g.w * (size_t)g.h;
    d = malloc(n * sizeof *d);
    v = malloc(2 * n * sizeof *v);
    cr_assert(d && v);
    cr_assert_eq(ff_anyangle_search(&g, d, v, &err), FF_OK);
    for (size_t i = 0; i < n; i++) {
        double len = hypot(v[2 * i], v[2 * i + 1]);
        if (!isfinite(d[i]) || d[i] == 0) {
            cr_assert_eq(len, 0.0, "cell %zu", i);
            continue;
        }
        cr_assert_float_eq(len, 1.0, 1e-6, "cell %zu", i);
    }
    /* A cell in the open straight south of a goal points north. */
    free(d);
    free(v);
    ff_grid_free(&g);
}

Test(anyangle, vectors_on_an_open_map_point_at_the_goal)
{
    ff_grid g;
    ff_error err;
    double d[35];
    float v[70];

    tu_make_grid(&g, 7, 5, "......."
                           "......."
                           "......."
                           "......."
                           ".......", FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 3, 2, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_anyangle_search(&g, d, v, &err), FF_OK);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) {
            double len = hypot(3 - x, 2 - y);
            if (len == 0)
                continue;
            cr_assert_float_eq(v[2 * (y * 7 + x)], (3 - x) / len, 1e-6);
            cr_assert_float_eq(v[2 * (y * 7 + x) + 1], (2 - y) / len, 1e-6);
        }
    ff_grid_free(&g);
}

/* Two corners give a cell the same distance: its vector points at the one
 * nearer a goal, then at the first in row order (anyangle.h).  A wall
 * across row 3 (x = 1..5) of a 7 x 7 map, the goal below it at (3,6):
 * from (3,0) the paths round the wall's two ends are mirror images, and
 * the vector points at its north-west corner (1,3), not (6,3), toward
 * (-2.5, 2.5).  The map turned a quarter: a wall down column 3, the goal
 * at (6,3); from (0,3) the vector points at (3,1), not (3,6), toward
 * (2.5, -2.5). */
Test(anyangle, a_tie_goes_to_the_first_corner)
{
    static const char *const rows[2] = { "......."
                                         "......."
                                         "......."
                                         ".#####."
                                         "......."
                                         "......."
                                         ".......",
                                         "......."
                                         "...#..."
                                         "...#..."
                                         "...#..."
                                         "...#..."
                                         "...#..."
                                         "......." };
    static const int goal[2][2] = { { 3, 6 }, { 6, 3 } }, from[2][2] = { { 3, 0 }, { 0, 3 } };
    static const double toward[2][2] = { { -1, 1 }, { 1, -1 } };

    for (int k = 0; k < 2; k++) {
        ff_grid g;
        ff_error err;
        double d[49];
        float v[98];
        int i = from[k][1] * 7 + from[k][0];
        tu_make_grid(&g, 7, 7, rows[k], FF_CORNERS_STRICT);
        cr_assert_eq(ff_grid_add_goal(&g, goal[k][0], goal[k][1], "t", 0, 0, &err), FF_OK);
        cr_assert_eq(ff_anyangle_search(&g, d, v, &err), FF_OK);
        cr_assert_float_eq(d[i], 1 + 2 * hypot(2.5, 2.5), 1e-12, "map %d", k);
        cr_assert_float_eq(v[2 * i], toward[k][0] / FF_SQRT2, 1e-6, "map %d", k);
        cr_assert_float_eq(v[2 * i + 1], toward[k][1] / FF_SQRT2, 1e-6, "map %d", k);
        ff_grid_free(&g);
    }
}

/* ---- refusals ---- */

Test(anyangle, refuses_what_it_does_not_define)
{
    ff_grid g;
    ff_error err;

    tu_make_grid(&g, 3, 1, ".~.", FF_CORNERS_STRICT);
    cr_assert_eq(ff_anyangle_check(&g, &err), FF_EUSAGE);
    cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_anyangle_check(&g, &err), FF_EINPUT);
    cr_assert_not_null(strstr(err.msg, "weighted case is not supported yet"));
    ff_grid_free(&g);
    tu_make_grid(&g, 3, 1, "..w", FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_anyangle_check(&g, &err), FF_EINPUT);
    ff_grid_free(&g);
    tu_make_grid(&g, 3, 1, "...", FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 0, 0, "t", 0, 0, &err), FF_OK);
    g.oneway = calloc(3, 1);
    cr_assert_eq(ff_anyangle_check(&g, &err), FF_EINPUT);
    cr_assert_not_null(strstr(err.msg, "one-way"));
    ff_grid_free(&g);
}

/* ---- the sight test itself, on cases worked by hand ---- */

Test(anyangle, sight_lines_by_hand)
{
    ff_grid g;

    tu_make_grid(&g, 3, 3, "..."
                           ".#."
                           "...", FF_CORNERS_STRICT);
    /* Along the wall's north face, corner to corner, and past it. */
    cr_assert(ff_free_segment(&g, 2, 2, 4, 2));
    cr_assert(ff_free_segment(&g, 0, 2, 6, 2));
    /* Through the wall's centre: no. */
    cr_assert_not(ff_free_segment(&g, 1, 1, 5, 5));
    /* Grazing its corner (2,2) on the diagonal from (0,0)'s centre to... */
    cr_assert(ff_free_segment(&g, 1, 3, 3, 1));
    ff_grid_free(&g);
    tu_make_grid(&g, 3, 2, ".#."
                           "##.", FF_CORNERS_CUT);
    /* Along the edge between two walls: no. */
    cr_assert_not(ff_free_segment(&g, 2, 2, 4, 2));
    ff_grid_free(&g);
    tu_make_grid(&g, 2, 2, ".#"
                           "#.", FF_CORNERS_STRICT);
    cr_assert_not(ff_free_segment(&g, 1, 1, 3, 3));
    g.corners = FF_CORNERS_CUT;
    cr_assert(ff_free_segment(&g, 1, 1, 3, 3));
    ff_grid_free(&g);
}

/* The clearance map against its definition: the least chessboard
 * distance from the cell to a wall or to a cell outside the map, by brute
 * force over every such cell, 0 on a wall. */
Test(anyangle, clearance_is_the_chessboard_distance_to_a_wall)
{
    unsigned long long seed = 77;

    for (int k = 0; k < 30; k++) {
        int w = 1 + (int)(tu_next(&seed) % 40), h = 1 + (int)(tu_next(&seed) % 40);
        uint8_t *clear = malloc((size_t)(w * h));
        ff_grid g;

        random_map(&g, &seed, w, h, 0.01 * (k % 6), 0, FF_CORNERS_STRICT);
        cr_assert_not_null(clear);
        ff_free_clearance(&g, clear);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                long long want = oracle_open(&g, x, y) ? LLONG_MAX : 0;
                for (int v = -1; v <= h && want; v++)
                    for (int u = -1; u <= w; u++)
                        if (!oracle_open(&g, u, v)) {
                            long long d = llabs((long long)u - x) > llabs((long long)v - y)
                                              ? llabs((long long)u - x)
                                              : llabs((long long)v - y);
                            want = d < want ? d : want;
                        }
                cr_assert_eq(clear[y * w + x], want > 255 ? 255 : want,
                             "map %d, cell %d,%d", k, x, y);
            }
        free(clear);
        ff_grid_free(&g);
    }
}

/* Leaping across open squares gives the oracle's answer: sparse walls
 * (0 to 6%, so squares are large), a block and six pinch points,
 * segments between random centres and grid vertices of the free space,
 * half of them through a pinch point, under each corner rule. */
Test(anyangle, leaping_sight_lines_match_the_oracle)
{
    unsigned long long seed = 2601;
    long long seen = 0, tried = 0;

    for (int k = 0; k < 24; k++) {
        int w = 20 + (int)(tu_next(&seed) % 41), h = 20 + (int)(tu_next(&seed) % 41);
        uint8_t *clear = malloc((size_t)(w * h));
        ff_grid g;

        random_map(&g, &seed, w, h, 0.01 * (k % 7), 0,
                   k % 3 == 0 ? FF_CORNERS_STRICT : k % 3 == 1 ? FF_CORNERS_CUT
                                                              : FF_CORNERS_FREE);
        long long pinch[6][2];
        for (int y = h / 3; y < h / 3 + 3; y++)
            for (int x = w / 2; x < w / 2 + 4; x++)
                g.cost[y * w + x] = INFINITY;
        /* Two walls touching at a corner, six times, in the open. */
        for (int p = 0; p < 6; p++) {
            int x = 1 + (int)(tu_next(&seed) % (unsigned)(w - 2));
            int y = 1 + (int)(tu_next(&seed) % (unsigned)(h - 2)), flip = (int)(tu_next(&seed) % 2);
            g.cost[(y - 1) * w + x - 1 + flip] = INFINITY;
            g.cost[y * w + x - flip] = INFINITY;
            pinch[p][0] = 2 * x;
            pinch[p][1] = 2 * y;
        }
        cr_assert_not_null(clear);
        ff_free_clearance(&g, clear);
        for (int j = 0; j < 3000; j++) {
            int vertex_a = (int)(tu_next(&seed) % 2), vertex_b = (int)(tu_next(&seed) % 2);
            long long ax = 2 * (long long)(tu_next(&seed) % (unsigned)(w + vertex_a)) + !vertex_a;
            long long ay = 2 * (long long)(tu_next(&seed) % (unsigned)(h + vertex_a)) + !vertex_a;
            long long bx = 2 * (long long)(tu_next(&seed) % (unsigned)(w + vertex_b)) + !vertex_b;
            long long by = 2 * (long long)(tu_next(&seed) % (unsigned)(h + vertex_b)) + !vertex_b;
            if (j % 2) {
                /* Through a pinch point: b the far end of a's line through
                 * it, a whole number of steps of (P - a) reduced on. */
                const long long *p = pinch[j / 2 % 6];
                long long ux = p[0] - ax, uy = p[1] - ay, gcd = llabs(ux), t = llabs(uy), m;
                while (t) {
                    m = gcd % t;
                    gcd = t;
                    t = m;
                }
                if (gcd == 0)
                    continue;
                ux /= gcd;
                uy /= gcd;
                if ((ux & 1) || (uy & 1)) {  /* keep b's parity a's */
                    ux *= 2;
                    uy *= 2;
                }
                m = 1 + (long long)(tu_next(&seed) % 40);
                while (m > 0 && (p[0] + m * ux < 0 || p[0] + m * ux > 2 * w ||
                                 p[1] + m * uy < 0 || p[1] + m * uy > 2 * h))
                    m--;
                if (m == 0)
                    continue;
                bx = p[0] + m * ux;
                by = p[1] + m * uy;
                vertex_b = vertex_a;
            }
            /* A vertex end must be in the free space (anyangle.h's roots are). */
            if ((vertex_a && !oracle_point_free(&g, ax, ay, 2)) ||
                (vertex_b && !oracle_point_free(&g, bx, by, 2)))
                continue;
            int want = oracle_sees(&g, ax, ay, bx, by);
            cr_assert_eq(ff_free_segment_leaping(&g, clear, ax, ay, bx, by), want,
                         "map %d (%dx%d): %lld,%lld to %lld,%lld", k, w, h, ax, ay, bx, by);
            seen += want;
            tried++;
        }
        free(clear);
        ff_grid_free(&g);
    }
    cr_expect(seen > tried / 4 && seen < tried, "both answers tried: %lld of %lld free", seen,
              tried);
}

/* ff_anyangle_directions: the search's own vectors for its own
 * distances; other distances are refused. */
Test(anyangle, directions_need_the_fields_own_distances)
{
    ff_grid g;
    ff_error err;
    unsigned long long seed = 17;
    size_t n;
    double *d;
    float *v1, *v2;

    random_map(&g, &seed, 25, 15, 0.2, 2, FF_CORNERS_CUT);
    n = (size_t)g.w * (size_t)g.h;
    d = malloc(n * sizeof *d);
    v1 = malloc(2 * n * sizeof *v1);
    v2 = malloc(2 * n * sizeof *v2);
    cr_assert(d && v1 && v2);
    cr_assert_eq(ff_anyangle_search(&g, d, v1, &err), FF_OK);
    cr_assert_eq(ff_anyangle_directions(&g, d, v2, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(memcmp(v1, v2, 2 * n * sizeof *v1), 0);
    for (size_t i = 0; i < n; i++)
        if (isfinite(d[i]) && d[i] > 0) {
            d[i] *= 1 + 1e-15;
            break;
        }
    cr_assert_eq(ff_anyangle_directions(&g, d, v2, &err), FF_EINPUT);
    cr_assert_not_null(strstr(err.msg, "rebuild the field with ffbuild --any-angle"));
    free(d);
    free(v1);
    free(v2);
    ff_grid_free(&g);
}

/* The corner path of every reachable cell, checked from the definition:
 * it starts at the cell's centre and ends at a goal's centre, its inner
 * points are grid vertices touching a wall, each segment is free by the
 * oracle's own sight test, and its length is the cell's distance. */
Test(anyangle, corner_paths_are_free_and_as_long_as_the_distance)
{
    unsigned long long seed = 4242;

    for (int k = 0; k < 12; k++) {
        ff_grid g;
        ff_error err;
        size_t n;
        double *d;
        random_map(&g, &seed, 12 + k, 10 + k % 5, 0.1 + 0.02 * k, 1 + k % 3,
                   k % 2 ? FF_CORNERS_CUT : FF_CORNERS_STRICT);
        g.cell_size = 2;
        g.origin_x = -3;
        n = (size_t)g.w * (size_t)g.h;
        d = malloc(n * sizeof *d);
        cr_assert_not_null(d);
        cr_assert_eq(ff_anyangle_search(&g, d, NULL, &err), FF_OK);
        for (size_t i = 0; i < n; i++) {
            long long x = (long long)(i % (size_t)g.w), y = (long long)(i / (size_t)g.w);
            double *xy, len = 0;
            size_t m;
            ff_status st = ff_anyangle_corner_path(&g, d, x, y, &xy, &m, &err);
            if (!isfinite(d[i])) {
                cr_assert_eq(st, FF_ENOTFOUND);
                continue;
            }
            cr_assert_eq(st, FF_OK, "%s", err.msg);
            /* back to half cells, whole numbers */
            for (size_t j = 0; j < 2 * m; j += 2) {
                xy[j] = (xy[j] - g.origin_x) / g.cell_size * 2;
                xy[j + 1] = (xy[j + 1] - g.origin_y) / g.cell_size * 2;
            }
            cr_assert(xy[0] == 2 * x + 1 && xy[1] == 2 * y + 1);
            cr_assert(ff_grid_is_goal(&g, (size_t)((xy[2 * m - 1] - 1) / 2) * (size_t)g.w +
                                              (size_t)((xy[2 * m - 2] - 1) / 2)),
                      "map %d cell %lld,%lld: the path ends off a goal", k, x, y);
            for (size_t j = 1; j < m; j++) {
                long long ax = (long long)xy[2 * j - 2], ay = (long long)xy[2 * j - 1];
                long long bx = (long long)xy[2 * j], by = (long long)xy[2 * j + 1];
                cr_assert(oracle_sees(&g, ax, ay, bx, by), "map %d cell %lld,%lld: segment %zu",
                          k, x, y, j);
                if (j + 1 < m)
                    cr_assert(bx % 2 == 0 && by % 2 == 0 &&
                                  (!oracle_open(&g, bx / 2 - 1, by / 2 - 1) ||
                                   !oracle_open(&g, bx / 2, by / 2 - 1) ||
                                   !oracle_open(&g, bx / 2 - 1, by / 2) ||
                                   !oracle_open(&g, bx / 2, by / 2)),
                              "map %d cell %lld,%lld: turn %zu not at a wall corner", k, x, y, j);
                len += 0.5 * hypot((double)(bx - ax), (double)(by - ay));
            }
            cr_assert_leq(fabs(len * g.cell_size - d[i]), 1e-9 * d[i] + 1e-12,
                          "map %d cell %lld,%lld: path %.17g, distance %.17g", k, x, y,
                          len * g.cell_size, d[i]);
            free(xy);
        }
        free(d);
        ff_grid_free(&g);
    }
}

/* The code that stands for a vector: none out of reach, goal for a zero
 * vector, else the nearest of the eight (y south), a degree either side
 * of the half-way line between E and SE. */
Test(anyangle, codes_stand_for_vectors)
{
    double d = 3.14159265358979323846 / 180, a = 21.5 * d, b = 23.5 * d;

    cr_expect_eq(ff_anyangle_code(INFINITY, 1, 0), FF_DIR_NONE);
    cr_expect_eq(ff_anyangle_code(0, 0, 0), FF_DIR_GOAL);
    cr_expect_eq(ff_anyangle_code(3, 1, 0), FF_DIR_E);
    cr_expect_eq(ff_anyangle_code(3, 0, -1), FF_DIR_N);
    cr_expect_eq(ff_anyangle_code(3, 0.6f, 0.8f), FF_DIR_SE);
    cr_expect_eq(ff_anyangle_code(3, -0.9f, 0.1f), FF_DIR_W);
    cr_expect_eq(ff_anyangle_code(3, (float)cos(a), (float)sin(a)), FF_DIR_E);
    cr_expect_eq(ff_anyangle_code(3, (float)cos(b), (float)sin(b)), FF_DIR_SE);
    cr_expect_eq(ff_anyangle_code(3, (float)cos(b), (float)-sin(b)), FF_DIR_NE);
}
