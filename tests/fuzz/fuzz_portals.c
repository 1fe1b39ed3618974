/* fuzz_portals.c - libFuzzer target: the portal reader of fffunnel
 * (ff_corridor_read over ff_records), then the checks, the shrink and the
 * funnel on what it read.  A corridor read is printed back with %.17g and
 * must read again to the same numbers, bit for bit; the funnel's path
 * starts at the start, ends at the goal, and every point between is a
 * portal end (after shrinking).
 * needs: lib/path/funnel.c
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "funnel.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reread(const ff_corridor *c)
{
    char *buf = NULL;
    size_t size = 0, k;
    FILE *out = open_memstream(&buf, &size), *in;
    ff_corridor back;
    ff_records r;
    ff_error err;

    if (!out)
        abort();
    fprintf(out, "%.17g %.17g\n", c->start_x, c->start_y);
    for (k = 0; k < c->n; k++)
        fprintf(out, "%.17g %.17g %.17g %.17g\n", c->portal[k].lx, c->portal[k].ly,
                c->portal[k].rx, c->portal[k].ry);
    fprintf(out, "%.17g %.17g\n", c->goal_x, c->goal_y);
    if (fclose(out) != 0)
        abort();
    in = fmemopen(buf, size, "rb");
    if (!in)
        abort();
    ff_records_init(&r, in, "roundtrip");
    ff_corridor_init(&back);
    FUZZ_CHECK(ff_corridor_read(&back, &r, &err) == FF_OK);
    FUZZ_CHECK(back.n == c->n);
    FUZZ_CHECK(same_bits(back.start_x, c->start_x) && same_bits(back.start_y, c->start_y));
    FUZZ_CHECK(same_bits(back.goal_x, c->goal_x) && same_bits(back.goal_y, c->goal_y));
    for (k = 0; k < c->n; k++) {
        FUZZ_CHECK(same_bits(back.portal[k].lx, c->portal[k].lx));
        FUZZ_CHECK(same_bits(back.portal[k].ly, c->portal[k].ly));
        FUZZ_CHECK(same_bits(back.portal[k].rx, c->portal[k].rx));
        FUZZ_CHECK(same_bits(back.portal[k].ry, c->portal[k].ry));
    }
    ff_corridor_free(&back);
    fclose(in);
    free(buf);
}

static int is_portal_end(const ff_corridor *c, double x, double y)
{
    size_t k;

    for (k = 0; k < c->n; k++)
        if ((x == c->portal[k].lx && y == c->portal[k].ly) ||
            (x == c->portal[k].rx && y == c->portal[k].ry))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = open_bytes(data, size);
    ff_corridor c;
    ff_records r;
    ff_path path;
    ff_error err;
    ff_status st;
    size_t k;

    if (!f)
        abort();
    ff_records_init(&r, f, "fuzz");
    ff_corridor_init(&c);
    ff_error_clear(&err);
    st = ff_corridor_read(&c, &r, &err);
    fclose(f);
    if (st != FF_OK) {
        FUZZ_CHECK(st == FF_EINPUT);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
        ff_corridor_free(&c);
        return 0;
    }
    reread(&c);
    if (ff_corridor_check(&c, "fuzz", &err) == FF_OK &&
        ff_corridor_shrink(&c, size % 3 == 0 ? 0.0 : 0.25, "fuzz", &err) == FF_OK) {
        ff_path_init(&path);
        if (ff_funnel(&c, &path, &err) == FF_OK) {
            FUZZ_CHECK(path.n >= 2);
            FUZZ_CHECK(path.xy[0] == c.start_x && path.xy[1] == c.start_y);
            FUZZ_CHECK(path.xy[2 * path.n - 2] == c.goal_x && path.xy[2 * path.n - 1] == c.goal_y);
            for (k = 1; k + 1 < path.n; k++)
                FUZZ_CHECK(is_portal_end(&c, path.xy[2 * k], path.xy[2 * k + 1]));
        }
        ff_path_free(&path);
    }
    ff_corridor_free(&c);
    return 0;
}
