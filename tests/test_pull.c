/* test_pull.c - paths and string pulling: reading and writing points,
 * hand-worked pulls, and grid paths (followed along the direction field
 * here, not through ffquery) on random maps and on the Moving AI maps,
 * each pulled segment checked by a separate line-of-sight reference. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "direction.h"
#include "funnel.h"
#include "mapread.h"
#include "pull.h"
#include "search.h"

/* ---- reading and writing ---- */

Test(pull, read_path)
{
    FILE *f = tu_string_file("# a path\n1 2\n\n  3.5\t-4 # here\n");
    ff_records r;
    ff_path p;
    ff_error err;

    ff_records_init(&r, f, "-");
    ff_path_init(&p);
    cr_assert_eq(ff_path_read(&p, &r, &err), FF_OK);
    cr_assert_eq(p.n, 2);
    cr_expect(p.xy[0] == 1 && p.xy[1] == 2 && p.xy[2] == 3.5 && p.xy[3] == -4);
    cr_expect(p.line[0] == 2 && p.line[1] == 4);
    fclose(f);
    ff_path_free(&p);
}

Test(pull, read_path_refused)
{
    static const char *const bad[] = { "1 2\n3\n", "1 2\n3 4 5\n", "1 2\n3 nan\n", "1 2\n3 -inf\n",
                                       "1 2\n3 4x\n" };
    static const long line[] = { 2, 2, 2, 2, 2 };
    size_t k;

    for (k = 0; k < sizeof bad / sizeof *bad; k++) {
        FILE *f = tu_string_file(bad[k]);
        ff_records r;
        ff_path p;
        ff_error err;
        ff_records_init(&r, f, "-");
        ff_path_init(&p);
        cr_expect_eq(ff_path_read(&p, &r, &err), FF_EINPUT, "accepted '%s'", bad[k]);
        cr_expect_eq(err.line, line[k], "'%s': line %ld", bad[k], err.line);
        fclose(f);
        ff_path_free(&p);
    }
}

/* Each number in its shortest form that reads back the same. */
Test(pull, write_exact)
{
    char buf[256];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    double third = 1.0 / 3.0, back;

    ff_point_write(f, 0.1, 3.5);
    ff_point_write(f, third, -0.0);
    ff_point_write(f, 1e-300, 123456789.125);
    fclose(f);
    cr_expect_str_eq(buf, "0.1 3.5\n0.3333333333333333 -0\n1e-300 123456789.125\n");
    back = strtod("0.3333333333333333", NULL);
    cr_expect(back == third);
}

/* ---- a reference line of sight for cell centers ----
 *
 * Coordinates doubled, so cell centers are odd integers and cell (i, j)
 * is the square [2i, 2i+2] x [2j, 2j+2].  A segment between two centers
 * never runs along a grid line; it meets a cell's interior exactly when no
 * axis separates them (the square's two, and the segment's normal), and it
 * touches cells at a grid corner exactly when the corner lies on it. */


static long long cross(long long ax, long long ay, long long bx, long long by, long long cx,
                       long long cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static int meets_interior(long long px, long long py, long long qx, long long qy, long long i,
                          long long j)
{
    int pos = 0, neg = 0, k;

    if ((px > qx ? px : qx) <= 2 * i || (px < qx ? px : qx) >= 2 * i + 2 ||
        (py > qy ? py : qy) <= 2 * j || (py < qy ? py : qy) >= 2 * j + 2)
        return 0;
    for (k = 0; k < 4; k++) {
        long long c = cross(px, py, qx, qy, 2 * i + 2 * (k & 1), 2 * j + (k & 2));
        pos |= c > 0;
        neg |= c < 0;
    }
    return pos && neg;
}

/* Sight between the centers of cells (ax, ay) and (bx, by) by the rule. */
static int ref_sight(const ff_grid *g, ff_corners rule, long long ax, long long ay, long long bx,
                     long long by)
{
    long long px = 2 * ax + 1, py = 2 * ay + 1, qx = 2 * bx + 1, qy = 2 * by + 1;
    long long i, j;
    tu_sight_cells r;

    r = tu_sight_from(g, ax, ay);
    if (!tu_sight_open(&r, ax, ay) || !tu_sight_open(&r, bx, by))
        return 0;
    for (j = (ay < by ? ay : by) - 1; j <= (ay > by ? ay : by) + 1; j++)
        for (i = (ax < bx ? ax : bx) - 1; i <= (ax > bx ? ax : bx) + 1; i++)
            if (meets_interior(px, py, qx, qy, i, j) && !tu_sight_open(&r, i, j))
                return 0;
    /* Grid corners on the segment (even coordinates between the ends). */
    for (j = (ay < by ? ay : by) + 1; j <= (ay > by ? ay : by); j++)
        for (i = (ax < bx ? ax : bx) + 1; i <= (ax > bx ? ax : bx); i++) {
            int sides = 0, k;
            if (cross(px, py, qx, qy, 2 * i, 2 * j) != 0)
                continue;
            /* The two cells at the corner whose interior the segment
             * misses are the side cells; the other two it crosses. */
            for (k = 0; k < 4; k++) {
                long long ci = i - 1 + (k & 1), cj = j - 1 + (k >> 1);
                if (!meets_interior(px, py, qx, qy, ci, cj))
                    sides += tu_sight_open(&r, ci, cj);
            }
            if ((rule == FF_CORNERS_STRICT && sides < 2) || (rule == FF_CORNERS_CUT && sides < 1))
                return 0;
        }
    return 1;
}

/* ---- grid paths ---- */

/* The cell path from (sx, sy) along the direction field to the goal, as
 * cell centers in world units. */
static void follow(const ff_grid *g, const uint8_t *dir, int sx, int sy, ff_path *p)
{
    ff_error err;
    int x = sx, y = sy;
    size_t steps = 0;

    ff_path_init(p);
    for (;;) {
        int d = dir[(size_t)y * (size_t)g->w + (size_t)x];
        cr_assert_eq(ff_path_push(p, g->origin_x + g->cell_size * (x + 0.5),
                                  g->origin_y + g->cell_size * (y + 0.5), 0, &err),
                     FF_OK);
        if (d == FF_DIR_GOAL)
            break;
        cr_assert_lt(d, 8, "no way on from %d,%d", x, y);
        cr_assert_lt(steps++, (size_t)g->w * (size_t)g->h, "the path loops");
        x += ff_dir_dx[d];
        y += ff_dir_dy[d];
    }
}

typedef struct {
    double grid, pulled, funnel;  /* lengths summed */
    size_t points, kept, paths;
} totals;

/* Pull the path and check it: a subsequence with both ends, each segment
 * in sight by the reference, each jump locally the farthest (the point
 * after it is out of sight), no longer than the path; then the corridor
 * of its cells through the funnel, no longer than the path either. */
static void check_pull(const ff_grid *g, const ff_path *p, const char *what, totals *t)
{
    size_t *keep = malloc(p->n * sizeof *keep), nkeep = 0, k;
    double *xy = malloc(p->n * 2 * sizeof *xy), grid_len = ff_polyline_length(p->xy, p->n), len;
    ff_corridor c;
    ff_path corners;
    ff_error err;

    cr_assert(keep && xy);
    cr_assert_eq(ff_pull(g, p, "-", keep, &nkeep, &err), FF_OK, "%s: %s", what, err.msg);
    cr_assert_geq(nkeep, 2);
    cr_assert_eq(keep[0], 0);
    cr_assert_eq(keep[nkeep - 1], p->n - 1);
    for (k = 0; k < nkeep; k++) {
        size_t i = keep[k];
        xy[2 * k] = p->xy[2 * i];
        xy[2 * k + 1] = p->xy[2 * i + 1];
        if (k + 1 < nkeep) {
            size_t j = keep[k + 1];
            long long ax = (long long)floor(p->xy[2 * i]), ay = (long long)floor(p->xy[2 * i + 1]);
            long long bx = (long long)floor(p->xy[2 * j]), by = (long long)floor(p->xy[2 * j + 1]);
            cr_assert_gt(j, i);
            cr_expect(j == i + 1 || ref_sight(g, g->corners, ax, ay, bx, by),
                      "%s: pulled segment %zu -> %zu (%lld,%lld -> %lld,%lld) is not in sight",
                      what, i, j, ax, ay, bx, by);
            if (j + 1 < p->n)
                cr_expect(!ref_sight(g, g->corners, ax, ay, (long long)floor(p->xy[2 * j + 2]),
                                     (long long)floor(p->xy[2 * j + 3])),
                          "%s: from %zu the jump stops at %zu, but %zu is in sight too", what, i,
                          j, j + 1);
        }
    }
    len = ff_polyline_length(xy, nkeep);
    cr_expect_leq(len, grid_len + 1e-9, "%s: pulled %g, grid path %g", what, len, grid_len);
    ff_corridor_init(&c);
    ff_path_init(&corners);
    cr_assert_eq(ff_corridor_from_cells(g, p, "-", &c, &err), FF_OK, "%s: %s", what, err.msg);
    cr_assert_eq(ff_corridor_check(&c, "-", &err), FF_OK, "%s: %s", what, err.msg);
    cr_assert_eq(ff_funnel(&c, &corners, &err), FF_OK);
    cr_expect_leq(ff_polyline_length(corners.xy, corners.n), grid_len + 1e-9);
    if (t) {
        t->grid += grid_len;
        t->pulled += len;
        t->funnel += ff_polyline_length(corners.xy, corners.n);
        t->points += p->n;
        t->kept += nkeep;
        t->paths++;
    }
    ff_path_free(&corners);
    ff_corridor_free(&c);
    free(xy);
    free(keep);
}

/* ---- hand-worked pulls ---- */

static void grid_from_rows(ff_grid *g, int w, int h, const char *rows, ff_corners corners)
{
    ff_error err;
    int i;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->corners = corners;
    for (i = 0; i < w * h; i++)
        g->cost[i] = rows[i] == '#' ? INFINITY : rows[i] == '~' ? 4.0f : 1.0f;
}

static void pull_points(const ff_grid *g, const double *xy, size_t n, size_t *keep, size_t *nkeep)
{
    ff_path p;
    ff_error err;
    size_t k;

    ff_path_init(&p);
    for (k = 0; k < n; k++)
        cr_assert_eq(ff_path_push(&p, xy[2 * k], xy[2 * k + 1], (long)k + 1, &err), FF_OK);
    cr_assert_eq(ff_pull(g, &p, "-", keep, nkeep, &err), FF_OK, "%s", err.msg);
    ff_path_free(&p);
}

Test(pull, straight_run_keeps_its_ends)
{
    double xy[2 * 9];
    size_t keep[9], nkeep, k;
    ff_grid g;

    grid_from_rows(&g, 9, 1, ".........", FF_CORNERS_STRICT);
    for (k = 0; k < 9; k++) {
        xy[2 * k] = k + 0.5;
        xy[2 * k + 1] = 0.5;
    }
    pull_points(&g, xy, 9, keep, &nkeep);
    cr_expect_eq(nkeep, 2);
    cr_expect(keep[0] == 0 && keep[1] == 8);
    ff_grid_free(&g);
}

/* Around the east end of a wall: east along row 0, down column 4, west
 * along row 2.  From the start the farthest point in sight is the end of
 * row 0 (4.5 0.5: the next, 4.5 1.5, would cross the wall's cell 3,1); from
 * there the foot of column 4; from there the goal. */
Test(pull, around_a_wall)
{
    static const double xy[] = { 0.5, 0.5, 1.5, 0.5, 2.5, 0.5, 3.5, 0.5, 4.5, 0.5, 4.5, 1.5,
                                 4.5, 2.5, 3.5, 2.5, 2.5, 2.5, 1.5, 2.5, 0.5, 2.5 };
    size_t keep[11], nkeep;
    ff_grid g;
    int rule;

    for (rule = 0; rule < 3; rule++) {
        grid_from_rows(&g, 5, 3, ".....####......", (ff_corners)rule);
        pull_points(&g, xy, 11, keep, &nkeep);
        cr_assert_eq(nkeep, 4, "rule %d: kept %zu", rule, nkeep);
        cr_expect(keep[0] == 0 && keep[1] == 4 && keep[2] == 6 && keep[3] == 10);
        ff_grid_free(&g);
    }
}

/* A costlier band across the way: the path crosses it where it does, and
 * string pulling never cuts across it elsewhere. */
Test(pull, other_costs_are_not_crossed)
{
    static const double xy[] = { 0.5, 0.5, 0.5, 1.5, 0.5, 2.5, 1.5, 2.5, 2.5, 2.5 };
    size_t keep[5], nkeep;
    ff_grid g;

    /* 3 x 3, the center and 1,0 costlier: the L path around them. */
    grid_from_rows(&g, 3, 3, ".~..~....", FF_CORNERS_STRICT);
    pull_points(&g, xy, 5, keep, &nkeep);
    cr_expect_eq(nkeep, 3);
    cr_expect(keep[1] == 2, "kept %zu", keep[1]);
    ff_grid_free(&g);
    /* Entering the costlier band: the step is kept as it is. */
    grid_from_rows(&g, 3, 1, "..~", FF_CORNERS_STRICT);
    {
        static const double run[] = { 0.5, 0.5, 1.5, 0.5, 2.5, 0.5 };
        pull_points(&g, run, 3, keep, &nkeep);
        cr_expect_eq(nkeep, 3);
    }
    ff_grid_free(&g);
}

/* Random map number `map` of a series: min_side + (0..span-1) cells a
 * side, walls on wall_pct percent of the cells, the corner rule and
 * moves by the map's number, one goal, its distances and directions
 * searched (dist and dir the caller's to free). */
static void random_map(unsigned long long *seed, int map, int min_side, int span, int wall_pct,
                       ff_grid *g, double **dist, uint8_t **dir)
{
    int w = min_side + (int)(tu_next(seed) % (unsigned)span);
    int h = min_side + (int)(tu_next(seed) % (unsigned)span), k;
    size_t n = (size_t)w * (size_t)h;
    ff_error err;

    *dist = malloc(n * sizeof **dist);
    *dir = malloc(n);
    cr_assert(*dist && *dir);
    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->corners = (ff_corners)(map % 3);
    g->moves = map % 4 == 3 ? 4 : 8;
    for (k = 0; k < w * h; k++)
        g->cost[k] = tu_next(seed) % 100 < (unsigned)wall_pct ? INFINITY : 1.0f;
    k = (int)(tu_next(seed) % n);
    g->cost[k] = 1.0f;
    cr_assert_eq(ff_grid_add_goal(g, k % w, k / w, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_search(g, *dist, &err), FF_OK);
    cr_assert_eq(ff_direction_field(g, *dist, *dir, &err), FF_OK);
}

/* Sight lost along the path and regained: from the start, points 3 and
 * 4 are hidden by the wall at 4,1, the end is in sight along row 0.  The
 * seed's rule keeps the start and the end only (the gallop of earlier
 * versions stopped at point 3, a point of the same length). */
Test(pull, sight_regained_jumps_to_the_farthest)
{
    static const double xy[] = { 0.5, 0.5, 1.5, 0.5, 2.5, 0.5, 5.5, 2.5, 5.5, 1.5, 6.5, 1.5,
                                 6.5, 0.5 };
    size_t keep[7], nkeep;
    ff_grid g;

    grid_from_rows(&g, 7, 3, "...........#.........", FF_CORNERS_STRICT);
    pull_points(&g, xy, 7, keep, &nkeep);
    cr_expect_eq(nkeep, 2, "kept %zu", nkeep);
    cr_expect(keep[0] == 0 && keep[1] == 6, "kept %zu then %zu", keep[0], keep[1]);
    ff_grid_free(&g);
}

/* The seed's pull, written from its text with the reference sight: from
 * the anchor, the last point in sight, testing from the end backwards and
 * stopping at the point after the anchor; then again from there.  With 4
 * moves the free corner rule is read as cut (man 1 ffpull). */
static size_t seed_pull(const ff_grid *g, const ff_path *p, size_t *keep)
{
    size_t anchor = 0, nkeep = 0;
    ff_corners rule = g->moves == 4 && g->corners == FF_CORNERS_FREE ? FF_CORNERS_CUT : g->corners;

    keep[nkeep++] = 0;
    while (anchor < p->n - 1) {
        size_t far = p->n - 1;
        while (far > anchor + 1 &&
               !ref_sight(g, rule, (long long)floor(p->xy[2 * anchor]),
                          (long long)floor(p->xy[2 * anchor + 1]),
                          (long long)floor(p->xy[2 * far]), (long long)floor(p->xy[2 * far + 1])))
            far--;
        keep[nkeep++] = far;
        anchor = far;
    }
    return nkeep;
}

/* ff_pull against seed_pull: the same points kept, on shortest paths
 * along the direction field and on random walks of open cells (which lose
 * and regain sight often), on random maps under every corner rule. */
Test(pull, random_paths_follow_the_seed_rule)
{
    unsigned long long seed = 34;
    size_t paths = 0, walks = 0;
    int map;

    for (map = 0; map < 40; map++) {
        ff_grid g;
        ff_error err;
        double *dist;
        uint8_t *dir;
        size_t n;
        int w, h, t;
        random_map(&seed, map, 8, 25, 20, &g, &dist, &dir);
        w = g.w;
        h = g.h;
        n = (size_t)w * (size_t)h;
        for (t = 0; t < 20; t++) {
            int s = (int)(tu_next(&seed) % n), x = s % w, y = s / w, step;
            ff_path p;
            size_t *got, *want, ngot = 0, nwant, i;
            if (!isfinite(dist[s]))
                continue;
            if (t % 2 == 0) {
                follow(&g, dir, x, y, &p);
                paths++;
            } else {
                /* A walk of 60 steps to open neighbours (8 of them). */
                ff_path_init(&p);
                for (step = 0; step < 60; step++) {
                    int d = (int)(tu_next(&seed) % 8), nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
                    cr_assert_eq(ff_path_push(&p, x + 0.5, y + 0.5, 0, &err), FF_OK);
                    if (nx >= 0 && ny >= 0 && nx < w && ny < h && isfinite(g.cost[ny * w + nx])) {
                        x = nx;
                        y = ny;
                    }
                }
                walks++;
            }
            if (p.n >= 2) {
                got = malloc(p.n * sizeof *got);
                want = malloc(p.n * sizeof *want);
                cr_assert(got && want);
                cr_assert_eq(ff_pull(&g, &p, "-", got, &ngot, &err), FF_OK, "%s", err.msg);
                nwant = seed_pull(&g, &p, want);
                cr_expect_eq(ngot, nwant, "map %d path %d: kept %zu, the rule keeps %zu", map,
                             t, ngot, nwant);
                for (i = 0; i < ngot && i < nwant; i++)
                    cr_expect_eq(got[i], want[i], "map %d path %d: kept point %zu is %zu, not %zu",
                                 map, t, i, got[i], want[i]);
                free(got);
                free(want);
            }
            ff_path_free(&p);
        }
        free(dist);
        free(dir);
        ff_grid_free(&g);
    }
    cr_expect_gt(paths, 200);
    cr_expect_gt(walks, 200);
}

Test(pull, refused)
{
    static const double outside[] = { 0.5, 0.5, 3.5, 0.5 };
    static const double blocked[] = { 0.5, 0.5, 1.5, 0.5 };
    ff_grid g;
    ff_path p;
    ff_error err;
    size_t keep[2], nkeep;

    grid_from_rows(&g, 3, 1, ".#.", FF_CORNERS_STRICT);
    ff_path_init(&p);
    cr_assert_eq(ff_path_push(&p, outside[0], outside[1], 3, &err), FF_OK);
    cr_expect_eq(ff_pull(&g, &p, "-", keep, &nkeep, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "at least two") != NULL, "%s", err.msg);
    cr_assert_eq(ff_path_push(&p, outside[2], outside[3], 4, &err), FF_OK);
    cr_expect_eq(ff_pull(&g, &p, "-", keep, &nkeep, &err), FF_EINPUT);
    cr_expect_eq(err.line, 4);
    cr_expect(strstr(err.msg, "outside the 3x1 map") != NULL, "%s", err.msg);
    p.xy[2] = blocked[2];
    cr_expect_eq(ff_pull(&g, &p, "-", keep, &nkeep, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "blocked cell 1,0") != NULL, "%s", err.msg);
    p.xy[2] = -0.25;
    cr_expect_eq(ff_pull(&g, &p, "-", keep, &nkeep, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "outside") != NULL, "floor, not truncation: %s", err.msg);
    ff_path_free(&p);
    ff_grid_free(&g);
}

/* ---- random maps ---- */

Test(pull, random_maps_every_rule)
{
    unsigned long long seed = 99;
    int map;

    for (map = 0; map < 60; map++) {
        ff_grid g;
        double *dist;
        uint8_t *dir;
        size_t n;
        int w, t;
        random_map(&seed, map, 10, 30, 25, &g, &dist, &dir);
        w = g.w;
        n = (size_t)w * (size_t)g.h;
        for (t = 0; t < 20; t++) {
            int s = (int)(tu_next(&seed) % n);
            char what[64];
            ff_path p;
            if (!isfinite(dist[s]))
                continue;
            follow(&g, dir, s % w, s / w, &p);
            if (p.n >= 2) {
                snprintf(what, sizeof what, "map %d (rule %d, %d moves) from %d,%d", map,
                         g.corners, g.moves, s % w, s / w);
                check_pull(&g, &p, what, NULL);
            }
            ff_path_free(&p);
        }
        free(dist);
        free(dir);
        ff_grid_free(&g);
    }
}

/* ---- Moving AI maps ---- */

typedef struct {
    int sx, sy, gx, gy;
} scen;

static int read_scenarios(const char *path, scen *out, int cap)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;

    if (!f)
        return -1;
    while (n < cap && fgets(line, sizeof line, f)) {
        char map[512];
        int bucket, w, h;
        scen s;
        if (sscanf(line, "%d %511s %d %d %d %d %d %d", &bucket, map, &w, &h, &s.sx, &s.sy, &s.gx,
                   &s.gy) == 8)
            out[n++] = s;
    }
    fclose(f);
    return n;
}

/* Traces from `samples` scenarios spread over the file, pulled and
 * checked.  Returns the number of paths, -1 when the map is not there. */
static int check_movingai(const char *dir_name, const char *name, int samples, totals *t)
{
    static scen all[13000];
    char path[1024];
    ff_map_options o;
    ff_grid g;
    ff_error err;
    double *dist;
    uint8_t *dir;
    int n, k, done = 0;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir_name, name);
    if (!(f = fopen(path, "rb")))
        return -1;
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, path, &o, &g, &err), FF_OK, "%s: %s", path, err.msg);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.scen", dir_name, name);
    n = read_scenarios(path, all, 13000);
    cr_assert_gt(n, 0, "%s", path);
    dist = malloc((size_t)g.w * (size_t)g.h * sizeof *dist);
    dir = malloc((size_t)g.w * (size_t)g.h);
    cr_assert(dist && dir);
    for (k = 0; k < samples; k++) {
        const scen *s = &all[(size_t)k * (size_t)n / (size_t)samples];
        char what[256];
        ff_path p;
        free(g.goals);
        g.goals = NULL;
        g.ngoals = 0;
        cr_assert_eq(ff_grid_add_goal(&g, s->gx, s->gy, name, 0, 0, &err), FF_OK, "%s", err.msg);
        cr_assert_eq(ff_search(&g, dist, &err), FF_OK);
        cr_assert_eq(ff_direction_field(&g, dist, dir, &err), FF_OK);
        follow(&g, dir, s->sx, s->sy, &p);
        /* The traced path is a shortest one: its length is the field's. */
        cr_expect(fabs(ff_polyline_length(p.xy, p.n) - dist[s->sy * g.w + s->sx]) < 1e-6);
        if (p.n >= 2) {
            snprintf(what, sizeof what, "%s scenario %d->%d,%d", name, s->sx, s->gx, s->gy);
            check_pull(&g, &p, what, t);
            done++;
        }
        ff_path_free(&p);
    }
    free(dist);
    free(dir);
    ff_grid_free(&g);
    return done;
}

/* With FF_FIGURES set in the environment, the figures of the closing note
 * (tests/bench/bench_pull.sh computes them again through the programs). */
static void report(const char *name, const totals *t)
{
    if (getenv("FF_FIGURES") && t->paths)
        fprintf(stderr,
                "%s: %zu paths, grid %.1f, ffpull saves %.2f%% (keeps %.1f%% of points, "
                "%.1f a path), fffunnel --cells saves %.2f%%\n",
                name, t->paths, t->grid / t->paths, 100 * (1 - t->pulled / t->grid),
                100.0 * (double)t->kept / (double)t->points, (double)t->kept / (double)t->paths,
                100 * (1 - t->funnel / t->grid));
}

Test(pull, movingai_bundled, .timeout = 300)
{
    static const char *const maps[] = { "arena.map", "arena2.map", "den312d.map" };
    size_t k;

    for (k = 0; k < sizeof maps / sizeof *maps; k++) {
        totals t = { 0, 0, 0, 0, 0, 0 };
        cr_expect_gt(check_movingai("testdata/movingai", maps[k], 40, &t), 30, "%s", maps[k]);
        report(maps[k], &t);
    }
}

Test(pull, movingai_shared, .timeout = 600)
{
    static const char *const maps[] = { "8room_000.map", "AcrosstheCape.map", "Berlin_0_512.map",
                                        "maze512-1-0.map", "random512-10-0.map" };
    size_t k;

    for (k = 0; k < sizeof maps / sizeof *maps; k++) {
        totals t = { 0, 0, 0, 0, 0, 0 };
        if (check_movingai("../shared/testdata/movingai", maps[k], 25, &t) < 0)
            continue;
        report(maps[k], &t);
    }
}
