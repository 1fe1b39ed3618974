/* prioorder.c - the order of agents by priority (see prioorder.h): a
 * child configuration's from its parent's in one pass and a few inserts,
 * else a sort of keys that fall as the priority rises (the float's bits
 * made monotone): by insertion from an order held, or from nothing for a
 * few agents, else a radix sort a byte at a time.  Each gives the one
 * order of (priority, index); the tests hold them to a comparison sort.
 */
#include <string.h>

#include "prioorder.h"

static int by_prio_cmp(const float *p, uint32_t a, uint32_t b)
{
    if (p[a] != p[b])
        return p[a] > p[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The order of priorities p by by_prio_cmp into o (a shell sort: what a
 * NaN among them, which has no place in the order, gets). */
static void shell_order(uint32_t *o, const float *p, size_t n)
{
    size_t gap, k, j;
    for (k = 0; k < n; k++)
        o[k] = (uint32_t)k;
    for (gap = n / 2; gap > 0; gap /= 2)
        for (k = gap; k < n; k++) {
            uint32_t t = o[k];
            for (j = k; j >= gap && by_prio_cmp(p, t, o[j - gap]) < 0; j -= gap)
                o[j] = o[j - gap];
            o[j] = t;
        }
}

/* Sort o (a permutation of n agents) by (key, index) in place, by
 * insertion: 1, or 0 (o a permutation still) past shifts moves. */
static int insertion_order(uint32_t *o, const uint32_t *key, size_t n, size_t shifts)
{
    size_t k, j;
    for (k = 1; k < n; k++) {
        uint32_t i = o[k];
        for (j = k; j > 0 && (key[o[j - 1]] > key[i] || (key[o[j - 1]] == key[i] && o[j - 1] > i)); j--) {
            if (shifts-- == 0)
                return 0;
            o[j] = o[j - 1];
        }
        o[j] = i;
    }
    return 1;
}

/* Sort the agents 0..n by (key, index) into o: a radix sort of the keys
 * a byte at a time, stable over the indices; t scratch of n. */
static void radix_order(uint32_t *o, uint32_t *t, const uint32_t *key, size_t n)
{
    uint32_t *from = o, *to = t, *swap;
    unsigned shift;
    size_t k;
    for (k = 0; k < n; k++)
        o[k] = (uint32_t)k;
    for (shift = 0; shift < 32; shift += 8) {
        size_t count[256] = { 0 }, at = 0;
        for (k = 0; k < n; k++)
            count[key[k] >> shift & 0xff]++;
        if (count[key[0] >> shift & 0xff] == n)
            continue;  /* one byte for all */
        for (k = 0; k < 256; k++) {
            size_t c = count[k];
            count[k] = at;
            at += c;
        }
        for (k = 0; k < n; k++)
            to[count[key[from[k]] >> shift & 0xff]++] = from[k];
        swap = from;
        from = to;
        to = swap;
    }
    if (from != o)
        memcpy(o, from, n * sizeof *o);
}

int ff_prio_order_child(uint32_t *o, const float *p, size_t n, uint32_t *off, uint32_t *on)
{
    size_t noff = 0, non = 0, k, j;

    /* Off their goals: in the parent's order but for priorities the sum
     * made equal (by index); on them: sorted (mostly in order already). */
    for (k = 0; k < n; k++) {
        uint32_t i = o[k];
        if (p[i] >= 1)
            off[noff++] = i;
        else if (p[i] >= 0)
            on[non++] = i;
        else
            return 0;  /* (a NaN) */
    }
    for (k = 1; k < noff; k++) {
        uint32_t i = off[k];
        if (p[i] > p[off[k - 1]])
            return 0;
        for (j = k; j > 0 && p[off[j - 1]] == p[i] && off[j - 1] > i; j--)
            off[j] = off[j - 1];
        off[j] = i;
    }
    for (k = 1; k < non; k++) {
        uint32_t i = on[k];
        for (j = k; j > 0 && (p[on[j - 1]] < p[i] || (p[on[j - 1]] == p[i] && on[j - 1] > i)); j--)
            on[j] = on[j - 1];
        on[j] = i;
    }
    memcpy(o, off, noff * sizeof *o);
    memcpy(o + noff, on, non * sizeof *o);
    return 1;
}

void ff_prio_order(uint32_t *o, const float *p, size_t n, int held, uint32_t *key, uint32_t *tmp)
{
    size_t k;
    for (k = 0; k < n; k++) {
        float f = p[k];
        uint32_t b;
        if (f != f) {
            shell_order(o, p, n);
            return;
        }
        if (f == 0)
            f = 0;
        memcpy(&b, &f, sizeof b);
        key[k] = ~(b >> 31 ? ~b : b | 0x80000000u);
    }
    if (!held) {
        for (k = 0; k < n; k++)
            o[k] = (uint32_t)k;
        if (n < 64)
            insertion_order(o, key, n, SIZE_MAX);
    } else if (insertion_order(o, key, n, n < 64 ? SIZE_MAX : 8 * n)) {
        return;
    }
    if (n >= 64)
        radix_order(o, tmp, key, n);
}
