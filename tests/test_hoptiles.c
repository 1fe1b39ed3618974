/* test_hoptiles.c - a field's hop counts in tiles made as reached
 * (hoptiles.h), against a plain array of every cell's count: counts
 * written in a random order read back the same, a tile is made for each
 * 16 x 16 block written in and for no other, and counts that span 65,535
 * or more over a tile (or fall below its base) make it wide and still
 * read back. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "hoptiles.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng_state >> 33) % n);
}

/* One trial on a w x h map: counts written at random cells, each at
 * least the cell's steps across and along from goal (a 4-move count
 * cannot be fewer), most of them near it, some far past (spread), and
 * everything read back against the plain array; the tiles' bytes within
 * their bound when the counts are under the map's cells. */
static void trial(uint32_t w, uint32_t h, uint32_t writes, uint32_t spread)
{
    size_t n = (size_t)w * h, k, blocks = 0;
    uint32_t *plain = malloc(n * sizeof *plain), goal = rnd((uint32_t)n), gx = goal % w, gy = goal / w;
    uint32_t tw = (w + 15) / 16, th = (h + 15) / 16;
    unsigned char *made = calloc((size_t)tw * th, 1);
    ff_hoptiles t;
    uint32_t i;

    cr_assert(plain && made);
    for (k = 0; k < n; k++)
        plain[k] = FF_HOP_UNREACHED;
    cr_assert_eq(ff_hoptiles_init(&t, w, h, goal), 0);
    for (i = 0; i < writes; i++) {
        uint32_t cell = rnd((uint32_t)n), x = cell % w, y = cell / w;
        uint32_t least = (x > gx ? x - gx : gx - x) + (y > gy ? y - gy : gy - y);
        uint32_t hops = least + (rnd(8) == 0 ? rnd(spread) : rnd(40));
        cr_assert_eq(ff_hoptiles_put(&t, cell, hops), 0);
        plain[cell] = hops;
        if (!made[(y / 16) * tw + x / 16]) {
            made[(y / 16) * tw + x / 16] = 1;
            blocks++;
        }
    }
    for (k = 0; k < n; k++) {
        uint32_t x = (uint32_t)(k % w), y = (uint32_t)(k / w);
        cr_assert_eq(ff_hoptiles_get(&t, (uint32_t)k), plain[k], "%ux%u cell %zu", w, h, k);
        cr_assert_eq(ff_hoptiles_get_xy(&t, x, y), plain[k]);
        cr_assert_eq(ff_hoptiles_made(&t, x, y), made[(y / 16) * tw + x / 16] != 0);
    }
    cr_assert_eq(t.ntiles, blocks);
    if (w + h + 40 + spread <= n)  /* (counts a map of n cells can hold) */
        cr_assert_leq(ff_hoptiles_bytes(&t), ff_hoptiles_bound(w, h));
    ff_hoptiles_clear(&t, goal);
    cr_assert_eq(t.ntiles, 0);
    for (k = 0; k < n; k++)
        cr_assert_eq(ff_hoptiles_get(&t, (uint32_t)k), FF_HOP_UNREACHED);
    ff_hoptiles_free(&t);
    free(plain);
    free(made);
}

Test(hoptiles, counts_read_back_as_written_in_any_order)
{
    static const uint32_t size[][2] = { { 1, 1 }, { 16, 16 }, { 17, 5 }, { 33, 47 }, { 1, 300 }, { 300, 1 }, { 64, 64 } };
    size_t s;
    int r;
    rng_state = 3;
    for (s = 0; s < sizeof size / sizeof size[0]; s++)
        for (r = 0; r < 20; r++)
            trial(size[s][0], size[s][1], 1 + rnd(3 * size[s][0] * size[s][1]), 100);
}

/* Counts far past the base (a detour of 65,535 steps and more) make a
 * tile wide; they still read back, and so do the counts before them. */
Test(hoptiles, counts_that_span_16_bits_widen_their_tile)
{
    ff_hoptiles t;
    int r;
    rng_state = 5;
    for (r = 0; r < 20; r++)
        trial(40 + rnd(40), 40 + rnd(40), 2000, 200000);
    cr_assert_eq(ff_hoptiles_init(&t, 20, 20, 0), 0);
    cr_assert_eq(ff_hoptiles_put(&t, 1, 1), 0);
    cr_assert_eq(t.nwide, 0);
    cr_assert_eq(ff_hoptiles_put(&t, 2, 1 + 65535), 0);
    cr_assert_eq(t.nwide, 1);
    cr_assert_eq(ff_hoptiles_get(&t, 1), 1);
    cr_assert_eq(ff_hoptiles_get(&t, 2), 65536);
    cr_assert_eq(ff_hoptiles_get(&t, 3), FF_HOP_UNREACHED);
    cr_assert_eq(ff_hoptiles_bytes(&t), sizeof t + 4 * sizeof(ff_hoptile *) + sizeof(ff_hoptile) + 256 * sizeof(uint16_t));
    /* (below the base: taken all the same) */
    cr_assert_eq(ff_hoptiles_put(&t, 17 * 20 + 17, 0), 0);
    cr_assert_eq(ff_hoptiles_get(&t, 17 * 20 + 17), 0);
    cr_assert_eq(t.ntiles, 2);
    ff_hoptiles_free(&t);
}

/* The bound: every tile and its index, wide only past 65,535 cells. */
Test(hoptiles, the_bound_counts_every_tile)
{
    cr_assert_eq(ff_hoptiles_bound(32, 32), sizeof(ff_hoptiles) + 4 * (sizeof(ff_hoptile *) + sizeof(ff_hoptile)));
    cr_assert_eq(ff_hoptiles_bound(33, 1), sizeof(ff_hoptiles) + 3 * (sizeof(ff_hoptile *) + sizeof(ff_hoptile)));
    cr_assert_eq(ff_hoptiles_bound(512, 512),
                 sizeof(ff_hoptiles) + 1024 * (sizeof(ff_hoptile *) + sizeof(ff_hoptile) + 512));
    cr_assert_eq(sizeof(ff_hoptiles) + sizeof(ff_hoptile *) + sizeof(ff_hoptile), 64 + 536);  /* (ffsim(1)) */
}

/* A cell's row by multiplication is its row by division, for every
 * width and the cells of the largest maps (2^28 cells). */
Test(hoptiles, rows_by_multiplication_are_rows_by_division)
{
    uint32_t w, k;
    ff_hoptiles t;
    rng_state = 9;
    for (k = 0; k < 3000; k++) {
        uint32_t cell, j;
        w = k < 1000 ? k + 1 : k < 2000 ? (1u << 28) / (1 + rnd(1u << 18)) : 1 + rnd(1u << 28);
        cr_assert_eq(ff_hoptiles_init(&t, w, (1u << 28) / w, 0), 0, "width %u", w);
        for (j = 0; j < 200; j++) {
            uint32_t n = w * t.h;
            cell = j < 100 ? rnd(n) : j < 150 ? n - 1 - rnd(w < 50 ? w : 50) : (rnd(t.h) * w + (j & 1 ? w - 1 : 0));
            cr_assert_eq(ff_hoptiles_row(&t, cell), cell / w, "cell %u of width %u", cell, w);
        }
        ff_hoptiles_free(&t);
    }
    cr_assert_eq(ff_hoptiles_init(&t, 1u << 15, (1u << 13) + 1, 0), -1);
}
