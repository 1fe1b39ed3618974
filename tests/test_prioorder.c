/* test_prioorder.c - the order of agents by priority (prioorder.h) against
 * a comparison sort (qsort: higher priority first, then the lower index),
 * on priorities as the complement's search makes them (whole steps plus a
 * fraction, many equal) and on harder ones (zeros of both signs,
 * infinities, negative values, wide spreads); from nothing, from an order
 * held (near or far from the answer), and a child's from its parent's. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prioorder.h"

#define MAXN 700

static const float *cmp_p;

static int by_prio(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (cmp_p[x] != cmp_p[y])
        return cmp_p[x] > cmp_p[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void reference(uint32_t *o, const float *p, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        o[k] = (uint32_t)k;
    cmp_p = p;
    qsort(o, n, sizeof *o, by_prio);
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Priorities of kind: 0 LaCAM's (steps off the goal plus d / n), 1 few
 * distinct values, 2 signed zeros, infinities, negatives and spreads. */
static void priorities(float *p, size_t n, int kind)
{
    size_t k;
    for (k = 0; k < n; k++) {
        uint32_t r = next_random();
        if (kind == 0)
            p[k] = (float)(r % 40) + (float)(r / 40 % 300) / (float)n * (r % 3 == 0 ? 0.0f : 1.0f);
        else if (kind == 1)
            p[k] = (float)(r % 4);
        else {
            static const float odd[] = { 0.0f, -0.0f, INFINITY, -INFINITY, -1.5f, 1e-30f, 3e30f, 0.25f };
            p[k] = r % 2 ? odd[r / 2 % 8] : (float)((int32_t)r) * 1e-3f;
        }
    }
}

static void check_order(const uint32_t *o, const float *p, size_t n, const char *how)
{
    uint32_t want[MAXN];
    size_t k;
    reference(want, p, n);
    for (k = 0; k < n; k++)
        cr_assert_eq(o[k], want[k], "%s, n %zu: place %zu holds %u, not %u", how, n, k, o[k], want[k]);
}

Test(prioorder, sorts_from_nothing_and_from_an_order_held)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 31, 32, 63, 64, 65, 200, 300, 700 };
    float p[MAXN];
    uint32_t o[MAXN], key[MAXN], tmp[MAXN];
    size_t z, k;
    int kind, round;

    for (z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (kind = 0; kind < 3; kind++)
            for (round = 0; round < 8; round++) {
                size_t n = sizes[z];
                priorities(p, n, kind);
                ff_prio_order(o, p, n, 0, key, tmp);
                check_order(o, p, n, "from nothing");
                /* held: the answer itself, a few agents moved, reversed */
                ff_prio_order(o, p, n, 1, key, tmp);
                check_order(o, p, n, "from the answer");
                for (k = 0; k + 1 < n && k < 5; k++) {
                    size_t a = next_random() % n, b = next_random() % n;
                    uint32_t t = o[a];
                    o[a] = o[b];
                    o[b] = t;
                }
                ff_prio_order(o, p, n, 1, key, tmp);
                check_order(o, p, n, "from a near order");
                for (k = 0; k < n; k++)
                    o[k] = (uint32_t)(n - 1 - k);
                ff_prio_order(o, p, n, 1, key, tmp);
                check_order(o, p, n, "from a reversed order");
            }
}

Test(prioorder, a_nan_gets_one_order_every_time)
{
    float p[100];
    uint32_t o[100], again[100], key[100], tmp[100], seen[100] = { 0 };
    size_t k;
    priorities(p, 100, 0);
    p[17] = NAN;
    p[60] = NAN;
    ff_prio_order(o, p, 100, 0, key, tmp);
    for (k = 0; k < 100; k++) {
        cr_assert_lt(o[k], 100);
        cr_assert_eq(seen[o[k]]++, 0, "agent %u twice", o[k]);
    }
    for (k = 0; k < 100; k++)
        again[k] = (uint32_t)(99 - k);
    ff_prio_order(again, p, 100, 1, key, tmp);
    cr_assert_eq(memcmp(o, again, sizeof o), 0);
}

/* A child's priorities as LaCAM makes them from its parent's: one more
 * off the goal, the fraction on it. */
static void child_of(float *c, const float *p, size_t n, unsigned on_percent)
{
    size_t k;
    for (k = 0; k < n; k++)
        c[k] = next_random() % 100 < on_percent ? p[k] - floorf(p[k]) : p[k] + 1;
}

Test(prioorder, a_child_follows_its_parent)
{
    static const size_t sizes[] = { 1, 2, 40, 200, 700 };
    float p[MAXN], c[MAXN];
    uint32_t o[MAXN], off[MAXN], on[MAXN], key[MAXN], tmp[MAXN];
    size_t z, k;
    int round;

    for (z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (round = 0; round < 20; round++) {
            size_t n = sizes[z];
            /* a root's priorities (d / n: all under 1), then a line of
             * children, each from the one before */
            for (k = 0; k < n; k++)
                p[k] = (float)(next_random() % 500) / (float)n;
            ff_prio_order(o, p, n, 0, key, tmp);
            for (k = 0; k < 30; k++) {
                child_of(c, p, n, (unsigned)(round * 5));
                cr_assert(ff_prio_order_child(o, c, n, off, on));
                check_order(o, c, n, "a child");
                memcpy(p, c, n * sizeof *p);
            }
        }
    /* priorities that do not follow: an agent off its goal overtakes one
     * it was behind */
    p[0] = 3;
    p[1] = 2;
    ff_prio_order(o, p, 2, 0, key, tmp);
    c[0] = 3;
    c[1] = 5;
    cr_assert_not(ff_prio_order_child(o, c, 2, off, on));
    cr_assert(o[0] == 0 && o[1] == 1, "o changed");
    c[1] = NAN;
    cr_assert_not(ff_prio_order_child(o, c, 2, off, on));
}
