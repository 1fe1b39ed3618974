/* test_movingai.c - exact against the Moving AI benchmark: at each sampled
 * scenario's start cell, the distance field to its goal equals the
 * published optimal length (8 moves, strict corners, terrain classes). */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "mapread.h"
#include "search.h"

typedef struct {
    int sx, sy, gx, gy, bucket;
    double length;
    double tol;  /* half a unit in the last printed place plus 1e-6
                    relative: the files were computed in single precision */
} scenario;

/* Read up to cap scenarios of a .scen file (version 1 tabs or 1.0 spaces). */
static int read_scen(const char *path, scenario *out, int cap)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;

    if (!f)
        return -1;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    while (n < cap && fgets(line, sizeof line, f)) {
        char map[512], len[64], *dot;
        int w, h;
        scenario s;
        if (sscanf(line, "%d %511s %d %d %d %d %d %d %63s", &s.bucket, map, &w, &h, &s.sx,
                   &s.sy, &s.gx, &s.gy, len) != 9)
            continue;
        s.length = strtod(len, NULL);
        dot = strchr(len, '.');
        s.tol = 0.5 * pow(10.0, -(dot ? (double)strlen(dot + 1) : 0.0)) + 1e-6 * s.length;
        out[n++] = s;
    }
    fclose(f);
    return n;
}

/* Check the first scenario of about `samples` buckets spread evenly over
 * the file's range, and its last scenario (the top bucket).  Returns the
 * number checked, or -1 when the map is not there. */
static int check_map(const char *dir, const char *name, int samples)
{
    static scenario all[13000];
    char path[1024];
    static unsigned char seen[1 << 16];
    int n, k, checked = 0, stride;
    ff_map_options o;
    ff_grid g;
    ff_error err;
    FILE *f;
    double *dist;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f)
        return -1;
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, path, &o, &g, &err), FF_OK, "%s: %s", path, err.msg);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.scen", dir, name);
    n = read_scen(path, all, 13000);
    cr_assert_gt(n, 0, "%s", path);
    stride = all[n - 1].bucket / samples + 1;
    memset(seen, 0, sizeof seen);
    dist = malloc((size_t)g.w * (size_t)g.h * sizeof *dist);
    for (k = 0; k < n; k++) {
        const scenario *s = &all[k];
        double d;
        int b = s->bucket & 0xffff;
        if (k != n - 1 && (seen[b] || s->bucket % stride != 0))
            continue;
        seen[b] = 1;
        free(g.goals);
        g.goals = NULL;
        g.ngoals = 0;
        cr_assert_eq(ff_grid_add_goal(&g, s->gx, s->gy, name, 0, 0, &err), FF_OK, "%s", err.msg);
        cr_assert_eq(ff_search(&g, dist, &err), FF_OK);
        d = dist[(size_t)s->sy * (size_t)g.w + (size_t)s->sx];
        cr_assert(fabs(d - s->length) <= s->tol,
                  "%s scenario %d (%d,%d)->(%d,%d): published %.8f, field %.10f", name, k,
                  s->sx, s->sy, s->gx, s->gy, s->length, d);
        checked++;
    }
    free(dist);
    ff_grid_free(&g);
    return checked;
}

Test(movingai, bundled_small_maps_every_scenario)
{
    cr_assert_gt(check_map("testdata/movingai", "arena.map", 1000), 10);
    cr_assert_gt(check_map("testdata/movingai", "den312d.map", 1000), 20);
    cr_assert_gt(check_map("testdata/movingai", "arena2.map", 1000), 80);
}

/* The large maps live beside the project in ../shared when it is there. */
#define SHARED "../shared/testdata/movingai"

Test(movingai, shared_maps_sampled_per_bucket, .timeout = 600)
{
    static const char *maps[] = { "maze512-1-0.map", "8room_000.map", "random512-10-0.map",
                                  "Berlin_0_512.map", "AcrosstheCape.map",
                                  "legacy/AR0011SR.map", "legacy/nighthaven.map" };

    size_t k;
    int total = 0;

    for (k = 0; k < sizeof maps / sizeof *maps; k++) {
        int n = check_map(SHARED, maps[k], 40);
        if (n < 0)
            cr_skip_test("%s not present: the large maps are checked where ../shared exists", SHARED);
        cr_assert_gt(n, 10, "%s", maps[k]);
        total += n;
    }
    cr_log_info("checked %d scenarios on the shared maps", total);
}

/* nighthaven's water-to-water and tree-to-tree problems only match under
 * the class rule: check every one of them. */
Test(movingai, nighthaven_water_and_trees, .timeout = 600)
{
    static scenario all[2000];
    char path[512];
    int n, k, checked = 0;
    ff_map_options o;
    ff_grid g;
    ff_error err;
    FILE *f = fopen(SHARED "/legacy/nighthaven.map", "rb");
    double *dist;

    if (!f)
        cr_skip_test("nighthaven not present");
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, "nighthaven", &o, &g, &err), FF_OK);
    fclose(f);
    snprintf(path, sizeof path, "%s", SHARED "/legacy/nighthaven.map.scen");
    n = read_scen(path, all, 2000);
    dist = malloc((size_t)g.w * (size_t)g.h * sizeof *dist);
    for (k = 0; k < n; k++) {
        size_t si = (size_t)all[k].sy * (size_t)g.w + (size_t)all[k].sx;
        if (!g.terrain || g.terrain[si] == 0)
            continue;  /* a ground start */
        free(g.goals);
        g.goals = NULL;
        g.ngoals = 0;
        cr_assert_eq(ff_grid_add_goal(&g, all[k].gx, all[k].gy, "n", 0, 0, &err), FF_OK);
        cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
        cr_assert(fabs(dist[si] - all[k].length) <= all[k].tol, "scenario %d: %.4f vs %.4f",
                  k, dist[si], all[k].length);
        checked++;
    }
    cr_assert_eq(checked, 96, "85 water and 11 tree problems, got %d", checked);
    free(dist);
    ff_grid_free(&g);
}
