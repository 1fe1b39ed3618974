/* fuzz_mapfscen.c - libFuzzer target: the Moving AI MAPF scenario reader
 * (ff_mapf_scen_read).  What it reads must keep what mapfscen.h promises
 * (sizes > 0, cells inside them, lines ascending), a refused file must
 * leave nothing, and reading at most k agents must give the first k of
 * reading them all.
 * needs: lib/format/mapfscen.c
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "mapfscen.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ff_mapf_agent *all = NULL, *some = NULL;
    size_t n = 0, m = 0, k;
    ff_error err;
    ff_status st, st2;
    FILE *f = open_bytes(data, size);

    if (!f)
        abort();
    st = ff_mapf_scen_read(f, "fuzz", 1000000, &all, &n, &err);
    fclose(f);
    if (st != FF_OK) {
        FUZZ_CHECK(all == NULL && n == 0);
        FUZZ_CHECK(st == FF_EINPUT || st == FF_ENOMEM);
        return 0;
    }
    for (k = 0; k < n; k++) {
        const ff_mapf_agent *a = &all[k];
        FUZZ_CHECK(a->width > 0 && a->height > 0);
        FUZZ_CHECK(a->sx >= 0 && a->sx < a->width && a->sy >= 0 && a->sy < a->height);
        FUZZ_CHECK(a->gx >= 0 && a->gx < a->width && a->gy >= 0 && a->gy < a->height);
        FUZZ_CHECK(a->line >= 2 && (k == 0 || a->line > all[k - 1].line));
    }
    if (n > 0) {
        f = open_bytes(data, size);
        if (!f)
            abort();
        st2 = ff_mapf_scen_read(f, "fuzz", n / 2 + 1, &some, &m, &err);
        fclose(f);
        FUZZ_CHECK(st2 == FF_OK && m == n / 2 + 1);
        FUZZ_CHECK(memcmp(some, all, m * sizeof *some) == 0);
        free(some);
    }
    free(all);
    return 0;
}
