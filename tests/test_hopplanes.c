/* test_hopplanes.c - whole planes of hop counts to goals (hopplanes.h),
 * against the fewest steps found from the definition: relaxation of
 * every cell by its steps until nothing changes (Bellman-Ford), on random
 * maps with walls and steps taken away one way only (so that a count is
 * the steps from the cell, not to it); and the pool's bound. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "hopplanes.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng_state >> 33) % n);
}

/* Random steps of a w x h map: a wall where rnd says so, and from an
 * open cell a step d (N E S W) to each open neighbour in the map, but
 * one in drop taken away. */
static void random_steps(uint32_t w, uint32_t h, uint8_t *mask, uint32_t walls, uint32_t drop)
{
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    size_t n = (size_t)w * h, k;
    uint8_t *open = malloc(n);
    cr_assert(open);
    for (k = 0; k < n; k++)
        open[k] = rnd(100) >= walls;
    for (k = 0; k < n; k++) {
        int x = (int)(k % w), y = (int)(k / w), d;
        mask[k] = 0;
        for (d = 0; open[k] && d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (nx >= 0 && ny >= 0 && nx < (int)w && ny < (int)h && open[(size_t)ny * w + (size_t)nx] &&
                rnd(drop) != 0)
                mask[k] |= (uint8_t)(1u << d);
        }
    }
    free(open);
}

/* The fewest steps from every cell to goal by relaxation to a fixed
 * point, UINT32_MAX where none lead there. */
static void relax(uint32_t w, uint32_t h, const uint8_t *mask, uint32_t goal, uint32_t *dist)
{
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    size_t n = (size_t)w * h, k;
    int changed = 1;
    for (k = 0; k < n; k++)
        dist[k] = k == goal ? 0 : UINT32_MAX;
    while (changed) {
        changed = 0;
        for (k = 0; k < n; k++) {
            int x = (int)(k % w), y = (int)(k / w), d;
            for (d = 0; d < 4; d++) {
                size_t to;
                if (!(mask[k] >> d & 1))
                    continue;
                to = (size_t)(y + dy[d]) * w + (size_t)(x + dx[d]);
                if (dist[to] != UINT32_MAX && dist[to] + 1 < dist[k]) {
                    dist[k] = dist[to] + 1;
                    changed = 1;
                }
            }
        }
    }
}

Test(hopplanes, planes_match_the_fewest_steps_by_relaxation)
{
    int trial;
    rng_state = 35;
    for (trial = 0; trial < 60; trial++) {
        uint32_t w = 1 + rnd(40), h = 1 + rnd(40), keys = 1 + rnd(5), key;
        size_t n = (size_t)w * h, k;
        uint8_t *mask = malloc(n);
        uint32_t *dist = malloc(n * sizeof *dist), *goal = malloc(keys * sizeof *goal);
        ff_hopplanes c;
        cr_assert(mask && dist && goal);
        random_steps(w, h, mask, rnd(35), 4 + rnd(30));
        cr_assert_eq(ff_hopplanes_init(&c, w, h, keys, (size_t)1 << 20), 0);
        for (key = 0; key < keys; key++)
            goal[key] = rnd((uint32_t)n);
        for (key = 0; key < keys; key++) {
            const uint16_t *plane = ff_hopplanes_get(&c, key, mask, goal[key]);
            cr_assert_not_null(plane);
            relax(w, h, mask, goal[key], dist);
            for (k = 0; k < n; k++)
                cr_assert_eq(plane[k] == FF_HOPPLANE_UNREACHED ? UINT32_MAX : plane[k], dist[k],
                             "trial %d, %ux%u, goal %u, cell %zu", trial, w, h, goal[key], k);
        }
        for (key = 0; key < keys; key++)  /* (made once: read again, whatever the goal) */
            cr_assert_eq(ff_hopplanes_get(&c, key, mask, (goal[key] + 1) % (uint32_t)n),
                         ff_hopplanes_get(&c, key, mask, goal[key]));
        cr_assert_null(ff_hopplanes_get(&c, keys, mask, goal[0]));
        ff_hopplanes_free(&c);
        free(mask);
        free(dist);
        free(goal);
    }
}

Test(hopplanes, the_pool_makes_no_more_planes_than_its_bytes_hold)
{
    uint8_t mask[100] = { 0 };
    ff_hopplanes c;
    uint32_t key;

    /* 10 x 10 cells: 200 bytes a plane, 3 in 650 bytes */
    cr_assert_eq(ff_hopplanes_init(&c, 10, 10, 5, 650), 0);
    for (key = 0; key < 3; key++)
        cr_assert_not_null(ff_hopplanes_get(&c, key, mask, key));
    cr_assert_null(ff_hopplanes_get(&c, 3, mask, 3));
    cr_assert_null(ff_hopplanes_get(&c, 4, mask, 4));
    cr_assert_not_null(ff_hopplanes_get(&c, 1, mask, 1));
    cr_assert_eq(ff_hopplanes_get(&c, 0, mask, 0)[0], 0);
    cr_assert_eq(ff_hopplanes_get(&c, 0, mask, 0)[1], FF_HOPPLANE_UNREACHED);  /* (no steps at all) */
    ff_hopplanes_free(&c);
    cr_assert_eq(ff_hopplanes_init(&c, 10, 10, 5, 199), -1);  /* (not one plane) */
    cr_assert_null(ff_hopplanes_get(&c, 0, mask, 0));
    ff_hopplanes_free(&c);
    cr_assert_eq(ff_hopplanes_init(&c, 256, 256, 1, (size_t)1 << 30), -1);  /* (counts past 16 bits) */
    ff_hopplanes_free(&c);
}
