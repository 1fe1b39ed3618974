/* test_scatter.c - a plan's scatter (plan/scatter.c; Okumura, AAMAS
 * 2024): on small maps, every agent's path is checked against the tests'
 * own breadth-first distances (from its start to its goal, a step a
 * tick over open cells by 4 moves, no cell twice, at most the margin
 * longer than the shortest), and its collisions are counted again from
 * their definition, pair by pair and tick by tick (the same cell at one
 * tick, a swap, one on another's goal after that one's path): that count
 * is the scatter's, and no more than a plain choice of shortest paths
 * gives (each agent's first optimal step in a fixed order), on crafted
 * maps where that choice sends everybody down one corridor. */
#include "testutil.h"

#include <stdint.h>

#include "scatter.h"

#define MAXA 48
#define MAXC 400

typedef struct {
    int w, h;
    char open[MAXC];
    int n;
    uint32_t start[MAXA], goal[MAXA];
    int dist[MAXA][MAXC];      /* per agent: the steps from each cell to its goal, -1 none */
} instance;

static const int dx4[4] = { 0, 1, 0, -1 }, dy4[4] = { -1, 0, 1, 0 };

static int neighbour(const instance *in, int v, int d)
{
    int x = v % in->w + dx4[d], y = v / in->w + dy4[d];
    if (x < 0 || y < 0 || x >= in->w || y >= in->h || !in->open[y * in->w + x])
        return -1;
    return y * in->w + x;
}

/* The tests' own breadth-first distances to agent k's goal. */
static void distances(instance *in, int k)
{
    int queue[MAXC], head = 0, tail = 0, v, d;
    for (v = 0; v < in->w * in->h; v++)
        in->dist[k][v] = -1;
    in->dist[k][in->goal[k]] = 0;
    queue[tail++] = (int)in->goal[k];
    while (head < tail) {
        v = queue[head++];
        for (d = 0; d < 4; d++) {
            int u = neighbour(in, v, d);
            if (u >= 0 && in->dist[k][u] < 0) {
                in->dist[k][u] = in->dist[k][v] + 1;
                queue[tail++] = u;
            }
        }
    }
}

static long steps_of(void *ctx, size_t agent, uint32_t cell)
{
    const instance *in = ctx;
    return in->dist[agent][cell];
}

/* Instance in as a grid: every open cell of cost 1. */
static void grid_of(const instance *in, ff_grid *g)
{
    ff_error err;
    int k;
    ff_grid_init(g);
    g->moves = 4;
    cr_assert_eq(ff_grid_alloc(g, in->w, in->h, 0, "t", &err), FF_OK);
    for (k = 0; k < in->w * in->h; k++)
        g->cost[k] = in->open[k] ? 1.0f : INFINITY;
}

/* The collisions of paths p, from the definition (scatter.h): for each
 * pair, each tick t >= 1 both are on their paths and on one cell, each
 * step they swap, and for each agent each tick t past the other's path
 * (and within its own) that it stands on the other's goal. */
static long collisions_of(const instance *in, uint32_t *const *p, const size_t *len)
{
    long count = 0;
    int i, j;
    for (i = 0; i < in->n; i++)
        for (j = 0; j < in->n; j++) {
            size_t t;
            if (i == j || len[i] == 0 || len[j] == 0)
                continue;
            for (t = 1; t < len[i]; t++) {
                if (i < j && t < len[j]) {
                    count += p[i][t] == p[j][t];
                    count += p[i][t] == p[j][t - 1] && p[j][t] == p[i][t - 1];
                }
                count += t > len[j] - 1 && p[i][t] == in->goal[j];
            }
        }
    return count;
}

/* Check sc's paths for in with margin: the tests' own rules. */
static void check_paths(const instance *in, const ff_mapf_scatter *sc, long margin)
{
    int k;
    cr_assert_eq(sc->n, (size_t)in->n);
    for (k = 0; k < in->n; k++) {
        char seen[MAXC] = { 0 };
        size_t t;
        if (in->dist[k][in->start[k]] < 0) {
            cr_assert_eq(sc->len[k], 0, "agent %d has no way, yet a path", k);
            continue;
        }
        cr_assert_gt(sc->len[k], 0, "agent %d: no path", k);
        cr_assert_eq(sc->path[k][0], in->start[k], "agent %d starts elsewhere", k);
        cr_assert_eq(sc->path[k][sc->len[k] - 1], in->goal[k], "agent %d ends elsewhere", k);
        cr_assert_leq((long)sc->len[k] - 1, in->dist[k][in->start[k]] + margin, "agent %d: too long", k);
        for (t = 0; t < sc->len[k]; t++) {
            uint32_t v = sc->path[k][t];
            int d, ok = t == 0;
            cr_assert(v < (uint32_t)(in->w * in->h) && in->open[v], "agent %d on a wall", k);
            cr_assert(!seen[v], "agent %d twice on cell %u", k, v);
            seen[v] = 1;
            for (d = 0; d < 4 && !ok; d++)
                ok = neighbour(in, (int)sc->path[k][t - 1], d) == (int)v;
            cr_assert(ok, "agent %d jumps at tick %zu", k, t);
        }
    }
}

/* Each agent's plain shortest path: from each cell its first neighbour
 * (N, E, S, W) one step nearer its goal. */
static void plain_paths(const instance *in, uint32_t **p, size_t *len)
{
    int k;
    for (k = 0; k < in->n; k++) {
        int v = (int)in->start[k];
        len[k] = 0;
        p[k] = malloc(((size_t)in->dist[k][v] + 1) * sizeof **p);
        cr_assert_not_null(p[k]);
        p[k][len[k]++] = (uint32_t)v;
        while (in->dist[k][v] > 0) {
            int d, u = -1;
            for (d = 0; d < 4 && u < 0; d++) {
                u = neighbour(in, v, d);
                if (u >= 0 && in->dist[k][u] != in->dist[k][v] - 1)
                    u = -1;
            }
            v = u;
            p[k][len[k]++] = (uint32_t)v;
        }
    }
}

static void scatter_of(instance *in, long margin, unsigned long long work, uint64_t seed, ff_mapf_scatter *sc)
{
    ff_grid g;
    ff_error err;
    int k;
    for (k = 0; k < in->n; k++)
        distances(in, k);
    grid_of(in, &g);
    cr_assert_eq(ff_mapf_scatter_make(&g, (size_t)in->n, in->start, in->goal, steps_of, in, margin, work, seed, sc,
                                      &err),
                 FF_OK);
    ff_grid_free(&g);
}

static void from_rows(instance *in, const char *const *rows)
{
    int x, y;
    memset(in, 0, sizeof *in);
    in->w = (int)strlen(rows[0]);
    for (y = 0; rows[y]; y++)
        for (x = 0; x < in->w; x++)
            in->open[y * in->w + x] = rows[y][x] != '#';
    in->h = y;
}

/* Two rooms joined by two corridors, agents crossing both ways: the plain
 * choice sends every agent down the same corridor (its first optimal step
 * in N, E, S, W order), head on into the others; the scatter spreads them
 * over both and collides less. */
Test(scatter, spreads_agents_over_two_corridors)
{
    static const char *const rows[] = {
        "...........",
        "...........",
        "...#####...",
        "...#####...",
        "...#####...",
        "...........",
        "...........",
        NULL,
    };
    instance in;
    ff_mapf_scatter sc;
    uint32_t *plain[MAXA];
    size_t plain_len[MAXA];
    long mine, theirs;
    int k;

    from_rows(&in, rows);
    /* six agents each way, on rows 2..4 of columns 0..1 and 9..10: the
     * two groups trade places */
    for (k = 0; k < 6; k++) {
        in.start[k] = (uint32_t)((2 + k % 3) * in.w + k / 3);
        in.goal[k] = (uint32_t)((2 + k % 3) * in.w + in.w - 1 - k / 3);
        in.start[6 + k] = in.goal[k];
        in.goal[6 + k] = in.start[k];
    }
    in.n = 12;
    scatter_of(&in, 10, 1000000, 7, &sc);
    check_paths(&in, &sc, 10);
    mine = collisions_of(&in, sc.path, sc.len);
    cr_assert_eq((long)sc.collisions, mine, "counted %llu, the definition %ld", sc.collisions, mine);
    plain_paths(&in, plain, plain_len);
    theirs = collisions_of(&in, plain, plain_len);
    cr_assert_lt(mine, theirs, "scatter %ld collisions, plain %ld", mine, theirs);
    cr_assert_geq(sc.rounds, 2);
    for (k = 0; k < in.n; k++)
        free(plain[k]);
    ff_mapf_scatter_free(&sc);
}

/* A random open cell of in that none of taken[0 .. k) is. */
static uint32_t distinct_open(const instance *in, const uint32_t *taken, int k, unsigned long long *rng)
{
    for (;;) {
        uint32_t v = (uint32_t)(tu_next(rng) % (unsigned)(in->w * in->h));
        int j, ok = in->open[v];
        for (j = 0; j < k && ok; j++)
            ok = taken[j] != v;
        if (ok)
            return v;
    }
}

/* Random maps with walls: valid paths within the margin, the collisions
 * counted as the definition counts them, never more than the plain
 * choice's; an agent walled in has none; the same seed gives the same
 * paths. */
Test(scatter, random_maps_give_valid_paths_and_no_more_collisions, .timeout = 60)
{
    unsigned long long rng = 35;
    int trial;

    for (trial = 0; trial < 40; trial++) {
        instance in;
        ff_mapf_scatter sc, again;
        uint32_t *plain[MAXA];
        size_t plain_len[MAXA];
        long margin = (long)(tu_next(&rng) % 6), mine, theirs;
        int k, j, cells;
        memset(&in, 0, sizeof in);
        in.w = 6 + (int)(tu_next(&rng) % 14);
        in.h = 6 + (int)(tu_next(&rng) % 14);
        cells = in.w * in.h;
        for (k = 0; k < cells; k++)
            in.open[k] = tu_next(&rng) % 100 >= 20;
        for (k = j = 0; k < cells; k++)
            j += in.open[k];
        in.n = 4 + (int)(tu_next(&rng) % (MAXA - 4));
        if (in.n > j / 2)
            in.n = j / 2;  /* (room for distinct starts and goals) */
        for (k = 0; k < in.n; k++) {
            in.start[k] = distinct_open(&in, in.start, k, &rng);
            in.goal[k] = distinct_open(&in, in.goal, k, &rng);
        }
        scatter_of(&in, margin, 10000000, (uint64_t)trial, &sc);
        check_paths(&in, &sc, margin);
        mine = collisions_of(&in, sc.path, sc.len);
        cr_assert_eq((long)sc.collisions, mine, "trial %d: counted %llu, the definition %ld", trial,
                     sc.collisions, mine);
        /* (the plain choice of the agents with a way) */
        for (k = 0; k < in.n; k++) {
            if (in.dist[k][in.start[k]] < 0) {
                plain[k] = NULL;
                plain_len[k] = 0;
            } else {
                instance one = in;
                one.n = 1;
                one.start[0] = in.start[k];
                memcpy(one.dist[0], in.dist[k], sizeof one.dist[0]);
                plain_paths(&one, &plain[k], &plain_len[k]);
            }
        }
        theirs = collisions_of(&in, plain, plain_len);
        cr_assert_leq(mine, theirs, "trial %d: scatter %ld collisions, plain %ld", trial, mine, theirs);
        scatter_of(&in, margin, 10000000, (uint64_t)trial, &again);
        for (k = 0; k < in.n; k++) {
            cr_assert_eq(again.len[k], sc.len[k]);
            cr_assert(sc.len[k] == 0 || !memcmp(again.path[k], sc.path[k], sc.len[k] * sizeof **sc.path));
            free(plain[k]);
        }
        ff_mapf_scatter_free(&again);
        ff_mapf_scatter_free(&sc);
    }
}

/* The work runs out: the searches stop there, the paths found so far are
 * valid, the others none, and the count is theirs. */
Test(scatter, work_cut_short_keeps_what_was_found)
{
    static const char *const rows[] = {
        "..........",
        "..........",
        "..........",
        "..........",
        NULL,
    };
    instance in;
    ff_mapf_scatter sc;
    int k, with = 0;

    from_rows(&in, rows);
    in.n = 8;
    for (k = 0; k < in.n; k++) {
        in.start[k] = (uint32_t)k;
        in.goal[k] = (uint32_t)(3 * in.w + in.w - 1 - k);
    }
    scatter_of(&in, 4, 30, 1, &sc);
    cr_assert_eq(sc.expansions, 30);
    for (k = 0; k < in.n; k++)
        with += sc.len[k] > 0;
    cr_assert(with > 0 && with < in.n, "%d paths", with);
    for (k = 0; k < in.n; k++)
        if (sc.len[k] == 0)
            in.dist[k][in.start[k]] = -1;  /* (checked as none) */
    check_paths(&in, &sc, 4);
    cr_assert_eq((long)sc.collisions, collisions_of(&in, sc.path, sc.len));
    ff_mapf_scatter_free(&sc);
}

static long manhattan_to_far_end(void *ctx, size_t agent, uint32_t cell)
{
    const ff_grid *g = ctx;
    (void)agent;
    return (long)(g->w - 1 - (int)(cell % (uint32_t)g->w)) + (long)(cell / (uint32_t)g->w);
}

/* A table of collisions past 33,554,432 cell-ticks (1,500 x 20 open
 * cells, a path of 1,499 steps and a margin of 10: 45,300,000): no
 * paths, and nothing taken; 1,200 x 20 (29,040,000) still scatters. */
Test(scatter, too_large_a_table_gives_no_paths)
{
    int w;
    for (w = 1500; w >= 1200; w -= 300) {
        ff_grid g;
        ff_error err;
        ff_mapf_scatter sc;
        uint32_t start = 0, goal = (uint32_t)w - 1;
        int k;
        ff_grid_init(&g);
        g.moves = 4;
        cr_assert_eq(ff_grid_alloc(&g, w, 20, 0, "t", &err), FF_OK);
        for (k = 0; k < w * 20; k++)
            g.cost[k] = 1.0f;
        cr_assert_eq(ff_mapf_scatter_make(&g, 1, &start, &goal, manhattan_to_far_end, &g, 10, 100000, 1, &sc, &err),
                     FF_OK);
        cr_assert_eq(sc.len[0], w == 1500 ? 0 : (size_t)w, "width %d: %zu cells", w, sc.len[0]);
        cr_assert_eq(sc.expansions, w == 1500 ? 0 : (unsigned long long)w, "width %d", w);
        ff_mapf_scatter_free(&sc);
        ff_grid_free(&g);
    }
}
