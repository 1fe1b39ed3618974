/* test_tilehash.c - the plane hash against its definition (man 5 ff,
 * "Ids"), written here again with its own word hash: a node of level L
 * covers the square of 64 * 8^L cells from its corner, a tile's message
 * is its cells' bytes row by row, a parent's its children's hashes; the
 * root is the least level whose one node covers the plane.  And the kept
 * tree: after random changes of cells, with the changed cells touched,
 * it gives what the whole plane hashes to, hashing only the tiles
 * touched. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tilehash.h"

/* hash.h's hash from its definition: 8-byte little-endian words, the
 * last one padded with zeros, h = (h ^ w) * 0x100000001b3, h ^= h >> 32,
 * then the length in bytes as one more word. */
static uint64_t def_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ (h >> 32);
}

static uint64_t def_hash(const uint8_t *m, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t k, b;

    for (k = 0; k < len; k += 8) {
        uint64_t w = 0;
        for (b = 0; b < 8 && k + b < len; b++)
            w |= (uint64_t)m[k + b] << (8 * b);
        h = def_mix(h, w);
    }
    return def_mix(h, (uint64_t)len);
}

typedef struct {
    const uint8_t *v;  /* little-endian bytes, cb a cell */
    long w, h;
    size_t cb;
} def_plane;

static uint64_t def_node(const def_plane *p, int level, long x, long y)
{
    long side = 64, x0, y0, i, j;
    uint8_t *m;
    size_t len = 0;
    uint64_t out;
    int k;

    for (k = 0; k < level; k++)
        side *= 8;
    x0 = x * side;
    y0 = y * side;
    if (level == 0) {
        m = malloc(64 * 64 * p->cb);
        cr_assert(m);
        for (j = y0; j < y0 + 64 && j < p->h; j++)
            for (i = x0; i < x0 + 64 && i < p->w; i++) {
                memcpy(m + len, p->v + ((size_t)j * (size_t)p->w + (size_t)i) * p->cb, p->cb);
                len += p->cb;
            }
    } else {
        m = malloc(64 * 8);
        cr_assert(m);
        for (j = 0; j < 8 && y0 + j * side / 8 < p->h; j++)
            for (i = 0; i < 8 && x0 + i * side / 8 < p->w; i++) {
                uint64_t c = def_node(p, level - 1, 8 * x + i, 8 * y + j);
                for (k = 0; k < 8; k++)
                    m[len++] = (uint8_t)(c >> (8 * k));
            }
    }
    out = def_hash(m, len);
    free(m);
    return out;
}

static uint64_t def_plane_hash(const def_plane *p)
{
    long side = 64;
    int level = 0;

    while (side < p->w || side < p->h) {
        side *= 8;
        level++;
    }
    return def_node(p, level, 0, 0);
}

/* A plane of random values; the definition's view of it (this machine's
 * bytes: the suite runs where values are little-endian, or checks that). */
static ff_plane make_plane(long w, long h, size_t elem, int lanes, unsigned long long *seed)
{
    size_t n = (size_t)w * (size_t)h * elem * (size_t)lanes, k;
    uint8_t *v = malloc(n ? n : 1);
    ff_plane p;

    cr_assert(v);
    for (k = 0; k < n; k++)
        v[k] = (uint8_t)(tu_next(seed) % 7);
    p.values = v;
    p.w = (int32_t)w;
    p.h = (int32_t)h;
    p.elem_size = elem;
    p.lanes = lanes;
    return p;
}

static def_plane view(const ff_plane *p)
{
    def_plane d;

    d.v = p->values;
    d.w = p->w;
    d.h = p->h;
    d.cb = p->elem_size * (size_t)p->lanes;
    return d;
}

static const long sizes[][2] = { { 1, 1 }, { 64, 64 }, { 65, 1 }, { 1, 65 }, { 63, 129 },
                                 { 600, 70 }, { 513, 9 }, { 7, 1100 }, { 200, 200 },
                                 { 600, 600 }, { 130, 1100 } };

Test(tilehash, plane_hash_matches_its_definition)
{
    unsigned long long seed = 11;
    size_t k;
    uint16_t probe = 1;

    cr_assert_eq(*(uint8_t *)&probe, 1, "the definition's view needs a little-endian machine");
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        static const size_t elems[] = { 1, 4, 8 };
        static const int lanes[] = { 1, 8, 2 };
        int e;
        for (e = 0; e < 3; e++) {
            ff_plane p = make_plane(sizes[k][0], sizes[k][1], elems[e], lanes[e], &seed);
            def_plane d = view(&p);
            cr_assert_eq(ff_plane_hash(&p), def_plane_hash(&d), "%ldx%ld, %zu bytes x %d",
                         sizes[k][0], sizes[k][1], elems[e], lanes[e]);
            free((void *)p.values);
        }
    }
}

/* One cell changed changes the hash (in every tile of a 3-level plane). */
Test(tilehash, a_changed_cell_changes_the_hash)
{
    unsigned long long seed = 5;
    ff_plane p = make_plane(600, 70, 4, 1, &seed);
    uint8_t *v = (uint8_t *)p.values;
    uint64_t before = ff_plane_hash(&p);
    long x, y;

    for (y = 0; y < 70; y += 13)
        for (x = 0; x < 600; x += 37) {
            v[((size_t)y * 600 + (size_t)x) * 4 + 3] ^= 0x40;
            cr_assert_neq(ff_plane_hash(&p), before, "cell %ld,%ld", x, y);
            v[((size_t)y * 600 + (size_t)x) * 4 + 3] ^= 0x40;
        }
    cr_assert_eq(ff_plane_hash(&p), before);
    free(v);
}

Test(tilehash, kept_tree_follows_the_changes_it_is_told)
{
    unsigned long long seed = 99;
    size_t k;

    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        long w = sizes[k][0], h = sizes[k][1];
        ff_plane p = make_plane(w, h, 1, 1, &seed);
        uint8_t *v = (uint8_t *)p.values;
        ff_tilehash t;
        int round;

        memset(&t, 0, sizeof t);
        cr_assert_eq(ff_tilehash_hash(&t, &p), ff_plane_hash(&p));
        for (round = 0; round < 30; round++) {
            uint32_t cells[20];
            size_t nc = 1 + tu_next(&seed) % 20, c;
            uint64_t was = ff_plane_hash(&p), untold;
            for (c = 0; c < nc; c++) {
                cells[c] = (uint32_t)(tu_next(&seed) % (unsigned long long)(w * h));
                v[cells[c]] = (uint8_t)(v[cells[c]] + 1);
            }
            if (round % 3 == 0) {
                /* Not told: the tree keeps the hash it had (it hashed
                 * nothing again), then told, follows. */
                untold = ff_tilehash_hash(&t, &p);
                cr_assert_eq(untold, was, "%ldx%ld round %d: rehashed untold tiles", w, h, round);
            }
            ff_tilehash_touch(&t, cells, nc);
            if (round % 5 == 4)
                ff_tilehash_touch(&t, cells, nc);  /* repeats */
            cr_assert_eq(ff_tilehash_hash(&t, &p), ff_plane_hash(&p), "%ldx%ld round %d", w, h,
                         round);
        }
        v[0] = (uint8_t)(v[0] + 1);
        ff_tilehash_touch_all(&t);
        cr_assert_eq(ff_tilehash_hash(&t, &p), ff_plane_hash(&p), "%ldx%ld, all touched", w, h);
        ff_tilehash_free(&t);
        free(v);
    }
}

/* A plane of another size or value size: the tree is made again. */
Test(tilehash, kept_tree_rebuilt_for_another_plane)
{
    unsigned long long seed = 3;
    ff_plane a = make_plane(130, 70, 8, 1, &seed), b = make_plane(70, 130, 8, 1, &seed);
    ff_plane c = make_plane(130, 70, 1, 8, &seed);
    ff_tilehash t;

    memset(&t, 0, sizeof t);
    cr_assert_eq(ff_tilehash_hash(&t, &a), ff_plane_hash(&a));
    cr_assert_eq(ff_tilehash_hash(&t, &b), ff_plane_hash(&b));
    cr_assert_eq(ff_tilehash_hash(&t, &c), ff_plane_hash(&c));
    cr_assert_eq(ff_tilehash_hash(&t, &a), ff_plane_hash(&a));
    ff_tilehash_free(&t);
    free((void *)a.values);
    free((void *)b.values);
    free((void *)c.values);
}
