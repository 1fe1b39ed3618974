/* test_query.c - lib/field/query.c: number printing and parsing against printf
 * and strtod, reachability, cell paths against a brute-force shortest
 * path, the position streams (text, binary, flushing) and map ids. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "direction.h"
#include "mapread.h"
#include "query.h"
#include "records.h"
#include "search.h"

/* ---- fields made from ffmap text, as ffbuild | ffdir makes them ---- */

static void field_from_text(const char *text, int moves, ff_corners corners, double radius,
                            ff_field *f)
{
    ff_map_options opt;
    ff_error err;
    size_t n;

    ff_field_init(f);
    ff_map_options_init(&opt);
    cr_assert_eq(ff_map_parse((const unsigned char *)text, strlen(text), "t", &opt, &f->grid, &err),
                 FF_OK, "%s", err.msg);
    f->grid.moves = moves;
    f->grid.corners = corners;
    cr_assert_eq(ff_grid_apply_clearance(&f->grid, radius, &err), FF_OK, "%s", err.msg);
    n = (size_t)f->grid.w * (size_t)f->grid.h;
    f->distance = malloc(n * sizeof *f->distance);
    f->direction = malloc(n);
    cr_assert(f->distance && f->direction);
    cr_assert_eq(ff_search(&f->grid, f->distance, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_direction_field(&f->grid, f->distance, f->direction, &err), FF_OK, "%s",
                 err.msg);
    ff_field_update_ids(f);
}

#define LEGEND "ffmap 1\nlegend # wall\nlegend . 1\nlegend G goal 1\n"

/* ---- ff_format_g9: exactly printf's %.9g ---- */

static void expect_g9(double v)
{
    char mine[FF_G9_MAX], ref[64];
    size_t len = ff_format_g9(v, mine);
    snprintf(ref, sizeof ref, "%.9g", v == 0 ? 0.0 : v);
    cr_assert_str_eq(mine, ref, "%.17g: '%s', printf '%s'", v, mine, ref);
    cr_assert_eq(len, strlen(ref));
}

Test(format, g9_fixed_cases)
{
    static const double cases[] = {
        1, -1, 0.5, 0.70710678118654752, -0.70710678118654752, 1e-4, 9.99999999e-5,
        1e9, 999999999, 999999999.4, 999999999.5, 123456788.5, 123456789.5, 0.1, 0.2, 0.3,
        1.5, 2.5, 100, 4096, 12345.678901234, 1e-5, 3e-7, 1e15, 1e300, 5e-324, 0.00012345,
        0.000999999999, 0.0009999999996, 9.9999999949, 9.999999995, 99999999.95,
        1.41421356237, 3.82842712474619, 2.41421356237309, 1e8, 12345678.9,
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        expect_g9(cases[k]);
        expect_g9(-cases[k]);
    }
    expect_g9(INFINITY);
    expect_g9(-INFINITY);
}

Test(format, g9_negative_zero_is_zero)
{
    char buf[FF_G9_MAX];
    cr_assert_eq(ff_format_g9(-0.0, buf), 1);
    cr_assert_str_eq(buf, "0");
}

Test(format, g9_random_matches_printf)
{
    unsigned long long s = 42;
    int k;
    for (k = 0; k < 400000; k++) {
        double u = (double)(tu_next(&s) >> 11) / 9007199254740992.0;
        int e = (int)(tu_next(&s) % 30) - 12;
        expect_g9(u * 2 - 1);                /* unit vector components */
        expect_g9(u * pow(10, e));           /* all magnitudes */
        expect_g9((double)(tu_next(&s) % 2000000000) / 4);  /* ties in binary */
        expect_g9(cos(u * 6.283185307179586));
    }
}

/* ---- ff_parse_decimal: strtod's answer or none ---- */

static void expect_parse(const char *s, int fast)
{
    char *end;
    double want = strtod(s, &end), got = 12345;
    const char *stop = ff_parse_decimal(s, s + strlen(s), &got);
    if (!fast) {
        cr_assert_null(stop, "'%s' should leave the answer to strtod", s);
        return;
    }
    cr_assert_not_null(stop, "'%s' should take the fast path", s);
    cr_assert_eq(stop, end, "'%s': stops at %td, strtod at %td", s, stop - s, end - s);
    cr_assert(memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g, strtod %.17g", s, got, want);
}

Test(parse, decimal_cases)
{
    expect_parse("0", 1);
    expect_parse("-0", 1);
    expect_parse("+.5", 1);
    expect_parse("1.", 1);
    expect_parse("00012.5000", 1);
    expect_parse("3.25e2", 1);
    expect_parse("1E-3", 1);
    expect_parse("1e22", 1);
    expect_parse("4096.1234", 1);
    expect_parse("9007199254740992", 1);
    expect_parse("0.1", 1);
    expect_parse("", 0);
    expect_parse("-", 0);
    expect_parse(".", 0);
    expect_parse("1e", 0);
    expect_parse("1e+", 0);
    expect_parse("inf", 0);
    expect_parse("nan", 0);
    expect_parse("1e23", 0);
    expect_parse("9007199254740993", 0);
    expect_parse("12345678901234567890", 0);
    expect_parse("1e-400", 0);
}

Test(parse, decimal_stops_at_blank)
{
    const char *s = "1.5 2";
    double v;
    cr_assert_eq(ff_parse_decimal(s, s + 5, &v), s + 3);
    cr_assert_eq(v, 1.5);
    /* the end bound is honoured: "12" cut after one byte is 1 */
    cr_assert_eq(ff_parse_decimal("12", (const char *)"12" + 1, &v) != NULL, 1);
    cr_assert_eq(v, 1);
}

Test(parse, decimal_random_matches_strtod)
{
    unsigned long long s = 7;
    char buf[80];
    int k, fast = 0;
    for (k = 0; k < 300000; k++) {
        char *p = buf;
        int i, ni = (int)(tu_next(&s) % 8), nf = (int)(tu_next(&s) % 12);
        char *end;
        double want, got;
        const char *stop;
        if (tu_next(&s) % 3 == 0)
            *p++ = tu_next(&s) % 2 ? '-' : '+';
        for (i = 0; i < ni; i++)
            *p++ = (char)('0' + tu_next(&s) % 10);
        if (nf || ni == 0) {
            *p++ = '.';
            for (i = 0; i < nf || (ni == 0 && i == 0); i++)
                *p++ = (char)('0' + tu_next(&s) % 10);
        }
        if (tu_next(&s) % 4 == 0)
            p += sprintf(p, "e%d", (int)(tu_next(&s) % 61) - 30);
        *p = '\0';
        want = strtod(buf, &end);
        stop = ff_parse_decimal(buf, p, &got);
        if (!stop)
            continue;
        fast++;
        cr_assert_eq(stop, end, "'%s'", buf);
        cr_assert(memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g, strtod %.17g", buf, got,
                  want);
    }
    cr_expect_gt(fast, 200000, "only %d of 300000 took the fast path", fast);
}

/* ---- reachability ---- */

/* Cells 5..7 x 1..3 are a pocket walled off from the goal; 6,2 is a wall. */
static const char pocket_map[] = LEGEND "map\n"
                                        "#########\n"
                                        "#G..#...#\n"
                                        "#...#.#.#\n"
                                        "#..##...#\n"
                                        "#########\n";

Test(reach, pockets)
{
    ff_field f;
    field_from_text(pocket_map, 8, FF_CORNERS_STRICT, 0, &f);
    cr_expect_eq(ff_query_reach(&f, 1, 1), FF_REACH_OK);  /* the goal itself */
    cr_expect_eq(ff_query_reach(&f, 3, 2), FF_REACH_OK);
    cr_expect_eq(ff_query_reach(&f, 5, 1), FF_REACH_UNREACHABLE);
    cr_expect_eq(ff_query_reach(&f, 7, 3), FF_REACH_UNREACHABLE);
    cr_expect_eq(ff_query_reach(&f, 6, 2), FF_REACH_BLOCKED);
    cr_expect_eq(ff_query_reach(&f, 0, 0), FF_REACH_BLOCKED);
    cr_expect_eq(ff_query_reach(&f, 9, 0), FF_REACH_OUTSIDE);
    cr_expect_eq(ff_query_reach(&f, -1, 2), FF_REACH_OUTSIDE);
    cr_expect_eq(ff_query_reach(&f, 2, 5), FF_REACH_OUTSIDE);
    cr_expect_str_eq(ff_reach_name(FF_REACH_UNREACHABLE), "unreachable");
    ff_field_free(&f);
}

static char *check_listing(const ff_field *f, const char *input, size_t *unreached,
                           ff_status *st, ff_error *err)
{
    FILE *in = tu_string_file(input);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert(in && out);
    *st = ff_query_check(f, in, "-", out, unreached, err);
    fclose(in);
    fclose(out);
    return text;
}

Test(reach, check_lists_the_failures)
{
    ff_field f;
    ff_error err;
    ff_status st;
    size_t n;
    char *text;

    field_from_text(pocket_map, 8, FF_CORNERS_STRICT, 0, &f);
    text = check_listing(&f, "1 1\n# a comment\n\n5 1\n6 2\n3 2\n9 9\n-1 0\n7 3\n0 0\n", &n, &st,
                         &err);
    cr_assert_eq(st, FF_OK, "%s", err.msg);
    cr_expect_eq(n, 6);
    cr_expect_str_eq(text, "5 1 unreachable\n6 2 blocked\n9 9 outside\n-1 0 outside\n"
                           "7 3 unreachable\n0 0 blocked\n");
    free(text);
    text = check_listing(&f, "1 1\n2 3\n", &n, &st, &err);
    cr_expect_eq(st, FF_OK);
    cr_expect_eq(n, 0);
    cr_expect_str_eq(text, "");
    free(text);
    text = check_listing(&f, "1 1\n2.5 x\n", &n, &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.msg, "not a number") != NULL, "%s", err.msg);
    free(text);
    text = check_listing(&f, "1e300 2\n", &n, &st, &err);
    cr_expect_eq(st, FF_OK);
    cr_expect_eq(n, 1);
    cr_expect_str_eq(text, "1e+300 2.0 outside\n", "a world position: %s", text);
    free(text);
    ff_field_free(&f);
}

/* The pockets with cells of 2 units from -10,4: cell x,y spans
 * [-10 + 2x, -8 + 2x) x [4 + 2y, 6 + 2y).  A line of two integers is a
 * cell, any other a world position in the cell it lies in (by hand):
 *   -6.5 7     cell 1,1, the goal            reaches
 *   1 6.5      cell 5,1, a pocket            unreachable (written 1.0 6.5)
 *   2.5 9.9    cell 6,2, a wall              blocked
 *   -10.5 5    cell -1,0                     outside
 *   5 1        the cell 5,1                  unreachable
 *   5.0 1      world 5,1: cell 7,-2          outside (written 5.0 1.0)
 *   -8 +6      the cell -8,6                 outside
 *   1e0 6.5    world 1,6.5 as above          unreachable */
Test(reach, check_reads_cells_and_world_positions)
{
    static const char map[] = LEGEND "cell 2\norigin -10 4\nmap\n"
                                     "#########\n"
                                     "#G..#...#\n"
                                     "#...#.#.#\n"
                                     "#..##...#\n"
                                     "#########\n";
    ff_field f;
    ff_error err;
    ff_status st;
    size_t n;
    long long x, y;
    char *text;

    field_from_text(map, 8, FF_CORNERS_STRICT, 0, &f);
    text = check_listing(&f, "-6.5 7\n1 6.5\n2.5,9.9\n-10.5 5\n5 1\n5.0 1\n-8 +6\n1e0 6.5\n",
                         &n, &st, &err);
    cr_assert_eq(st, FF_OK, "%s", err.msg);
    cr_expect_eq(n, 7);
    cr_expect_str_eq(text, "1.0 6.5 unreachable\n2.5 9.9 blocked\n-10.5 5.0 outside\n"
                           "5 1 unreachable\n5.0 1.0 outside\n-8 6 outside\n"
                           "1.0 6.5 unreachable\n");
    free(text);
    cr_expect_eq(ff_query_reach_world(&f, -6.5, 7, &x, &y), FF_REACH_OK);
    cr_expect(x == 1 && y == 1);
    cr_expect_eq(ff_query_reach_world(&f, -8, 4, &x, &y), FF_REACH_BLOCKED, "a border: floor");
    cr_expect(x == 1 && y == 0);
    cr_expect_eq(ff_query_reach_world(&f, 8.5, 5, &x, &y), FF_REACH_OUTSIDE);
    ff_field_free(&f);
}

/* Which numbers of a record were written as integers. */
Test(reach, records_tell_integers)
{
    FILE *in = tu_string_file("3 -4\n3.0 4\n+3 1e2\n7,8.5\n");
    ff_records r;
    ff_error err;
    double v[2];
    int n;

    ff_records_init(&r, in, "-");
    cr_assert_eq(ff_records_next(&r, v, 2, 2, &n, &err), FF_OK);
    cr_expect_eq(r.integers, 3u);
    cr_assert_eq(ff_records_next(&r, v, 2, 2, &n, &err), FF_OK);
    cr_expect_eq(r.integers, 2u);
    cr_assert_eq(ff_records_next(&r, v, 2, 2, &n, &err), FF_OK);
    cr_expect_eq(r.integers, 1u);
    cr_assert_eq(ff_records_next(&r, v, 2, 2, &n, &err), FF_OK);
    cr_expect_eq(r.integers, 1u);
    fclose(in);
}

/* A cell joined to the rest only across a corner: the corner rule decides. */
Test(reach, corner_rule_decides)
{
    static const char map[] = LEGEND "map\n"
                                     "####\n"
                                     "#G.#\n"
                                     "#.##\n"
                                     "##.#\n"
                                     "####\n";
    ff_field f;
    field_from_text(map, 8, FF_CORNERS_STRICT, 0, &f);
    cr_expect_eq(ff_query_reach(&f, 2, 3), FF_REACH_UNREACHABLE);
    ff_field_free(&f);
    field_from_text(map, 8, FF_CORNERS_FREE, 0, &f);
    cr_expect_eq(ff_query_reach(&f, 2, 3), FF_REACH_OK);
    ff_field_free(&f);
}

/* ---- cell paths against a brute-force shortest path ---- */

/* The least cost from every cell to a goal by relaxing every legal step
 * until nothing changes (Bellman-Ford), with the step cost written out from
 * ffbuild(1), "The graph": length * cell * (cost(u) + cost(v)) / 2. */
static double step_cost(const ff_grid *g, size_t u, int d)
{
    size_t v = u + (size_t)((long)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
    double len = d < 4 ? 1 : sqrt(2.0);
    return len * ((double)g->cost[u] + (double)g->cost[v]) / 2 * g->cell_size;
}

static double *brute_force_distance(const ff_grid *g)
{
    size_t n = (size_t)g->w * (size_t)g->h, i, k;
    double *dist = malloc(n * sizeof *dist);
    int changed = 1, d;

    cr_assert(dist);
    for (i = 0; i < n; i++)
        dist[i] = INFINITY;
    for (k = 0; k < g->ngoals; k++)
        dist[g->goals[k]] = 0;
    while (changed) {
        changed = 0;
        for (i = 0; i < n; i++) {
            int x = (int)(i % (size_t)g->w), y = (int)(i / (size_t)g->w);
            for (d = 0; d < 8; d++) {
                size_t v;
                double c;
                if (!ff_grid_step_ok(g, x, y, d))
                    continue;
                v = (size_t)(y + ff_dir_dy[d]) * (size_t)g->w + (size_t)(x + ff_dir_dx[d]);
                c = step_cost(g, i, d) + dist[v];
                if (c < dist[i] * (1 - 1e-12)) {
                    dist[i] = c;
                    changed = 1;
                }
            }
        }
    }
    return dist;
}

/* A random ffmap: costs 0 to 4, walls, one-way tiles, a few goals. */
static char *random_map(unsigned long long *s, int w, int h)
{
    static const char tiles[] = "#..1234,>^v<";
    char *text = malloc(4096), *p = text;
    int x, y, goals = 0;
    cr_assert(text);
    p += sprintf(p, "ffmap 1\ncell %g\nlegend # wall\nlegend . 1\nlegend 1 1\nlegend 2 2\n"
                    "legend 3 3\nlegend 4 4\nlegend , 0\nlegend > 1 E\nlegend < 1 W\n"
                    "legend ^ 1 N,NE,NW\nlegend v 1 S\nlegend G goal 1\nmap\n",
                 tu_next(s) % 2 ? 1.0 : 0.5);
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            char c = tiles[tu_next(s) % (sizeof tiles - 1)];
            if (tu_next(s) % 23 == 0 || (goals == 0 && x == w / 2 && y == h / 2)) {
                c = 'G';
                goals++;
            }
            *p++ = c;
        }
        *p++ = '\n';
    }
    *p = '\0';
    return text;
}

Test(trace, random_maps_match_brute_force)
{
    unsigned long long s = 2024;
    int round, traced = 0, refused = 0;

    for (round = 0; round < 60; round++) {
        int w = 4 + (int)(tu_next(&s) % 9), h = 4 + (int)(tu_next(&s) % 7);
        char *text = random_map(&s, w, h);
        ff_field f;
        double *best;
        size_t i, n = (size_t)w * (size_t)h;

        field_from_text(text, tu_next(&s) % 2 ? 8 : 4, (ff_corners)(tu_next(&s) % 3), 0, &f);
        best = brute_force_distance(&f.grid);
        for (i = 0; i < n; i++) {
            long long x = (long long)(i % (size_t)w), y = (long long)(i / (size_t)w);
            uint32_t *path;
            size_t np, k;
            ff_error err;
            double cost = 0;
            ff_status st = ff_query_trace(&f, x, y, "t", &path, &np, &err);
            if (isinf(best[i])) {
                cr_assert_eq(st, FF_ENOTFOUND, "round %d cell %lld,%lld: status %d", round, x, y,
                             st);
                cr_assert(strstr(err.msg, ff_grid_open(&f.grid, i) ? "cannot reach" : "blocked"),
                          "%s", err.msg);
                refused++;
                continue;
            }
            cr_assert_eq(st, FF_OK, "round %d cell %lld,%lld: %s\n%s", round, x, y, err.msg, text);
            cr_assert_eq(path[0], i);
            for (k = 0; k + 1 < np; k++) {
                int px = (int)(path[k] % (uint32_t)w), py = (int)(path[k] / (uint32_t)w), d;
                int qx = (int)(path[k + 1] % (uint32_t)w), qy = (int)(path[k + 1] / (uint32_t)w);
                for (d = 0; d < 8; d++)
                    if (px + ff_dir_dx[d] == qx && py + ff_dir_dy[d] == qy)
                        break;
                cr_assert(d < 8 && ff_grid_step_ok(&f.grid, px, py, d),
                          "round %d: step %d,%d -> %d,%d is not a legal move", round, px, py, qx,
                          qy);
                cost += step_cost(&f.grid, path[k], d);
            }
            for (k = 0; k < f.grid.ngoals && f.grid.goals[k] != path[np - 1]; k++)
                ;
            cr_assert(k < f.grid.ngoals, "round %d: the path from %lld,%lld ends off a goal",
                      round, x, y);
            cr_assert(fabs(cost - best[i]) <= 1e-9 * (1 + best[i]),
                      "round %d cell %lld,%lld: path cost %.17g, shortest %.17g", round, x, y,
                      cost, best[i]);
            traced++;
            free(path);
        }
        free(best);
        free(text);
        ff_field_free(&f);
    }
    cr_expect_gt(traced, 1000);
    cr_expect_gt(refused, 100);
}

/* Uniform costs: the path's length in world units, measured between the
 * cell centers, is the start's distance.  By hand, from 1,3 to the goal
 * 3,3 (cell size 2): under the strict rule the walls allow no diagonal, so
 * 10 orthogonal steps, 20 units; cutting corners turns three pairs of
 * steps into diagonals, 4 + 3 sqrt2 cells = 8 + 6 sqrt2 units. */
static double traced_length(const ff_field *f, long long x, long long y, size_t *np)
{
    uint32_t *path;
    size_t k;
    ff_error err;
    double len = 0, x0, y0, x1, y1;

    cr_assert_eq(ff_query_trace(f, x, y, "t", &path, np, &err), FF_OK, "%s", err.msg);
    for (k = 0; k + 1 < *np; k++) {
        ff_cell_center(&f->grid, path[k], &x0, &y0);
        ff_cell_center(&f->grid, path[k + 1], &x1, &y1);
        len += hypot(x1 - x0, y1 - y0);
    }
    ff_cell_center(&f->grid, path[0], &x0, &y0);
    cr_expect(x0 == -7 && y0 == 11, "start center %g %g", x0, y0);
    ff_cell_center(&f->grid, path[*np - 1], &x0, &y0);
    cr_expect(x0 == -3 && y0 == 11, "goal center %g %g", x0, y0);
    free(path);
    return len;
}

Test(trace, uniform_length_is_distance)
{
    static const char map[] = "ffmap 1\ncell 2\norigin -10 4\nlegend # wall\nlegend . 1\n"
                              "legend G goal 1\nmap\n"
                              "#######\n"
                              "#.....#\n"
                              "#.###.#\n"
                              "#.#G..#\n"
                              "#######\n";
    ff_field f;
    size_t np;
    double len;

    field_from_text(map, 8, FF_CORNERS_STRICT, 0, &f);
    len = traced_length(&f, 1, 3, &np);
    cr_expect_eq(np, 11);
    cr_expect(fabs(len - 20) < 1e-12, "length %.17g", len);
    cr_expect(fabs(f.distance[3 * 7 + 1] - 20) < 1e-12);
    ff_field_free(&f);
    field_from_text(map, 8, FF_CORNERS_CUT, 0, &f);
    len = traced_length(&f, 1, 3, &np);
    cr_expect_eq(np, 8);
    cr_expect(fabs(len - (8 + 6 * sqrt(2.0))) < 1e-12, "length %.17g", len);
    cr_expect(fabs(f.distance[3 * 7 + 1] - len) < 1e-12);
    ff_field_free(&f);
}

Test(trace, refusals)
{
    ff_field f;
    uint32_t *path;
    size_t np;
    ff_error err;

    field_from_text(pocket_map, 8, FF_CORNERS_STRICT, 0, &f);
    cr_expect_eq(ff_query_trace(&f, 6, 2, "t", &path, &np, &err), FF_ENOTFOUND);
    cr_expect(strstr(err.msg, "blocked") != NULL, "%s", err.msg);
    cr_expect_eq(ff_query_trace(&f, 5, 1, "t", &path, &np, &err), FF_ENOTFOUND);
    cr_expect(strstr(err.msg, "cannot reach a goal") != NULL, "%s", err.msg);
    cr_expect_eq(ff_query_trace(&f, 9, 1, "t", &path, &np, &err), FF_EUSAGE);
    cr_expect(strstr(err.msg, "outside the 9x5 map") != NULL, "%s", err.msg);
    cr_expect_eq(ff_query_trace(&f, -1, 1, "t", &path, &np, &err), FF_EUSAGE);
    cr_expect_null(path);
    /* a goal is its own path */
    cr_assert_eq(ff_query_trace(&f, 1, 1, "t", &path, &np, &err), FF_OK);
    cr_expect_eq(np, 1);
    cr_expect_eq(path[0], 1 * 9 + 1);
    free(path);
    ff_field_free(&f);
}

Test(trace, damaged_fields_are_refused)
{
    ff_field f;
    uint32_t *path;
    size_t np;
    ff_error err;

    field_from_text(pocket_map, 8, FF_CORNERS_STRICT, 0, &f);
    /* a loop: 2,2 east, 3,2 west */
    f.direction[2 * 9 + 2] = FF_DIR_E;
    f.direction[2 * 9 + 3] = FF_DIR_W;
    cr_expect_eq(ff_query_trace(&f, 2, 2, "t", &path, &np, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "loops") != NULL, "%s", err.msg);
    /* a step into a wall */
    f.direction[2 * 9 + 2] = FF_DIR_S;
    f.direction[3 * 9 + 2] = FF_DIR_E;
    cr_expect_eq(ff_query_trace(&f, 2, 3, "t", &path, &np, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "not a legal move") != NULL, "%s", err.msg);
    /* a path that stops on an open cell */
    f.direction[2 * 9 + 3] = FF_DIR_NONE;
    cr_expect_eq(ff_query_trace(&f, 2, 2, "t", &path, &np, &err), FF_EINPUT);
    ff_field_free(&f);
}

Test(trace, write_path_reads_back)
{
    ff_grid g;
    uint32_t path[2] = { 0, 5 };
    char *text = NULL;
    size_t size = 0;
    ff_error err;
    FILE *out = open_memstream(&text, &size);
    double x, y;

    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 4, 2, 0, "t", &err), FF_OK);
    g.cell_size = 0.1;
    g.origin_x = 1e6 + 0.3;
    g.origin_y = -2;
    cr_assert_eq(ff_query_write_path(out, &g, path, 2, &err), FF_OK);
    fclose(out);
    /* 1000000.3 + 0.05 and 1000000.3 + 0.15, to the last bit */
    cr_assert_eq(sscanf(text, "%lf %lf", &x, &y), 2);
    cr_expect_eq(x, 1e6 + 0.3 + 0.5 * 0.1);
    cr_expect_eq(y, -2 + 0.5 * 0.1);
    cr_assert_not_null(strchr(text, '\n'));
    cr_assert_eq(sscanf(strchr(text, '\n') + 1, "%lf %lf", &x, &y), 2);
    cr_expect_eq(x, 1e6 + 0.3 + 1.5 * 0.1);
    cr_expect_eq(y, -2 + 1.5 * 0.1);
    free(text);
    ff_grid_free(&g);
}

/* ---- the position streams ---- */

/* Five cells in a row, the goal at the east end: every other cell points
 * east and lies 1, 2, 3, 4 steps away. */
static const char row_map[] = LEGEND "map\n....G\n";

static char *run_stream(const ff_field *f, const ff_query_options *o, const void *input,
                        size_t len, size_t *outlen, ff_status *st, ff_error *err)
{
    FILE *in = tmpfile(), *out = tmpfile();
    char *text;
    long size;

    cr_assert(in && out);
    cr_assert_eq(fwrite(input, 1, len, in), len);
    fflush(in);
    rewind(in);
    ff_error_clear(err);
    *st = ff_query_stream(f, o, fileno(in), "-", out, err);
    fflush(out);
    size = ftell(out);
    rewind(out);
    text = malloc((size_t)size + 1);
    cr_assert_eq(fread(text, 1, (size_t)size, out), (size_t)size);
    text[size] = '\0';
    *outlen = (size_t)size;
    fclose(in);
    fclose(out);
    return text;
}

static char *run_text(const ff_field *f, int raw, int distance, const char *input,
                      ff_status *st, ff_error *err)
{
    ff_query_options o = { raw, distance, 0, NULL, NULL };
    size_t n;
    return run_stream(f, &o, input, strlen(input), &n, st, err);
}

Test(stream, text_answers)
{
    ff_field f;
    ff_error err;
    ff_status st;
    char *out;

    field_from_text(row_map, 8, FF_CORNERS_STRICT, 0, &f);
    /* the middle of cell 0; the border of cells 1 and 2 (both E; the
     * distance is cell 2's); the goal
     * (no direction); outside; a comment, a blank line, CR LF, a hex
     * number (strtod's slow path), and a last line without a newline */
    out = run_text(&f, 0, 1,
                   "0.5 0.5\n2 0.5\n4.5 0.5\n# comment\n\n  \t\n-1 0.5\n1.5 0.25 # c\r\n"
                   "0x1p-1 +0.5e0\r\n3.5 .5",
                   &st, &err);
    cr_assert_eq(st, FF_OK, "%s", err.msg);
    cr_expect_str_eq(out, "1 0 4\n1 0 2\n0 0 0\n0 0 inf\n1 0 3\n1 0 4\n1 0 1\n");
    free(out);
    out = run_text(&f, 1, 0, "3.99 0.1\n4 0.1\n", &st, &err);
    cr_expect_str_eq(out, "1 0\n0 0\n");
    free(out);
    ff_field_free(&f);
}

Test(stream, smoothed_numbers)
{
    /* a 2x2 map: goal top right; 0,0 east, 0,1 north-east, 1,1 north.  At
     * the common corner (1,1) the blend is (1 + s, -s - 1)/3 with
     * s = 1/sqrt2: the unit vector (s, -s) printed with nine digits. */
    static const char map[] = LEGEND "map\n.G\n..\n";
    ff_field f;
    ff_error err;
    ff_status st;
    char *out;

    field_from_text(map, 8, FF_CORNERS_FREE, 0, &f);
    cr_assert(f.direction[0] == FF_DIR_E && f.direction[2] == FF_DIR_NE &&
              f.direction[3] == FF_DIR_N);
    out = run_text(&f, 0, 1, "1 1\n", &st, &err);
    cr_expect_str_eq(out, "0.707106781 -0.707106781 1\n");
    free(out);
    ff_field_free(&f);
}

Test(stream, bad_lines)
{
    ff_field f;
    ff_error err;
    ff_status st;
    char *out, *longline;

    field_from_text(row_map, 8, FF_CORNERS_STRICT, 0, &f);
    out = run_text(&f, 0, 0, "0.5 0.5\n\n# c\nfoo 1\n0.5 0.5\n", &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect_eq(err.line, 4);
    cr_expect_eq(err.col, 1);
    cr_expect_str_eq(err.file, "-");
    cr_expect(strstr(err.msg, "'foo' is not a number") != NULL, "%s", err.msg);
    cr_expect_str_eq(out, "1 0\n");  /* the answers before the bad line stand */
    free(out);
    out = run_text(&f, 0, 0, "1 2 3\n", &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect_eq(err.line, 1);
    cr_expect_str_eq(out, "");
    free(out);
    out = run_text(&f, 0, 0, "1\n", &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    free(out);
    out = run_text(&f, 0, 0, "1 inf\n", &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect(strstr(err.msg, "not a finite number") != NULL, "%s", err.msg);
    free(out);
    out = run_text(&f, 0, 0, "1 2\0 3\n", &st, &err);
    cr_expect_eq(st, FF_OK, "the NUL ends the C string: '1 2' is the whole input");
    free(out);
    longline = malloc(5000);
    memset(longline, ' ', 4999);
    longline[0] = '1';
    longline[4997] = '2';
    longline[4998] = '\n';
    longline[4999] = '\0';
    out = run_text(&f, 0, 0, longline, &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect(strstr(err.msg, "longer than") != NULL, "%s", err.msg);
    free(out);
    /* 4095 bytes is still a line */
    longline[4095 - 2] = '2';
    longline[4095 - 1] = '\n';
    longline[4095] = '\0';
    longline[4997] = ' ';
    out = run_text(&f, 0, 0, longline, &st, &err);
    cr_expect_eq(st, FF_OK, "%s", err.msg);
    free(out);
    free(longline);
    ff_field_free(&f);
}

static void put_pair(unsigned char *p, double x, double y)
{
    ff_put_f64le(p, x);
    ff_put_f64le(p + 8, y);
}

Test(stream, binary_answers)
{
    ff_field f;
    ff_error err;
    ff_status st;
    ff_query_options o = { 0, 1, 1, NULL, NULL };
    unsigned char in[64];
    char *out;
    size_t n;

    field_from_text(row_map, 8, FF_CORNERS_STRICT, 0, &f);
    put_pair(in, 0.5, 0.5);
    put_pair(in + 16, 4.5, 0.5);
    put_pair(in + 32, -3, 0.5);
    put_pair(in + 48, 2.25, 0.75);
    out = run_stream(&f, &o, in, 64, &n, &st, &err);
    cr_assert_eq(st, FF_OK, "%s", err.msg);
    cr_assert_eq(n, 4 * 24);
    {
        const unsigned char *a = (const unsigned char *)out;
        cr_expect(ff_get_f64le(a) == 1 && ff_get_f64le(a + 8) == 0 && ff_get_f64le(a + 16) == 4);
        cr_expect(ff_get_f64le(a + 24) == 0 && ff_get_f64le(a + 32) == 0 &&
                  ff_get_f64le(a + 40) == 0);
        cr_expect(ff_get_f64le(a + 48) == 0 && ff_get_f64le(a + 56) == 0 &&
                  isinf(ff_get_f64le(a + 64)));
        cr_expect(ff_get_f64le(a + 72) == 1 && ff_get_f64le(a + 80) == 0 &&
                  ff_get_f64le(a + 88) == 2);
        /* little-endian: 1.0 is 00 .. 00 f0 3f */
        cr_expect(a[6] == 0xf0 && a[7] == 0x3f);
    }
    free(out);
    o.distance = 0;
    out = run_stream(&f, &o, in, 20, &n, &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect_eq(err.byte, 16);
    cr_expect(strstr(err.msg, "truncated position: 4 of 16 bytes") != NULL, "%s", err.msg);
    cr_expect_eq(n, 16, "the whole first record is answered");
    free(out);
    put_pair(in + 16, 1, NAN);
    out = run_stream(&f, &o, in, 32, &n, &st, &err);
    cr_expect_eq(st, FF_EINPUT);
    cr_expect_eq(err.byte, 24);
    cr_expect_eq(n, 16);
    free(out);
    ff_field_free(&f);
}

/* Binary and text answers agree, to the nine digits that text prints. */
Test(stream, binary_agrees_with_text)
{
    static const char map[] = LEGEND "map\n"
                                     "#########\n"
                                     "#G..#...#\n"
                                     "#...#.#.#\n"
                                     "#.......#\n"
                                     "#########\n";
    unsigned long long s = 99;
    ff_query_options ob = { 0, 1, 1, NULL, NULL }, ot = { 0, 1, 0, NULL, NULL };
    unsigned char bin[16 * 500];
    char text[40 * 500], *p = text, *bout, *tout, *t;
    size_t nb, nt;
    ff_field f;
    ff_error err;
    ff_status st;
    int k;

    field_from_text(map, 8, FF_CORNERS_STRICT, 0, &f);
    for (k = 0; k < 500; k++) {
        double x = (double)(tu_next(&s) % 110000) / 10000 - 1, y = (double)(tu_next(&s) % 70000) / 10000 - 1;
        p += sprintf(p, "%.4f %.4f\n", x, y);
        put_pair(bin + 16 * k, x, y);
    }
    bout = run_stream(&f, &ob, bin, sizeof bin, &nb, &st, &err);
    cr_assert_eq(st, FF_OK);
    tout = run_stream(&f, &ot, text, strlen(text), &nt, &st, &err);
    cr_assert_eq(st, FF_OK);
    cr_assert_eq(nb, 500 * 24);
    for (k = 0, t = tout; k < 500; k++) {
        double a[3];
        int j;
        for (j = 0; j < 3; j++) {
            double b = ff_get_f64le((unsigned char *)bout + 24 * k + 8 * j);
            a[j] = strtod(t, &t);
            cr_assert(a[j] == b || fabs(a[j] - b) <= 5e-9 * fabs(b),
                      "position %d value %d: text %.17g, binary %.17g", k, j, a[j], b);
        }
        cr_assert(fabs(hypot(a[0], a[1]) - 1) < 1e-8 || (a[0] == 0 && a[1] == 0));
    }
    free(bout);
    free(tout);
    ff_field_free(&f);
}

/* The caller may hold the pipe open and wait for each answer: the answers
 * must be flushed before ffquery waits for more input. */
static void talk(const ff_field *f, const ff_query_options *o, const void *q, size_t qlen,
                 size_t alen)
{
    int to_query[2], from_query[2], k, status;
    pid_t pid;

    cr_assert_eq(pipe(to_query), 0);
    cr_assert_eq(pipe(from_query), 0);
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        FILE *out = fdopen(from_query[1], "w");
        ff_error err;
        close(to_query[1]);
        close(from_query[0]);
        _exit(ff_query_stream(f, o, to_query[0], "-", out, &err) == FF_OK && fclose(out) == 0
                  ? 0 : 1);
    }
    close(to_query[0]);
    close(from_query[1]);
    for (k = 0; k < 3; k++) {
        struct pollfd pfd = { from_query[0], POLLIN, 0 };
        char answer[64];
        size_t got = 0;
        cr_assert_eq(write(to_query[1], q, qlen), (ssize_t)qlen);
        while (got < alen) {
            ssize_t r;
            cr_assert_eq(poll(&pfd, 1, 5000), 1, "no answer to question %d within 5 s", k);
            r = read(from_query[0], answer + got, sizeof answer - got);
            cr_assert_gt(r, 0);
            got += (size_t)r;
        }
        cr_assert_eq(got, alen);
    }
    close(to_query[1]);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(from_query[0]);
}

Test(stream, answers_are_flushed_before_waiting)
{
    ff_field f;
    ff_query_options text = { 0, 0, 0, NULL, NULL }, bin = { 0, 0, 1, NULL, NULL };
    unsigned char q[16];

    field_from_text(row_map, 8, FF_CORNERS_STRICT, 0, &f);
    talk(&f, &text, "0.5 0.5\n", 8, 4);  /* "1 0\n" */
    put_pair(q, 0.5, 0.5);
    talk(&f, &bin, q, 16, 16);
    ff_field_free(&f);
}

/* ---- map ids ---- */

static uint64_t map_id_of(const char *text, const ff_field *f)
{
    FILE *in = tu_string_file(text);
    uint64_t id = 0;
    ff_error err;
    cr_assert_eq(ff_query_map_id(in, "m", f, &id, &err), FF_OK, "%s", err.msg);
    fclose(in);
    return id;
}

Test(mapid, same_map_same_id)
{
    static const char other[] = LEGEND "map\n"
                                       "#########\n"
                                       "#G..#...#\n"
                                       "#.......#\n"
                                       "#..##...#\n"
                                       "#########\n";
    static const char big[] = LEGEND "map\n"
                                     "##########\n"
                                     "#G.......#\n"
                                     "#........#\n"
                                     "#........#\n"
                                     "##########\n";
    ff_field f;

    field_from_text(pocket_map, 8, FF_CORNERS_STRICT, 0, &f);
    cr_expect_eq(map_id_of(pocket_map, &f), f.map_id);
    cr_expect_neq(map_id_of(other, &f), f.map_id);
    ff_field_free(&f);
    /* the field's rules are applied to the map: moves, corners, radius */
    field_from_text(pocket_map, 4, FF_CORNERS_CUT, 0, &f);
    cr_expect_eq(map_id_of(pocket_map, &f), f.map_id);
    ff_field_free(&f);
    field_from_text(big, 8, FF_CORNERS_STRICT, 0.8, &f);
    cr_expect_eq(map_id_of(big, &f), f.map_id);
    cr_expect_eq(f.grid.radius, 0.8);
    ff_field_free(&f);
}

/* ---- turn-cost fields: the path of a state costs its distance ---- */

#include "gridmodel.h"
#include "turn.h"

Test(query, state_trace_costs_the_state_distance)
{
    unsigned long long rng = 99;
    int trial, traced = 0;

    for (trial = 0; trial < 200; trial++) {
        model m;
        ff_field f;
        int is_goal[100], k, h;
        size_t n;
        double C = (double)(trial % 6);
        m_random_map(&rng, &m, &f.grid, is_goal);
        {
            ff_grid g = f.grid;
            ff_field_init(&f);
            f.grid = g;
        }
        n = (size_t)m.w * (size_t)m.h;
        f.turn = 1;
        f.turn_cost = C;
        f.distance = malloc(n * sizeof *f.distance);
        f.direction = malloc(n);
        f.heading_distance = malloc(8 * n * sizeof *f.heading_distance);
        f.heading_direction = malloc(8 * n);
        cr_assert_eq(ff_turn_search(&f.grid, C, f.heading_distance, f.distance, NULL), FF_OK);
        cr_assert_eq(ff_turn_direction(&f.grid, C, f.heading_distance, f.heading_direction,
                                       f.direction, NULL), FF_OK);
        for (k = 0; k < (int)n; k++)
            for (h = 0; h < 8; h++) {
                uint32_t *path = NULL;
                size_t np = 0, j;
                double cost = 0, want = f.heading_distance[8 * k + h];
                int at = h;
                ff_status st = ff_query_trace_state(&f, k % m.w, k / m.w, h, "t", &path, &np, NULL);
                if (!(want < INFINITY)) {
                    cr_assert_neq(st, FF_OK);
                    continue;
                }
                cr_assert_eq(st, FF_OK, "trial %d state %d,%d", trial, k, h);
                cr_assert(is_goal[path[np - 1]]);
                for (j = 0; j + 1 < np; j++) {
                    int x = (int)(path[j] % (uint32_t)m.w), y = (int)(path[j] / (uint32_t)m.w), d;
                    for (d = 0; d < 8; d++)
                        if ((int)path[j + 1] == (y + DY[d]) * m.w + x + DX[d] && m_step(&m, x, y, d) >= 0)
                            break;
                    cr_assert_lt(d, 8, "trial %d: not a step", trial);
                    cost += m_step(&m, x, y, d) + C * ff_turns(at, d);
                    at = d;
                }
                cr_assert(fabs(cost - want) <= 1e-9 * (want > 1 ? want : 1),
                          "trial %d state %d,%d: path costs %.17g, distance %.17g", trial, k, h,
                          cost, want);
                free(path);
                traced++;
            }
        ff_field_free(&f);
    }
    cr_assert_gt(traced, 20000, "%d", traced);
}
