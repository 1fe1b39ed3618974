/* genmap - the benchmark's maps, from a fixed seed.
 *
 *   genmap SIZE SEED UNIFORM.map WEIGHTED.ffmap
 *
 * Writes a SIZE x SIZE Moving AI map with about 25% walls in clusters
 * (rectangles, discs and thin wall segments dropped at random places), and
 * the same walls as an ffmap whose open cells cost 1..9 in clustered
 * patches.  Only the largest open region is kept (pockets are filled in),
 * so every open cell can reach the goal: the open cell nearest to the
 * center, printed as "GX GY" on stdout.  The wall fraction goes to stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

/* splitmix64: small, fast, and the same on every machine. */
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static long pick(long lo, long hi)
{
    return lo + (long)(rng() % (uint64_t)(hi - lo + 1));
}

static long size;

static void fill_rect(uint8_t *grid, long x0, long y0, long w, long h, uint8_t v)
{
    long x, y;

    for (y = y0 < 0 ? 0 : y0; y < y0 + h && y < size; y++)
        for (x = x0 < 0 ? 0 : x0; x < x0 + w && x < size; x++)
            grid[y * size + x] = v;
}

static void fill_disc(uint8_t *grid, long cx, long cy, long r, uint8_t v)
{
    long x, y;

    for (y = cy - r; y <= cy + r; y++)
        for (x = cx - r; x <= cx + r; x++)
            if (x >= 0 && y >= 0 && x < size && y < size &&
                (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                grid[y * size + x] = v;
}

/* Drop one random wall cluster. */
static void drop_cluster(uint8_t *wall)
{
    long x = pick(0, size - 1), y = pick(0, size - 1);

    switch (pick(0, 9)) {
    case 0: case 1: case 2: case 3:
        fill_rect(wall, x, y, pick(2, 40), pick(2, 40), 1);
        break;
    case 4: case 5: case 6: case 7:
        fill_disc(wall, x, y, pick(2, 18), 1);
        break;
    default:  /* a thin wall segment, which makes corridors and detours */
        if (pick(0, 1))
            fill_rect(wall, x, y, pick(10, 120), pick(1, 2), 1);
        else
            fill_rect(wall, x, y, pick(1, 2), pick(10, 120), 1);
        break;
    }
}

/* Keep only the largest 4-connected open region (which is also the region
 * of 8 moves with strict corners): fill every other open cell.  Returns
 * the number of cells kept, or -1 when out of memory. */
static long keep_largest_region(uint8_t *wall)
{
    size_t n = (size_t)size * (size_t)size, i, best_seed = 0, best = 0;
    uint32_t *queue = malloc(n * sizeof *queue);
    uint8_t *seen = calloc(n, 1);
    int pass;

    if (!queue || !seen)
        return -1;
    /* Pass 0 measures every region; pass 1 floods the largest again and
     * fills the rest. */
    for (pass = 0; pass < 2; pass++) {
        size_t start = pass ? best_seed : 0, end = pass ? best_seed + 1 : n;
        if (pass)
            memset(seen, 0, n);
        for (i = start; i < end; i++) {
            size_t head = 0, tail = 0;
            if (wall[i] || seen[i])
                continue;
            queue[tail++] = (uint32_t)i;
            seen[i] = 1;
            while (head < tail) {
                uint32_t v = queue[head++];
                long x = (long)(v % (uint32_t)size), y = (long)(v / (uint32_t)size);
                long nb[4][2] = { { x, y - 1 }, { x + 1, y }, { x, y + 1 }, { x - 1, y } };
                int k;
                for (k = 0; k < 4; k++) {
                    long nx = nb[k][0], ny = nb[k][1];
                    size_t j;
                    if (nx < 0 || ny < 0 || nx >= size || ny >= size)
                        continue;
                    j = (size_t)(ny * size + nx);
                    if (!wall[j] && !seen[j]) {
                        seen[j] = 1;
                        queue[tail++] = (uint32_t)j;
                    }
                }
            }
            if (tail > best) {
                best = tail;
                best_seed = i;
            }
        }
    }
    for (i = 0; i < n; i++)
        if (!seen[i])
            wall[i] = 1;
    free(queue);
    free(seen);
    return (long)best;
}

static int write_rows(FILE *f, const uint8_t *wall, const uint8_t *cost, char open)
{
    char *row = malloc((size_t)size + 1);
    long x, y;

    if (!row)
        return -1;
    row[size] = '\n';
    for (y = 0; y < size; y++) {
        for (x = 0; x < size; x++) {
            size_t i = (size_t)(y * size + x);
            row[x] = wall[i] ? (cost ? '#' : '@') : (cost ? (char)('0' + cost[i]) : open);
        }
        if (fwrite(row, 1, (size_t)size + 1, f) != (size_t)size + 1) {
            free(row);
            return -1;
        }
    }
    free(row);
    return 0;
}

int main(int argc, char **argv)
{
    size_t n, walls = 0, i;
    uint8_t *wall, *cost;
    long goal = 0, best, k;
    FILE *f;
    int c;

    if (argc != 5 || (size = atol(argv[1])) < 16 || size > 32768) {
        fprintf(stderr, "usage: genmap SIZE SEED UNIFORM.map WEIGHTED.ffmap\n");
        return 2;
    }
    rng_state = strtoull(argv[2], NULL, 10);
    n = (size_t)size * (size_t)size;
    wall = calloc(n, 1);
    cost = malloc(n);
    if (!wall || !cost) {
        fprintf(stderr, "genmap: out of memory\n");
        return 3;
    }
    /* Walls: clusters until a quarter of the map is covered; filling the
     * pockets afterwards adds a little. */
    while (walls < n / 4) {
        for (k = 0; k < 1024; k++)
            drop_cluster(wall);
        for (walls = 0, i = 0; i < n; i++)
            walls += wall[i];
    }
    if (keep_largest_region(wall) < 0) {
        fprintf(stderr, "genmap: out of memory\n");
        return 3;
    }
    /* The goal: the open cell nearest to the center. */
    for (i = 0, best = -1; i < n; i++) {
        long x = (long)(i % (size_t)size) - size / 2, y = (long)(i / (size_t)size) - size / 2;
        if (!wall[i] && (best < 0 || x * x + y * y < best)) {
            best = x * x + y * y;
            goal = (long)i;
        }
    }
    for (walls = 0, i = 0; i < n; i++)
        walls += wall[i];
    /* Costs: 64-cell blocks of one cost, overlaid by patches and discs of
     * other costs, so that cheap and dear regions come in clusters. */
    {
        long bx, by;
        for (by = 0; by < size; by += 64)
            for (bx = 0; bx < size; bx += 64)
                fill_rect(cost, bx, by, 64, 64, (uint8_t)pick(1, 9));
    }
    for (k = 0; k < (long)(n / 400); k++) {
        long x = pick(0, size - 1), y = pick(0, size - 1);
        if (pick(0, 1))
            fill_rect(cost, x, y, pick(4, 48), pick(4, 48), (uint8_t)pick(1, 9));
        else
            fill_disc(cost, x, y, pick(3, 24), (uint8_t)pick(1, 9));
    }

    if (!(f = fopen(argv[3], "wb")))
        goto io;
    fprintf(f, "type octile\nheight %ld\nwidth %ld\nmap\n", size, size);
    if (write_rows(f, wall, NULL, '.') < 0 || fclose(f) != 0)
        goto io;
    if (!(f = fopen(argv[4], "wb")))
        goto io;
    fprintf(f, "ffmap 1\n# genmap %ld %s: costs 1..9 in patches\nlegend # wall\n", size, argv[2]);
    for (c = 1; c <= 9; c++)
        fprintf(f, "legend %d %d\n", c, c);
    fprintf(f, "map\n");
    if (write_rows(f, wall, cost, 0) < 0 || fclose(f) != 0)
        goto io;
    fprintf(stderr, "genmap: %ldx%ld, %.1f%% walls, goal %ld,%ld\n", size, size,
            100.0 * (double)walls / (double)n, goal % size, goal / size);
    printf("%ld %ld\n", goal % size, goal / size);
    free(wall);
    free(cost);
    return 0;
io:
    perror("genmap");
    return 3;
}
