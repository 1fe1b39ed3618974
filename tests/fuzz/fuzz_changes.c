/* fuzz_changes.c - libFuzzer target: the change list of ffbuild --update
 * (ff_changes_read).  Every change read keeps its promises (a rectangle
 * in order within +-2^31, a finite cost >= 0, line numbers growing); it is
 * printed back and must read again to the same changes, bit for bit.  A
 * refusal names a line and a one-line reason. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "changes.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reprint_and_compare(const ff_change_list *l)
{
    char *text = NULL;
    size_t len = 0, k;
    FILE *f = open_memstream(&text, &len);
    ff_change_list back;
    ff_error err;

    if (!f)
        abort();
    for (k = 0; k < l->n; k++) {
        const ff_map_change *c = &l->change[k];
        fprintf(f, "%s %lld,%lld,%lld,%lld", c->kind == FF_CHANGE_CLOSE ? "close" : "cost",
                c->x0, c->y0, c->x1, c->y1);
        if (c->kind == FF_CHANGE_COST)
            fprintf(f, " %.17g", (double)c->cost);
        fputc('\n', f);
    }
    fclose(f);
    f = open_bytes((const uint8_t *)text, len);
    if (!f)
        abort();
    FUZZ_CHECK(ff_changes_read(f, "back", &back, &err) == FF_OK);
    fclose(f);
    FUZZ_CHECK(back.n == l->n);
    for (k = 0; k < l->n; k++) {
        const ff_map_change *a = &l->change[k], *b = &back.change[k];
        FUZZ_CHECK(a->kind == b->kind && a->x0 == b->x0 && a->y0 == b->y0 && a->x1 == b->x1 &&
                   a->y1 == b->y1 && memcmp(&a->cost, &b->cost, sizeof a->cost) == 0);
    }
    ff_changes_free(&back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = open_bytes(data, size);
    ff_change_list l;
    ff_error err;
    ff_status st;
    size_t k;
    long last = 0;

    if (!f)
        abort();
    ff_error_clear(&err);
    st = ff_changes_read(f, "fuzz", &l, &err);
    fclose(f);
    if (st != FF_OK) {
        FUZZ_CHECK(st == FF_EINPUT && l.n == 0 && !l.change);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n') && err.line >= 1);
        return 0;
    }
    for (k = 0; k < l.n; k++) {
        const ff_map_change *c = &l.change[k];
        FUZZ_CHECK(c->line > last && c->col >= 1);
        last = c->line;
        FUZZ_CHECK(c->x0 <= c->x1 && c->y0 <= c->y1);
        FUZZ_CHECK(c->x0 >= -2147483647LL && c->x1 <= 2147483647LL);
        FUZZ_CHECK(c->y0 >= -2147483647LL && c->y1 <= 2147483647LL);
        FUZZ_CHECK(c->kind == FF_CHANGE_CLOSE || (isfinite(c->cost) && c->cost >= 0));
    }
    reprint_and_compare(&l);
    ff_changes_free(&l);
    return 0;
}
