/* test_funnel.c - corridors (reading, checking, shrinking, cell paths) and
 * the funnel: hand-worked corridors with known shortest paths, and an
 * independent brute force (dynamic programming over finely sampled points
 * on each portal) on random corridors. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "funnel.h"

/* ---- helpers ---- */

static ff_status read_corridor(const char *text, ff_corridor *c, ff_error *err)
{
    FILE *f = tu_string_file(text);
    ff_records r;
    ff_status st;

    cr_assert_not_null(f);
    ff_records_init(&r, f, "-");
    ff_corridor_init(c);
    ff_error_clear(err);
    st = ff_corridor_read(c, &r, err);
    fclose(f);
    return st;
}

/* Run the funnel on a corridor text (with radius); the corners in out. */
static void funnel_text(const char *text, double radius, ff_path *out)
{
    ff_corridor c;
    ff_error err;

    cr_assert_eq(read_corridor(text, &c, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_corridor_shrink(&c, radius, "-", &err), FF_OK, "%s", err.msg);
    ff_path_init(out);
    cr_assert_eq(ff_funnel(&c, out, &err), FF_OK, "%s", err.msg);
    ff_corridor_free(&c);
}

/* The path must be exactly these points. */
static void expect_path(const ff_path *p, const double *want, size_t n, const char *what)
{
    size_t k;

    cr_assert_eq(p->n, n, "%s: %zu points, want %zu", what, p->n, n);
    for (k = 0; k < n; k++)
        cr_expect(p->xy[2 * k] == want[2 * k] && p->xy[2 * k + 1] == want[2 * k + 1],
                  "%s: point %zu is %.17g %.17g, want %.17g %.17g", what, k, p->xy[2 * k],
                  p->xy[2 * k + 1], want[2 * k], want[2 * k + 1]);
}

static void expect_funnel(const char *text, double radius, const double *want, size_t n,
                          const char *what)
{
    ff_path p;

    funnel_text(text, radius, &p);
    expect_path(&p, want, n, what);
    ff_path_free(&p);
}

/* ---- hand-worked corridors ---- */

/* A corridor of cells one wide along a row: the straight line, no corner. */
Test(funnel, straight_corridor)
{
    static const double want[] = { 0.5, 0.5, 4.5, 0.5 };
    expect_funnel("0.5 0.5\n1 0 1 1\n2 0 2 1\n3 0 3 1\n4 0 4 1\n4.5 0.5\n", 0, want, 2,
                  "straight");
    expect_funnel("0.5 0.5\n1 0 1 1\n2 0 2 1\n3 0 3 1\n4 0 4 1\n4.5 0.5\n", 0.25, want, 2,
                  "straight, radius 0.25");
}

/* Cells (0,2) (1,2) (2,2) east, then (2,1) (2,0) north: the straight line
 * from start to goal would leave the corridor, so the path bends at the
 * inner wall corner 2,2; with radius R the bend becomes two corners, each
 * R from the wall corner along the portals. */
#define L_TURN "0.5 2.5\n1 2 1 3\n2 2 2 3\n2 2 3 2\n2 1 3 1\n2.5 0.5\n"

Test(funnel, l_turn)
{
    static const double want[] = { 0.5, 2.5, 2, 2, 2.5, 0.5 };
    static const double want_r[] = { 0.5, 2.5, 2, 2.25, 2.25, 2, 2.5, 0.5 };
    ff_path p;

    expect_funnel(L_TURN, 0, want, 3, "L-turn");
    expect_funnel(L_TURN, 0.25, want_r, 4, "L-turn, radius 0.25");
    funnel_text(L_TURN, 0, &p);
    cr_expect(fabs(ff_polyline_length(p.xy, p.n) - 2 * sqrt(2.5)) < 1e-12);
    ff_path_free(&p);
}

/* Portals alternating high and low: every portal end on the way is a
 * corner, turning right, left, right. */
Test(funnel, zig_zag)
{
    static const double want[] = { 0, 0.5, 1, 1, 2, 2, 3, 1, 4, 0.5 };
    ff_path p;

    expect_funnel("0 0.5\n1 0 1 1\n2 2 2 3\n3 0 3 1\n4 0.5\n", 0, want, 5, "zig-zag");
    funnel_text("0 0.5\n1 0 1 1\n2 2 2 3\n3 0 3 1\n4 0.5\n", 0, &p);
    cr_expect(fabs(ff_polyline_length(p.xy, p.n) - (2 * sqrt(1.25) + 2 * sqrt(2))) < 1e-12);
    ff_path_free(&p);
}

/* East along row 0, south down column 2, west along row 2: the path hugs
 * the inner wall's two corners 2,1 and 2,2. */
#define U_TURN "0.5 0.5\n1 0 1 1\n2 0 2 1\n3 1 2 1\n3 2 2 2\n2 3 2 2\n1 3 1 2\n0.5 2.5\n"

Test(funnel, u_turn)
{
    static const double want[] = { 0.5, 0.5, 2, 1, 2, 2, 0.5, 2.5 };
    static const double want_r[] = { 0.5, 0.5, 2, 0.75, 2.25, 1, 2.25, 2, 2, 2.25, 0.5, 2.5 };
    ff_path p;

    expect_funnel(U_TURN, 0, want, 4, "U-turn");
    funnel_text(U_TURN, 0, &p);
    cr_expect(fabs(ff_polyline_length(p.xy, p.n) - (2 * sqrt(2.5) + 1)) < 1e-12);
    ff_path_free(&p);
    /* With R = 0.25 each wall corner becomes two corners R off it. */
    expect_funnel(U_TURN, 0.25, want_r, 6, "U-turn, radius 0.25");
}

Test(funnel, narrow_portal_refused)
{
    ff_corridor c;
    ff_error err;

    cr_assert_eq(read_corridor("0 0.5\n1 0 1 1\n\n2 0.3 2 0.7\n3 0.5\n", &c, &err), FF_OK);
    cr_assert_eq(ff_corridor_shrink(&c, 0.25, "-", &err), FF_ENOTFOUND);
    cr_expect_eq(err.line, 4);
    cr_expect(strstr(err.msg, "portal 2 is 0.4 wide") != NULL, "%s", err.msg);
    ff_corridor_free(&c);
    /* Exactly 2R wide: the portal becomes its midpoint. */
    cr_assert_eq(read_corridor("0 0.5\n1 0 1 1\n2 0.25 2 0.75\n3 0\n", &c, &err), FF_OK);
    cr_assert_eq(ff_corridor_shrink(&c, 0.25, "-", &err), FF_OK);
    cr_expect(c.portal[1].lx == 2 && c.portal[1].ly == 0.5 && c.portal[1].rx == 2 &&
              c.portal[1].ry == 0.5);
    ff_corridor_free(&c);
    /* 0.7 - 0.3 is a rounding short of 0.4: still 2R = 0.4 wide. */
    cr_assert_eq(read_corridor("0 0.5\n1 0 1 1\n2 0.3 2 0.7\n3 0.5\n", &c, &err), FF_OK);
    cr_expect_eq(ff_corridor_shrink(&c, 0.2, "-", &err), FF_OK, "%s", err.msg);
    cr_expect(c.portal[1].ly == c.portal[1].ry && fabs(c.portal[1].ly - 0.5) < 1e-15);
    ff_corridor_free(&c);
    cr_assert_eq(read_corridor("0 0.5\n1 0 1 1\n2 0.3 2 0.7\n3 0.5\n", &c, &err), FF_OK);
    cr_expect_eq(ff_corridor_shrink(&c, 0.2000001, "-", &err), FF_ENOTFOUND);
    ff_corridor_free(&c);
}

Test(funnel, degenerate_corridors)
{
    static const double through[] = { 0, 0, 2, 0 };
    static const double far[] = { 0, 0, 4, 0 };
    static const double left_end[] = { 0, 0, 1, 1, 2, 0 };
    static const double right_end[] = { 0, 0, 1, -1, 2, 0 };
    static const double on_start[] = { 1, 0, 2, 1, 3, 5 };
    static const double on_goal[] = { 0, 0, 1, 0.5, 2, 0.5 };
    static const double pinch[] = { 0, 0, 1, 1, 2, 0 };
    static const double line[] = { 0, 0, 3, 3 };
    static const double same[] = { 1, 1, 1, 1 };

    /* A single portal: crossed straight, or passed round one end (walking
     * east, left is north: smaller y). */
    expect_funnel("0 0\n1 -1 1 1\n2 0\n", 0, through, 2, "single portal");
    expect_funnel("0 0\n1 1 1 2\n2 0\n", 0, left_end, 3, "single portal, left end");
    expect_funnel("0 0\n1 -2 1 -1\n2 0\n", 0, right_end, 3, "single portal, right end");
    /* Collinear portals, all the same width: straight through. */
    expect_funnel("0 0\n1 -1 1 1\n2 -1 2 1\n3 -1 3 1\n4 0\n", 0, far, 2, "collinear");
    /* The start on the first portal, the goal on the last. */
    expect_funnel("1 0\n1 -1 1 1\n2 -1 2 1\n3 5\n", 0, on_start, 3, "start on a portal");
    expect_funnel("0 0\n1 0.5 1 1\n2 0 2 1\n2 0.5\n", 0, on_goal, 3, "goal on a portal");
    /* Zero-width portals with R = 0: the path passes through the points. */
    expect_funnel("0 0\n1 1 1 1\n2 0\n", 0, pinch, 3, "zero-width portal");
    expect_funnel("0 0\n1 1 1 1\n2 2 2 2\n3 3\n", 0, line, 2, "collinear zero-width portals");
    /* No portal at all, and a start equal to the goal. */
    expect_funnel("0 0\n2 0\n", 0, through, 2, "no portal");
    expect_funnel("1 1\n1 1\n", 0, same, 2, "start is the goal");
}

/* ---- reading and checking ---- */

Test(funnel, read_corridor)
{
    ff_corridor c;
    ff_error err;

    cr_assert_eq(read_corridor("# a corridor\n0 0.5\n\n1 0 1 1  # first\n2 0 2 1\n3 0.5\n", &c,
                               &err),
                 FF_OK, "%s", err.msg);
    cr_expect_eq(c.n, 2);
    cr_expect(c.start_x == 0 && c.start_y == 0.5 && c.goal_x == 3 && c.goal_y == 0.5);
    cr_expect_eq(c.start_line, 2);
    cr_expect_eq(c.portal[0].line, 4);
    cr_expect_eq(c.goal_line, 6);
    ff_corridor_free(&c);
}

/* Arrays, not pointers: Criterion copies the parameters into each test's
 * process, where the parent's addresses mean nothing. */
typedef struct {
    char text[64];
    long line;
    char what[40];
} bad_input;

ParameterizedTestParameters(funnel, malformed)
{
    static bad_input cases[] = {
        { "", 0, "empty input" },
        { "# only a comment\n", 0, "empty input" },
        { "0 0\n", 1, "one point" },
        { "0 0\n1 0 1 1\n", 2, "without a goal" },
        { "1 0 1 1\n2 0\n", 1, "first line must be the start" },
        { "0 0\n1 0 1\n2 0\n", 2, "3 numbers" },
        { "0 0\n1 0 1 1\n1.5 0\n2 0 2 1\n3 0\n", 3, "a point before the end" },
        { "0 0\n1 0 x 1\n2 0\n", 2, "not a number" },
        { "0 0\n1 0 nan 1\n2 0\n", 2, "not a finite number" },
        { "0 0\n1 0 inf 1\n2 0\n", 2, "not a finite number" },
        { "0 0\n1 0 1 1 5\n2 0\n", 2, "more than 4 numbers" },
        { "0 0\n1 0 1e200 1\n2 0\n", 2, "out of range" },
        { "0 0\n1\n", 2, "1 number" },
    };
    return cr_make_param_array(bad_input, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(bad_input *b, funnel, malformed)
{
    ff_corridor c;
    ff_error err;

    cr_assert_eq(read_corridor(b->text, &c, &err), FF_EINPUT, "accepted: %s", b->text);
    cr_expect_eq(err.line, b->line, "'%s': line %ld, want %ld (%s)", b->text, err.line, b->line,
                 err.msg);
    cr_expect(strstr(err.msg, b->what) != NULL, "'%s' does not say '%s'", err.msg, b->what);
    cr_expect_str_eq(err.file, "-");
    ff_corridor_free(&c);
}

Test(funnel, backwards_portals_refused)
{
    ff_corridor c;
    ff_error err;

    /* The U-turn with its third portal's ends swapped. */
    cr_assert_eq(read_corridor("0.5 0.5\n1 0 1 1\n2 0 2 1\n2 1 3 1\n3 2 2 2\n0.5 2.5\n", &c, &err),
                 FF_OK);
    cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_EINPUT);
    cr_expect_eq(err.line, 4, "%s", err.msg);
    ff_corridor_free(&c);
    /* The first portal swapped: the start lies ahead of it. */
    cr_assert_eq(read_corridor("0 0.5\n1 1 1 0\n2 0.5\n", &c, &err), FF_OK);
    cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    ff_corridor_free(&c);
    /* A goal behind the last portal. */
    cr_assert_eq(read_corridor("0 0.5\n1 0 1 1\n0.5 0.5\n", &c, &err), FF_OK);
    cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_EINPUT);
    cr_expect_eq(err.line, 3);
    ff_corridor_free(&c);
}

/* ---- cell paths ---- */

static void cell_path(ff_path *p, const int *xy, size_t n, double cell, double ox, double oy)
{
    ff_error err;
    size_t k;

    ff_path_init(p);
    for (k = 0; k < n; k++)
        cr_assert_eq(ff_path_push(p, ox + cell * (xy[2 * k] + 0.5), oy + cell * (xy[2 * k + 1] + 0.5),
                                  (long)k + 1, &err),
                     FF_OK);
}

static void expect_portal(const ff_portal *p, double lx, double ly, double rx, double ry,
                          const char *what)
{
    cr_expect(p->lx == lx && p->ly == ly && p->rx == rx && p->ry == ry,
              "%s: portal %g %g %g %g, want %g %g %g %g", what, p->lx, p->ly, p->rx, p->ry, lx,
              ly, rx, ry);
}

Test(funnel, cells_orthogonal_portals)
{
    /* Around the 3 x 3 map's center clockwise from the west: E, N... */
    static const int walk[] = { 0, 1, 1, 1, 1, 0, 2, 0, 2, 1, 2, 2, 1, 2, 0, 2, 0, 1 };
    ff_grid g;
    ff_path p;
    ff_corridor c;
    ff_error err;

    tu_make_grid(&g, 3, 3, ".........", FF_CORNERS_STRICT);
    cell_path(&p, walk, 9, 2.0, 10, 20);
    g.cell_size = 2.0;
    g.origin_x = 10;
    g.origin_y = 20;
    ff_corridor_init(&c);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(c.n, 8);
    /* E from (0,1): the edge x = 1, left (north) end first. */
    expect_portal(&c.portal[0], 12, 22, 12, 24, "east");
    /* N from (1,1): the edge y = 1, left (west) end first. */
    expect_portal(&c.portal[1], 12, 22, 14, 22, "north");
    expect_portal(&c.portal[2], 14, 20, 14, 22, "east again");
    /* S from (2,0): the edge y = 1, left is east. */
    expect_portal(&c.portal[3], 16, 22, 14, 22, "south");
    /* W from (2,2): the edge x = 2, left is south. */
    expect_portal(&c.portal[5], 14, 26, 14, 24, "west");
    cr_expect(c.start_x == 11 && c.start_y == 23 && c.goal_x == 11 && c.goal_y == 23);
    cr_expect_eq(ff_corridor_check(&c, "-", &err), FF_OK, "%s", err.msg);
    ff_corridor_free(&c);
    ff_path_free(&p);
    ff_grid_free(&g);
}

Test(funnel, cells_diagonal_steps)
{
    static const int ne[] = { 0, 1, 1, 0 };
    ff_grid g;
    ff_path p;
    ff_corridor c;
    ff_error err;

    /* Both side cells open: the x side (1,1) comes first: E then N. */
    tu_make_grid(&g, 2, 2, "....", FF_CORNERS_STRICT);
    cell_path(&p, ne, 2, 1, 0, 0);
    ff_corridor_init(&c);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK);
    cr_assert_eq(c.n, 2);
    expect_portal(&c.portal[0], 1, 1, 1, 2, "x side first: east");
    expect_portal(&c.portal[1], 1, 1, 2, 1, "then north");
    ff_corridor_free(&c);
    ff_grid_free(&g);
    /* The x side blocked (cut corners): the y side (0,0): N then E. */
    tu_make_grid(&g, 2, 2, "...#", FF_CORNERS_CUT);
    ff_corridor_init(&c);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK);
    cr_assert_eq(c.n, 2);
    expect_portal(&c.portal[0], 0, 1, 1, 1, "y side: north");
    expect_portal(&c.portal[1], 1, 0, 1, 1, "then east");
    ff_corridor_free(&c);
    ff_grid_free(&g);
    /* The x side of another terrain class counts as closed. */
    tu_make_grid(&g, 2, 2, "...w", FF_CORNERS_CUT);
    ff_corridor_init(&c);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK);
    expect_portal(&c.portal[0], 0, 1, 1, 1, "class: y side");
    ff_corridor_free(&c);
    ff_grid_free(&g);
    /* Both blocked (free corners): the corner point, width 0. */
    tu_make_grid(&g, 2, 2, "#..#", FF_CORNERS_FREE);
    ff_corridor_init(&c);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK);
    cr_assert_eq(c.n, 1);
    expect_portal(&c.portal[0], 1, 1, 1, 1, "pinch");
    cr_expect_eq(ff_corridor_shrink(&c, 0.1, "-", &err), FF_ENOTFOUND);
    ff_corridor_free(&c);
    ff_grid_free(&g);
    ff_path_free(&p);
}

Test(funnel, cells_refused)
{
    static const int jump[] = { 0, 0, 2, 0 };
    static const int wall[] = { 0, 0, 1, 0 };
    static const int repeat[] = { 0, 0, 0, 0, 1, 0, 1, 0 };
    ff_grid g;
    ff_path p;
    ff_corridor c;
    ff_error err;

    tu_make_grid(&g, 3, 1, ".#.", FF_CORNERS_STRICT);
    cell_path(&p, jump, 2, 1, 0, 0);
    ff_corridor_init(&c);
    cr_expect_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.msg, "not a neighbour") != NULL, "%s", err.msg);
    ff_corridor_free(&c);
    ff_path_free(&p);
    cell_path(&p, wall, 2, 1, 0, 0);
    cr_expect_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "blocked cell 1,0") != NULL, "%s", err.msg);
    ff_corridor_free(&c);
    ff_path_free(&p);
    cell_path(&p, jump, 1, 1, 0, 0);
    cr_expect_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "at least two") != NULL, "%s", err.msg);
    ff_corridor_free(&c);
    ff_path_free(&p);
    cr_assert_eq(ff_path_push(&p, -0.5, 0.5, 7, &err), FF_OK);
    cr_assert_eq(ff_path_push(&p, 0.5, 0.5, 8, &err), FF_OK);
    cr_expect_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_EINPUT);
    cr_expect_eq(err.line, 7);
    cr_expect(strstr(err.msg, "outside") != NULL, "%s", err.msg);
    ff_corridor_free(&c);
    ff_path_free(&p);
    ff_grid_free(&g);
    /* Repeated cells are one cell. */
    tu_make_grid(&g, 2, 1, "..", FF_CORNERS_STRICT);
    cell_path(&p, repeat, 4, 1, 0, 0);
    cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK);
    cr_expect_eq(c.n, 1);
    ff_corridor_free(&c);
    ff_path_free(&p);
    ff_grid_free(&g);
}

/* ---- brute force ---- */

/* The shortest polyline from the start through samples+1 evenly spaced
 * points on each portal, in order, to the goal: dynamic programming over
 * the samples of consecutive portals.  The funnel's path crosses each
 * portal somewhere; moving each crossing to the nearest sample lengthens it
 * by at most twice half the spacing, so
 *     brute - sum(width)/samples <= funnel <= brute. */
static double brute_force(const ff_corridor *c, int samples, double *slack)
{
    double *prev = malloc((size_t)(samples + 1) * 3 * sizeof *prev);
    double *cur = malloc((size_t)(samples + 1) * 3 * sizeof *cur);
    double best = INFINITY;
    int nprev = 1, a, b;
    size_t k;

    cr_assert(prev && cur);
    prev[0] = c->start_x;
    prev[1] = c->start_y;
    prev[2] = 0;
    *slack = 0;
    for (k = 0; k < c->n; k++) {
        const ff_portal *p = &c->portal[k];
        double *t;
        *slack += hypot(p->rx - p->lx, p->ry - p->ly) / samples;
        for (a = 0; a <= samples; a++) {
            double f = (double)a / samples, x = p->lx + f * (p->rx - p->lx),
                   y = p->ly + f * (p->ry - p->ly), d = INFINITY;
            for (b = 0; b < nprev; b++) {
                double e = prev[3 * b + 2] + hypot(x - prev[3 * b], y - prev[3 * b + 1]);
                if (e < d)
                    d = e;
            }
            cur[3 * a] = x;
            cur[3 * a + 1] = y;
            cur[3 * a + 2] = d;
        }
        nprev = samples + 1;
        t = prev;
        prev = cur;
        cur = t;
    }
    for (b = 0; b < nprev; b++) {
        double e = prev[3 * b + 2] + hypot(c->goal_x - prev[3 * b], c->goal_y - prev[3 * b + 1]);
        if (e < best)
            best = e;
    }
    free(prev);
    free(cur);
    return best;
}

/* Every corner is the start, the goal or a portal end, exactly. */
static void expect_corners_are_ends(const ff_corridor *c, const ff_path *p)
{
    size_t k, j;

    for (k = 0; k < p->n; k++) {
        double x = p->xy[2 * k], y = p->xy[2 * k + 1];
        int found = (x == c->start_x && y == c->start_y) || (x == c->goal_x && y == c->goal_y);
        for (j = 0; !found && j < c->n; j++)
            found = (x == c->portal[j].lx && y == c->portal[j].ly) ||
                    (x == c->portal[j].rx && y == c->portal[j].ry);
        cr_expect(found, "corner %zu (%.17g %.17g) is no portal end", k, x, y);
    }
}

static void compare_with_brute_force(const ff_corridor *c, const char *what, int trial)
{
    ff_path p;
    ff_error err;
    double brute, slack, len;

    ff_path_init(&p);
    cr_assert_eq(ff_funnel(c, &p, &err), FF_OK);
    len = ff_polyline_length(p.xy, p.n);
    brute = brute_force(c, 64, &slack);
    cr_expect(len <= brute + 1e-9, "%s %d: funnel %.12f longer than brute force %.12f", what,
              trial, len, brute);
    cr_expect(len >= brute - slack - 1e-9,
              "%s %d: funnel %.12f shorter than brute force %.12f by more than %.12f", what,
              trial, len, brute, slack);
    expect_corners_are_ends(c, &p);
    ff_path_free(&p);
}

/* Vertical portals at increasing x with random spans (every consecutive
 * pair bounds a trapezoid), turned by a random rotation: zig-zags, wide
 * and narrow stretches, funnels that restart often. */
Test(funnel, brute_force_random_strips)
{
    unsigned long long seed = 42;
    int trial;

    for (trial = 0; trial < 300; trial++) {
        int n = 1 + (int)(tu_next(&seed) % 25), k;
        double angle = (double)(tu_next(&seed) % 6283) / 1000.0, ca = cos(angle), sa = sin(angle);
        double x = 0, radius = trial % 3 == 0 ? 0.1 : 0;
        ff_corridor c;
        ff_error err;
        ff_corridor_init(&c);
#define TURN_X(px, py) (ca * (px) - sa * (py))
#define TURN_Y(px, py) (sa * (px) + ca * (py))
        {
            double sy = (double)(tu_next(&seed) % 100) / 10.0;
            c.start_x = TURN_X(0.0, sy);
            c.start_y = TURN_Y(0.0, sy);
        }
        for (k = 0; k < n; k++) {
            double lo = (double)(tu_next(&seed) % 100) / 10.0;
            double hi = lo + 0.3 + (double)(tu_next(&seed) % 60) / 10.0;
            x += 0.2 + (double)(tu_next(&seed) % 30) / 10.0;
            /* Walking east (+x) with y south, left is the smaller y. */
            cr_assert_eq(ff_corridor_push(&c, TURN_X(x, lo), TURN_Y(x, lo), TURN_X(x, hi),
                                          TURN_Y(x, hi), k + 2, &err),
                         FF_OK);
        }
        x += 0.2 + (double)(tu_next(&seed) % 30) / 10.0;
        {
            double gy = (double)(tu_next(&seed) % 100) / 10.0;
            c.goal_x = TURN_X(x, gy);
            c.goal_y = TURN_Y(x, gy);
        }
#undef TURN_X
#undef TURN_Y
        cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_OK, "trial %d: %s", trial, err.msg);
        cr_assert_eq(ff_corridor_shrink(&c, radius, "-", &err), FF_OK);
        compare_with_brute_force(&c, "strip", trial);
        ff_corridor_free(&c);
    }
}

/* Self-avoiding random walks of cells (8 moves) on an open map, made into
 * corridors by ff_corridor_from_cells: L-turns, U-turns, spirals. */
Test(funnel, brute_force_random_cell_walks)
{
    enum { W = 12, H = 12 };
    unsigned long long seed = 7;
    ff_grid g;
    int trial;

    tu_make_grid(&g, W, H, "............................................................"
                        "............................................................"
                        "........................",
              FF_CORNERS_STRICT);
    for (trial = 0; trial < 200; trial++) {
        unsigned char used[W * H];
        int walk[2 * W * H], n = 1, tries = 0;
        ff_path p;
        ff_corridor c;
        ff_error err;
        memset(used, 0, sizeof used);
        walk[0] = (int)(tu_next(&seed) % W);
        walk[1] = (int)(tu_next(&seed) % H);
        used[walk[1] * W + walk[0]] = 1;
        while (n < 40 && tries < 400) {
            int d = (int)(tu_next(&seed) % (trial % 2 ? 4 : 8));
            int x = walk[2 * n - 2] + ff_dir_dx[d], y = walk[2 * n - 1] + ff_dir_dy[d];
            tries++;
            /* A diagonal step's side cell must be free too: it joins the
             * corridor. */
            if (x < 0 || y < 0 || x >= W || y >= H || used[y * W + x] ||
                (d >= 4 && used[walk[2 * n - 1] * W + x]))
                continue;
            if (d >= 4)
                used[walk[2 * n - 1] * W + x] = 1;
            used[y * W + x] = 1;
            walk[2 * n] = x;
            walk[2 * n + 1] = y;
            n++;
        }
        if (n < 2)
            continue;
        cell_path(&p, walk, (size_t)n, 1, 0, 0);
        ff_corridor_init(&c);
        cr_assert_eq(ff_corridor_from_cells(&g, &p, "-", &c, &err), FF_OK, "%s", err.msg);
        cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_OK, "trial %d: %s", trial, err.msg);
        cr_assert_eq(ff_corridor_shrink(&c, trial % 3 ? 0 : 0.3, "-", &err), FF_OK);
        compare_with_brute_force(&c, "cell walk", trial);
        ff_corridor_free(&c);
        ff_path_free(&p);
    }
    ff_grid_free(&g);
}
