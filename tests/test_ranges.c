/* test_ranges.c - the table of ranges (ranges.h): each range as its texts
 * say, its edges, the products it keeps finite, and the manual pages that
 * state it. */
#include "testutil.h"

#include <float.h>
#include <stdint.h>

#include "ranges.h"

Test(ranges, texts_are_the_numbers)
{
    int k;

    for (k = 0; k < FF_RANGE_COUNT; k++) {
        const ff_range *r = &ff_ranges[k];
        char want[96];
        cr_assert_not_null(r->key, "entry %d is empty", k);
        cr_assert_eq(strtod(r->min_text, NULL), r->min, "%s: min", r->key);
        cr_assert_eq(strtod(r->max_text, NULL), r->max, "%s: max", r->key);
        cr_assert_lt(r->min, r->max, "%s", r->key);
        snprintf(want, sizeof want, "from %s%s to %s", r->min_text, r->min_open ? " (excluded)" : "",
                 r->max_text);
        cr_assert_str_eq(ff_range_text((ff_range_id)k), want);
    }
}

Test(ranges, edges)
{
    int k;

    for (k = 0; k < FF_RANGE_COUNT; k++) {
        const ff_range *r = &ff_ranges[k];
        ff_range_id id = (ff_range_id)k;
        cr_assert_eq(ff_range_ok(id, r->min), !r->min_open, "%s: min", r->key);
        cr_assert(ff_range_ok(id, r->max), "%s: max", r->key);
        cr_assert(!ff_range_ok(id, nextafter(r->min, -INFINITY)), "%s: below min", r->key);
        cr_assert(!ff_range_ok(id, nextafter(r->max, INFINITY)), "%s: above max", r->key);
        cr_assert(!ff_range_ok(id, NAN), "%s: NaN", r->key);
        cr_assert(!ff_range_ok(id, INFINITY) && !ff_range_ok(id, -INFINITY), "%s: inf", r->key);
        if (r->integer)
            cr_assert(!ff_range_ok(id, r->max - 0.5), "%s: a fraction", r->key);
    }
    /* The values. */
    cr_assert(!ff_range_ok(FF_RANGE_CELL, 1e-320));
    cr_assert(!ff_range_ok(FF_RANGE_CELL, 1e300));
    cr_assert(!ff_range_ok(FF_RANGE_TICK, 1e300));
    cr_assert(!ff_range_ok(FF_RANGE_PNG_SCALE, 1e37));
}

/* The products the programs form of two numbers read stay finite. */
Test(ranges, products_stay_finite)
{
    const ff_range *t = &ff_ranges[FF_RANGE_TICK];

    /* Grey 255 of a PNG is a float, never a wall. */
    cr_assert_leq(255 * ff_ranges[FF_RANGE_PNG_SCALE].max, FLT_MAX);
    cr_assert(isfinite((float)(255 * ff_ranges[FF_RANGE_PNG_SCALE].max)));
    /* A step of a tick, exact in a double's 53 bits. */
    cr_assert_lt(t->max * ff_ranges[FF_RANGE_SPEED].max, 9007199254740992.0);
    cr_assert(isfinite(t->max * t->max * ff_ranges[FF_RANGE_ACCEL].max));
    /* A radius in cells, an int64; a side of cells in world units. */
    cr_assert_lt(ff_ranges[FF_RANGE_RADIUS].max / ff_ranges[FF_RANGE_CELL].min, 9.2e18);
    cr_assert_lt(ff_ranges[FF_RANGE_CELL].max * 2147483647.0, 2.2e15 + 1);
    /* A cost and a turn cost are floats. */
    cr_assert_leq(ff_ranges[FF_RANGE_COST].max, FLT_MAX);
    cr_assert_leq(ff_ranges[FF_RANGE_TURN_COST].max, FLT_MAX);
}

/* The page text, whole; NULL when it cannot be read. */
static char *read_page(const char *page)
{
    char path[64];
    FILE *f;
    char *text;
    long n;

    snprintf(path, sizeof path, "man/man%c/%s", page[strlen(page) - 1], page);
    if (!(f = fopen(path, "rb")))
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    text = malloc((size_t)n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Whether page states range id: a line naming the key (".It Cm KEY",
 * ".It Fl ... KEY" or ".Cm KEY"), the range's text within the next lines,
 * with mdoc's line breaks read as blanks. */
static int states(const char *page, ff_range_id id)
{
    const ff_range *r = &ff_ranges[id];
    char *text = read_page(page), *p;
    int found = 0;

    cr_assert_not_null(text, "cannot read %s", page);
    for (p = text; !found && (p = strchr(p, '.')) != NULL; p++) {
        char *eol = strchr(p, '\n'), item[2048], *q, cm[64];
        size_t n;
        int lines = 0, names;
        if (!eol)
            break;
        *eol = '\0';
        snprintf(cm, sizeof cm, ".Cm %s", r->key);
        names = (strncmp(p, ".It ", 4) == 0 && (strstr(p, " Cm ") || strstr(p, " Fl ")) &&
                 strstr(p, r->key[0] == '-' ? r->key + 1 : r->key)) ||
                strcmp(p, cm) == 0;
        *eol = '\n';
        if (!names || (p > text && p[-1] != '\n'))
            continue;
        for (q = p, n = 0; *q && lines < 12 && n + 1 < sizeof item; q++) {
            if (*q == '\n')
                lines++;
            item[n++] = *q == '\n' ? ' ' : *q;
        }
        item[n] = '\0';
        found = strstr(item, r->text) != NULL;
    }
    free(text);
    return found;
}

Test(ranges, pages_state_every_range)
{
    /* Besides each entry's own page: the options that set a key. */
    static const struct {
        ff_range_id id;
        const char *page;
    } also[] = {
        { FF_RANGE_RADIUS, "ffbuild.1" },
        { FF_RANGE_TURN_COST, "ffbuild.1" },
        { FF_RANGE_CELL, "fftiled.5" },
        { FF_RANGE_COST, "fftiled.5" },
        { FF_RANGE_MAX_CELLS, "ffdir.1" },
        { FF_RANGE_MAX_CELLS, "ffquery.1" },
        { FF_RANGE_MAX_CELLS, "ffpull.1" },
        { FF_RANGE_MAX_CELLS, "fffunnel.1" },
        { FF_RANGE_MAX_CELLS, "ffpng.1" },
        { FF_RANGE_MAX_CELLS, "ffsim.1" },
        { FF_RANGE_MAX_CELLS, "ffinfo.1" },
        { FF_RANGE_MAX_CELLS, "ffexport.1" },
    };
    int k;
    size_t j;

    for (k = 0; k < FF_RANGE_COUNT; k++)
        cr_expect(states(ff_ranges[k].page, (ff_range_id)k), "%s does not state %s %s",
                  ff_ranges[k].page, ff_ranges[k].key, ff_ranges[k].text);
    for (j = 0; j < sizeof also / sizeof also[0]; j++)
        cr_expect(states(also[j].page, also[j].id), "%s does not state %s %s", also[j].page,
                  ff_ranges[also[j].id].key, ff_ranges[also[j].id].text);
}
